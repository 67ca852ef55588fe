/**
 * The YAML that `kubectl get -o yaml` (and `-o yaml` of most Kubernetes tools) writes, read at about the
 * speed of JSON.parse: block mappings and sequences (a sequence may sit at its key's indentation), plain,
 * single- and double-quoted scalars (folded over several lines as go-yaml wraps long strings), literal
 * block scalars (`|`, `|-`, `|+`), empty `{}` / `[]`, JSON flow collections, comments and `---`
 * documents, resolved with the YAML 1.2 core schema. Anything else — anchors, aliases, tags, folded `>`
 * scalars, plain flow collections, complex keys, duplicate keys, tabs — throws Unsupported, and the
 * caller hands the text to a full YAML parser: this reader never guesses.
 */
export class UnsupportedYaml extends Error {}

interface Line {
  indent: number;
  /** The line without its indentation and trailing spaces; '' for a blank line. */
  text: string;
  /** The raw line (block scalars keep spaces beyond their indentation). */
  raw: string;
}

export function parseKubectlYaml(source: string): unknown[] {
  // JSON saved as .yaml (JSON is YAML): one document.
  if (/^\s*[[{]/.test(source)) {
    try {
      return [JSON.parse(source) as unknown];
    } catch {
      return unsupported('flow document');
    }
  }
  const docs: unknown[] = [];
  let current: Line[] = [];
  let started = false;
  const flush = () => {
    if (current.some((l) => l.text !== '' && !l.text.startsWith('#'))) docs.push(new Reader(current).document());
    else if (started) docs.push(null);
    current = [];
  };
  for (const rawLine of source.split('\n')) {
    const raw = rawLine.endsWith('\r') ? rawLine.slice(0, -1) : rawLine;
    if (raw === '---' || raw.startsWith('--- ') || raw === '...') {
      if (raw.startsWith('--- ') && raw.slice(4).trim() !== '' && !raw.slice(4).trim().startsWith('#'))
        unsupported('content after ---');
      if (raw !== '...') {
        if (started || current.some((l) => l.text !== '' && !l.text.startsWith('#'))) flush();
        started = true;
      } else flush();
      continue;
    }
    if (raw.startsWith('%')) unsupported('directive');
    let indent = 0;
    while (raw.charCodeAt(indent) === 32) indent++;
    if (raw.charCodeAt(indent) === 9) unsupported('tab');
    current.push({ indent, text: raw.slice(indent).trimEnd(), raw });
  }
  flush();
  return docs;
}

function unsupported(what: string): never {
  throw new UnsupportedYaml(what);
}

const MAYBE_SPECIAL = /^(?:$|[-+.0-9~nNtTfF])/;
const NULL = /^(?:~|null|Null|NULL)$/;
const TRUE = /^(?:true|True|TRUE)$/;
const FALSE = /^(?:false|False|FALSE)$/;
const SAFE_INT = /^-?(?:0|[1-9][0-9]{0,14})$/;
const SAFE_FLOAT = /^-?(?:0|[1-9][0-9]{0,14})\.[0-9]{1,15}$/;
/** Every other spelling the core schema reads as a number: left to the full parser. */
const CORE_NUMBER =
  /^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+|[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/;

/** A plain scalar as the YAML 1.2 core schema resolves it. */
function resolvePlain(s: string): unknown {
  // Most scalars start with a letter no special value starts with: strings, at once.
  if (!MAYBE_SPECIAL.test(s)) return s;
  if (s === '' || NULL.test(s)) return null;
  if (TRUE.test(s)) return true;
  if (FALSE.test(s)) return false;
  if (SAFE_INT.test(s) || SAFE_FLOAT.test(s)) return Number(s);
  if (CORE_NUMBER.test(s)) unsupported('number spelling');
  return s;
}

const ESCAPES: Record<string, string> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  ' ': ' ',
  '0': '\0',
};

function unescapeDouble(s: string): string {
  return s.replace(/\\(u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|.)/g, (_m, e: string) => {
    if (e.length > 1) return String.fromCharCode(parseInt(e.slice(1), 16));
    const r = ESCAPES[e];
    if (r === undefined) unsupported(`escape \\${e}`);
    return r;
  });
}

class Reader {
  private i = 0;
  constructor(private readonly lines: Line[]) {}

  document(): unknown {
    this.skip();
    if (this.i >= this.lines.length) return null;
    const value = this.node(-1);
    this.skip();
    if (this.i < this.lines.length) unsupported('content after the document');
    return value;
  }

  /** Skip blank and comment lines. */
  private skip(): void {
    while (this.i < this.lines.length && (this.lines[this.i]!.text === '' || this.lines[this.i]!.text.startsWith('#')))
      this.i++;
  }

  /** The node whose lines are indented more than `parent` (null when there is none). */
  private node(parent: number): unknown {
    this.skip();
    const line = this.lines[this.i];
    if (!line || line.indent <= parent) return null;
    if (isSeqItem(line.text)) return this.sequence(line.indent);
    if (keyEnd(line.text) >= 0) return this.mapping(line.indent);
    this.i++;
    return this.inline(line.text, parent);
  }

  private sequence(indent: number): unknown[] {
    const out: unknown[] = [];
    for (;;) {
      this.skip();
      const line = this.lines[this.i];
      if (!line || line.indent !== indent || !isSeqItem(line.text)) break;
      const rest = line.text.slice(1).trimStart();
      if (rest === '' || rest.startsWith('#')) {
        this.i++;
        out.push(this.node(indent));
        continue;
      }
      // "- key: value" and "- scalar": the item starts where its text does, as if on a line of its own.
      const col = indent + (line.text.length - rest.length);
      this.lines[this.i] = { indent: col, text: rest, raw: line.raw };
      out.push(this.node(indent));
    }
    return out;
  }

  private mapping(indent: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (;;) {
      this.skip();
      const line = this.lines[this.i];
      if (!line || line.indent !== indent) break;
      if (isSeqItem(line.text)) unsupported('sequence inside a mapping');
      const end = keyEnd(line.text);
      if (end < 0) unsupported('not a mapping entry');
      const key = parseKey(line.text.slice(0, end));
      if (Object.prototype.hasOwnProperty.call(out, key)) unsupported('duplicate key');
      const rest = line.text.slice(end + 1).trimStart();
      this.i++;
      let value: unknown;
      if (rest === '' || rest.startsWith('#')) {
        this.skip();
        const next = this.lines[this.i];
        // A sequence may sit at its key's indentation (what kubectl writes).
        value = next && next.indent === indent && isSeqItem(next.text) ? this.sequence(indent) : this.node(indent);
      } else value = this.inline(rest, indent);
      // `__proto__` stays plain data, as JSON.parse keeps it.
      if (key === '__proto__')
        Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
      else out[key] = value;
    }
    return out;
  }

  /** A value written after "key: " or "- ". */
  private inline(text: string, parent: number): unknown {
    const c = text[0]!;
    if (c === '|') return this.literal(text, parent);
    if (c === '{' || c === '[') {
      const t = stripComment(text);
      if (t === '{}') return {};
      if (t === '[]') return [];
      try {
        return JSON.parse(t) as unknown;
      } catch {
        return unsupported('flow collection');
      }
    }
    if ('>&*!%@`'.includes(c)) unsupported(`indicator ${c}`);
    return this.scalar(text, parent);
  }

  /** A plain or quoted scalar starting with `first`, continued on lines indented more than `parent`. */
  private scalar(first: string, parent: number): unknown {
    const q = first[0];
    if (q === '"' || q === "'") return this.quoted(first, parent);
    if (first.startsWith('- ') || first === '-' || '?:,[]{}#&*!|>%@`'.includes(first[0]!))
      unsupported('indicator at the start of a plain scalar');
    const parts = [plainPart(first)];
    for (;;) {
      const line = this.lines[this.i];
      if (!line) break;
      if (line.text === '') {
        parts.push('');
        this.i++;
        continue;
      }
      if (line.indent <= parent || line.text.startsWith('#')) break;
      parts.push(plainPart(line.text));
      this.i++;
    }
    while (parts.length > 1 && parts[parts.length - 1] === '') parts.pop();
    return parts.length === 1 ? resolvePlain(parts[0]!) : fold(parts);
  }

  private quoted(first: string, parent: number): string {
    const q = first[0]!;
    const pieces = [first.slice(1)];
    let closed = closingQuote(pieces[0]!, q);
    while (closed < 0) {
      const line = this.lines[this.i];
      if (!line || (line.text !== '' && line.indent <= parent)) unsupported('unterminated quoted scalar');
      this.i++;
      pieces.push(line.text);
      closed = closingQuote(line.text, q);
    }
    const last = pieces.length - 1;
    const after = pieces[last]!.slice(closed + 1).trim();
    if (after !== '' && !after.startsWith('#')) unsupported('text after a quoted scalar');
    pieces[last] = pieces[last]!.slice(0, closed);
    // Spaces around a line break are folded away; those inside one line are content.
    if (q === "'")
      return fold(
        pieces.map((p, k) => (k < last ? (k > 0 ? p.trim() : p.trimEnd()) : k > 0 ? p.trimStart() : p)),
      ).replace(/''/g, "'");
    // Double-quoted: a line ending in an odd number of backslashes continues without a space.
    let joined = '';
    for (let k = 0; k < pieces.length; k++) {
      let p = k === 0 ? pieces[k]! : pieces[k]!.trimStart();
      if (k < last) {
        const escapedBreak = /(^|[^\\])(\\\\)*\\$/.test(p);
        if (escapedBreak) {
          joined += p.slice(0, -1);
          continue;
        }
        p = p.trimEnd();
        if (p === '' && k > 0) {
          joined += '\n';
          continue;
        }
        joined += p + (pieces[k + 1]!.trim() === '' ? '' : ' ');
      } else joined += p;
    }
    return unescapeDouble(joined);
  }

  /** `|`, `|-`, `|+`: the lines indented more than `parent`, their common indentation removed. */
  private literal(header: string, parent: number): string {
    const m = /^\|([-+]?)\s*(#.*)?$/.exec(header);
    if (!m) unsupported('block scalar header');
    const chomp = m[1];
    const body: string[] = [];
    let blockIndent = -1;
    while (this.i < this.lines.length) {
      const line = this.lines[this.i]!;
      if (line.text === '') {
        body.push(line.raw.length > blockIndent && blockIndent >= 0 ? line.raw.slice(blockIndent) : '');
        this.i++;
        continue;
      }
      if (blockIndent < 0) {
        if (line.indent <= parent) break;
        blockIndent = line.indent;
        // Leading blank lines more indented than the first text line would change its indentation.
        if (body.some((b) => b.length > 0)) unsupported('block scalar leading spaces');
      }
      if (line.indent < blockIndent) break;
      body.push(line.raw.slice(blockIndent));
      this.i++;
    }
    let end = body.length;
    while (end > 0 && body[end - 1] === '') end--;
    const content = body.slice(0, end).join('\n');
    if (chomp === '-') return content;
    if (chomp === '+') return content + '\n'.repeat(body.length - end + (end > 0 ? 1 : 0));
    return end > 0 ? content + '\n' : '';
  }
}

function isSeqItem(text: string): boolean {
  return text === '-' || text.startsWith('- ');
}

/** Index of the ':' that ends a mapping key on this line, -1 when the line is no mapping entry. */
function keyEnd(text: string): number {
  const q = text[0];
  if (q === '"' || q === "'") {
    const close = closingQuote(text.slice(1), q);
    if (close < 0) return -1;
    const at = close + 2;
    return text[at] === ':' && (at + 1 === text.length || text[at + 1] === ' ') ? at : -1;
  }
  if (isSeqItem(text)) return -1;
  const sp = text.indexOf(': ');
  if (sp >= 0) return sp;
  return text.endsWith(':') ? text.length - 1 : -1;
}

function parseKey(raw: string): string {
  const k = raw.trimEnd();
  const q = k[0];
  if (q === '"') return unescapeDouble(k.slice(1, -1));
  if (q === "'") return k.slice(1, -1).replace(/''/g, "'");
  if (k === '' || '?:,[]{}#&*!|>%@`-'.includes(k[0]!) || k.includes(' #')) unsupported('key');
  // A key is a string in the object, as the full parser makes it ("null", "true", "1").
  return String(resolvePlain(k));
}

/** Index of the closing quote in `s` (the text after the opening one), -1 when the line does not close it. */
function closingQuote(s: string, q: string): number {
  for (let k = 0; k < s.length; k++) {
    const c = s[k];
    if (q === '"' && c === '\\') {
      k++;
      continue;
    }
    if (c === q) {
      if (q === "'" && s[k + 1] === "'") {
        k++;
        continue;
      }
      return k;
    }
  }
  return -1;
}

/** One line of a plain scalar: refused when it holds what would end it (": ", " #"). */
function plainPart(text: string): string {
  if (text.includes(': ') || text.endsWith(':') || text.includes(' #')) unsupported('plain scalar with an indicator');
  return text;
}

function stripComment(text: string): string {
  const at = text.indexOf(' #');
  return (at >= 0 ? text.slice(0, at) : text).trim();
}

/** Line folding: lines joined by a space, an empty line is a line break. */
function fold(parts: string[]): string {
  let out = '';
  let pendingSpace = false;
  for (let k = 0; k < parts.length; k++) {
    const p = parts[k]!;
    if (p === '' && k > 0) {
      out += '\n';
      pendingSpace = false;
      continue;
    }
    if (pendingSpace) out += ' ';
    out += p;
    pendingSpace = true;
  }
  return out;
}
