/** "1 blueprint", "2 blueprints", "0 entities": a count with the noun in its right number. */
export function countOf(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`;
}
