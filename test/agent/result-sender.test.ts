import { describe, expect, it } from 'vitest';
import { AgentRequestError } from '../../lib/agent/agent-client.ts';
import { createAgentMetrics } from '../../lib/agent/agent-metrics.ts';
import { createJobMemory } from '../../lib/agent/job-memory.ts';
import type { ResultEntry } from '../../lib/agent/protocol.ts';
import { createResultSender } from '../../lib/agent/result-sender.ts';
import { createBackoff } from '../../lib/agent/waits.ts';
import { systemClock } from '../../lib/platform/clock.ts';
import { silentLogger } from '../../lib/platform/logger.ts';

const entry = (job_id: string): ResultEntry => ({
  job_id,
  slot: 1,
  result: {
    success: true,
    status_code: 200,
    latency_ms: 5,
    error_message: '',
    checked_at: '2026-11-24T12:00:00.000Z',
  },
});

function sender(postResults: (entries: ResultEntry[]) => Promise<unknown>) {
  const memory = createJobMemory({ maxAcked: 100, ackedTtlMs: 60_000 });
  const metrics = createAgentMetrics('test', { inFlight: () => 0, unsent: () => 0 });
  const posts: string[][] = [];
  const s = createResultSender({
    client: {
      postResults: async (entries) => {
        posts.push(entries.map((e) => e.job_id));
        return (await postResults(entries)) as never;
      },
    },
    memory,
    metrics,
    logger: silentLogger,
    backoff: createBackoff({ baseMs: 1, maxMs: 5 }),
    clock: systemClock,
    onRoom: () => {},
  });
  return { s, memory, posts };
}

const acked = (entries: ResultEntry[]) => ({
  results: entries.map((e) => ({ job_id: e.job_id, slot: e.slot, status: 'recorded' })),
});

describe('the result sender', () => {
  it('sends a batch refused as malformed again one by one, and drops only the result refused alone', async () => {
    const { s, memory, posts } = sender(async (entries) => {
      if (entries.some((e) => e.job_id === 'bad'))
        throw new AgentRequestError('answered 400', 'rejected', 400);
      return acked(entries);
    });
    for (const id of ['a', 'bad', 'c']) s.add(entry(id));
    s.finish();

    await s.run(new AbortController().signal);

    expect(posts).toEqual([['a', 'bad', 'c'], ['a'], ['bad'], ['c']]);
    expect(memory.state('a', 1, Date.now())).toBe('acked');
    expect(memory.state('c', 1, Date.now())).toBe('acked');
    expect(memory.state('bad', 1, Date.now())).toBeUndefined();
  });

  it('sends again what the answer left out, and keeps everything through other failures', async () => {
    let calls = 0;
    const { s, posts } = sender(async (entries) => {
      calls += 1;
      if (calls === 1) throw new AgentRequestError('answered 404', 'rejected', 404);
      if (calls === 2) throw new AgentRequestError('answered 401', 'auth', 401);
      return acked(entries.slice(0, 1));
    });
    s.add(entry('a'));
    s.add(entry('b'));
    s.finish();

    await s.run(new AbortController().signal);

    expect(posts).toEqual([['a', 'b'], ['a', 'b'], ['a', 'b'], ['b']]);
    expect(s.size).toBe(0);
  });
});
