/**
 * Runs tasks one after another per key, in the order they were handed over; tasks of different
 * keys run concurrently. A key's queue is dropped once it empties, so keys cost nothing at rest.
 * A task that throws does not stop the ones queued behind it.
 */
export function createKeyedQueue() {
  const tails = new Map<string, Promise<void>>();
  return {
    async run<T>(key: string, task: () => Promise<T>): Promise<T> {
      let release: () => void = () => undefined;
      const done = new Promise<void>((resolve) => {
        release = resolve;
      });
      const previous = tails.get(key);
      const tail = previous ? previous.then(() => done) : done;
      tails.set(key, tail);
      if (previous) await previous;
      try {
        return await task();
      } finally {
        release();
        if (tails.get(key) === tail) tails.delete(key);
      }
    },
    /** Keys with a task running or queued. */
    get size(): number {
      return tails.size;
    },
  };
}
