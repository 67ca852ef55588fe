/** A button label of at most 75 characters (Slack renders longer ones cut): the object name is shortened with "…". */
export function labelOf(prefix: string, name: string, max = 75): string {
  const room = max - prefix.length;
  return `${prefix}${name.length > room ? `${name.slice(0, Math.max(1, room - 1))}…` : name}`;
}
