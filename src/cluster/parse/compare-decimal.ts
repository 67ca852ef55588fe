/** Order of two non-negative decimal strings by value (uint64 ids cannot go through Number). */
export function compareDecimal(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}
