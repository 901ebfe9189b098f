import { describe, expect, it } from 'vitest';
import { createProbeSlots } from '../../lib/local/probe-slots.ts';
import type { Probed, Prober } from '../../lib/probes/types.ts';

const definition = {
  check_type: 'http',
  target_url: 'http://127.0.0.1/',
  timeout_ms: 1000,
} as Parameters<Prober>[0];
const answer = (): Probed => ({
  outcome: { success: true, status_code: 200, latency_ms: 1, error_message: '' },
  startedMs: 0,
});

describe('probe slots', () => {
  it('hands freed slots to waiters first in first out, past the queue compaction, and never runs more than the limit', async () => {
    const limit = 3;
    const slots = createProbeSlots(limit);
    const started: number[] = [];
    const answers: (() => void)[] = [];
    let running = 0;
    let most = 0;
    const prober: Prober = () =>
      new Promise<Probed>((resolve) => {
        running += 1;
        most = Math.max(most, running);
        answers.push(() => {
          running -= 1;
          resolve(answer());
        });
      });
    // More waiters than the queue's compaction threshold (1,024), so its front is dropped mid-run.
    const total = 3000;
    const done = Array.from({ length: total }, (_, i) =>
      slots.bounded(prober, () => started.push(i))(definition),
    );
    await Promise.resolve();
    expect(slots.active).toBe(limit);
    expect(slots.waiting).toBe(total - limit);
    // Answer probes one at a time, oldest first, until every one has run.
    for (let answered = 0; answered < total; answered += 1) {
      await expect.poll(() => answers.length > answered, { timeout: 1000, interval: 1 }).toBe(true);
      answers[answered]?.();
    }
    await Promise.all(done);
    expect(started).toEqual(Array.from({ length: total }, (_, i) => i));
    expect(most).toBe(limit);
    expect(slots.active).toBe(0);
    expect(slots.waiting).toBe(0);
  });
});
