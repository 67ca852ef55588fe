/**
 * Analyzer text states ages as of the scan ("should have replaced it at ~02:13 UTC (47m ago)"). A Slack
 * message that is edited later (the answer card) or read hours later must not say "ago":
 * the age is restated as what it is, a time before the scan whose date the message shows —
 * "(47m before the scan)". Durations ("NotReady for 52m") are facts of the scan and stay.
 */
export function atScanTime(text: string): string {
  return text.replace(/\b(\d+[smhdy](?:\d+[smhd])?) ago\b/g, '$1 before the scan');
}
