import { describe, expect, it } from 'vitest';
import { createKeyedQueue } from '../../lib/platform/keyed-queue.ts';

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('keyed queue', () => {
  it('runs the tasks of one key one at a time, in order, and different keys at once', async () => {
    const queue = createKeyedQueue();
    const log: string[] = [];
    const gates = new Map<string, () => void>();
    const task = (name: string) => () =>
      new Promise<string>((resolve) => {
        log.push(`start ${name}`);
        gates.set(name, () => {
          log.push(`end ${name}`);
          resolve(name);
        });
      });
    const a1 = queue.run('a', task('a1'));
    const a2 = queue.run('a', task('a2'));
    const b1 = queue.run('b', task('b1'));
    await tick();
    expect(log).toEqual(['start a1', 'start b1']);
    gates.get('a1')?.();
    await tick();
    expect(log).toEqual(['start a1', 'start b1', 'end a1', 'start a2']);
    gates.get('a2')?.();
    gates.get('b1')?.();
    expect(await Promise.all([a1, a2, b1])).toEqual(['a1', 'a2', 'b1']);
    expect(queue.size).toBe(0);
  });

  it('goes on with the next task after one throws, and the caller of the failed one gets its error', async () => {
    const queue = createKeyedQueue();
    const failed = queue.run('k', async () => {
      throw new Error('boom');
    });
    const next = queue.run('k', async () => 'next');
    await expect(failed).rejects.toThrow('boom');
    expect(await next).toBe('next');
    expect(queue.size).toBe(0);
  });
});
