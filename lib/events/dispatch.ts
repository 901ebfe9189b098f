import type { Change, ChangeConsumer } from '../store/change-feed.ts';

/** Hands one batch of changes to every consumer, in order; a throw makes the source redeliver. */
export async function dispatchChanges(changes: Change[], consumers: ChangeConsumer[]): Promise<void> {
  if (changes.length === 0) return;
  for (const consume of consumers) await consume(changes);
}
