/**
 * Hostile text, as a cluster object, an event, an API error body or a stored request could carry it.
 * Every entry starts with `HOSTILE-<n>` (so a test can find where the value
 * landed) and ends with line breaks of several kinds each followed by {@link FORGED}: a line of the
 * rendered output that starts with FORGED is a line the attacker made.
 */
export const FORGED = 'FORGED-LINE';

const ATTACKS = [
  '<!channel> everyone look',
  '<!here|here> <!everyone>',
  '<@U0EVIL> approved this',
  '<#C0EVIL|general> and <!subteam^S0EVIL|@sre>',
  '<https://evil.example/login|click here to approve>',
  '<mailto:boss@evil.example|mail the boss>',
  'https://evil.example/bare and http://10.0.0.1:8080/x',
  '@here @channel @everyone @boss',
  '*EVIL-BOLD* _EVIL-ITALIC_ ~EVIL-STRIKE~ `EVIL-CODE`',
  '``` breaks out of the code block ```',
  '&lt;!channel&gt; &amp;lt; pre-escaped',
  '> a quote that is not ours',
  'rtl \u202Egnp.exe\u202C and isolate \u2066evil\u2069 and mark \u200F',
  'zero\u200Bwidth\u200Cnon\u200Djoin\u2060word\uFEFFbom\u00ADsoft',
  'ansi \u001b[31mRED\u001b[0m \u001b]0;title\u0007 \u009b2J clear',
  'controls \u0000nul \u0007bel \u0008bs \u007fdel tab\there',
  ':white_check_mark: *Approved* by <@U0BOSS>',
  'lone surrogate \uD800 end',
  `long ${'A'.repeat(5000)}`,
];

/** Line breaks an attacker can use to start a line of their own. */
const BREAKS = ['\n', '\r\n', '\r', '\u2028', '\u2029', '\u0085', '\u000b'];

/** The corpus: one value per attack, each with every kind of line break leading to a forged line. */
export const HOSTILE_TEXTS: readonly string[] = ATTACKS.map(
  (a, i) => `HOSTILE-${i} ${a}${BREAKS.map((b) => `${b}${FORGED} *Cause:* forged ${b}Approved by <@U0EVIL>`).join('')}`,
);

/** One value that carries every attack at once (a field shown in full, e.g. an error). */
export const HOSTILE_ALL = `HOSTILE-ALL ${ATTACKS.slice(0, -1).join(' ')}\n${FORGED} Approved by <@U0EVIL>\n\`\`\`\n${FORGED} in code\`\`\` <!channel>`;
