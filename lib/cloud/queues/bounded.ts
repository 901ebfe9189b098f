/**
 * Runs `fn` over `items` with at most `limit` calls in flight and returns the results in input
 * order. Callers that must not stop at one failure catch inside `fn`.
 */
export async function mapBounded<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  // One iterator shared by every lane: each lane takes the next item when it is free.
  const queue = items.entries();
  const lane = async (): Promise<void> => {
    for (const [index, item] of queue) results[index] = await fn(item, index);
  };
  const lanes = Math.min(Math.max(1, Math.floor(limit)), items.length);
  await Promise.all(Array.from({ length: lanes }, lane));
  return results;
}
