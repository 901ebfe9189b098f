import { describe, expect, it } from 'vitest';
import { createJobMemory } from '../../lib/agent/job-memory.ts';
import type { ResultEntry } from '../../lib/agent/protocol.ts';

const entry = (job_id: string): ResultEntry => ({
  job_id,
  slot: 7,
  result: {
    success: true,
    status_code: 0,
    latency_ms: 1,
    error_message: '',
    checked_at: '2026-11-24T12:00:00.000Z',
  },
});

describe('the job memory', () => {
  it('follows a job from probing to unsent to acknowledged, with the result it was answered with', () => {
    const memory = createJobMemory({ maxAcked: 10, ackedTtlMs: 60_000 });

    memory.probing('a', 7);
    expect(memory.state('a', 7, 0)).toBe('probing');
    memory.unsent(entry('a'));
    expect(memory.state('a', 7, 0)).toBe('unsent');
    memory.acknowledged(entry('a'), 0);

    expect(memory.state('a', 7, 1)).toBe('acked');
    expect(memory.ackedResult('a', 7)).toEqual(entry('a'));
    expect(memory.state('a', 8, 1)).toBeUndefined();
  });

  it('forgets acknowledged jobs after their time or beyond their number, oldest first, never running ones', () => {
    const memory = createJobMemory({ maxAcked: 2, ackedTtlMs: 1000 });
    memory.probing('running', 7);
    memory.acknowledged(entry('a'), 0);
    memory.acknowledged(entry('b'), 500);
    memory.acknowledged(entry('c'), 600);

    expect(memory.state('a', 7, 600)).toBeUndefined();
    expect(memory.state('b', 7, 600)).toBe('acked');
    expect(memory.state('b', 7, 1501)).toBeUndefined();
    expect(memory.state('c', 7, 1501)).toBe('acked');
    expect(memory.state('running', 7, 1_000_000)).toBe('probing');
    expect(memory.ackedCount).toBe(0);
  });
});
