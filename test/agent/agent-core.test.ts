import { describe, expect, it } from 'vitest';
import { createAgent } from '../../lib/agent/agent.ts';
import type { AgentClient } from '../../lib/agent/agent-client.ts';
import type { ReadJob, ResultEntry } from '../../lib/agent/protocol.ts';
import { systemClock } from '../../lib/platform/clock.ts';
import { silentLogger } from '../../lib/platform/logger.ts';
import type { Probed } from '../../lib/probes/types.ts';
import { WAIT } from '../support/wait.ts';

const job = (id: string): ReadJob => ({
  job_id: id,
  slot: 1,
  check: { check_type: 'tcp', host: '127.0.0.1', port: 1, timeout_ms: 1000 },
});

describe('the agent', () => {
  it('keeps to its concurrency when Vigil answers a lease with more jobs than asked', async () => {
    const leases: number[] = [];
    const posted: ResultEntry[] = [];
    let handedOut = false;
    const client: AgentClient = {
      lease: async ({ max }, signal) => {
        leases.push(max);
        if (!handedOut) {
          handedOut = true;
          return ['a', 'b', 'c', 'd', 'e'].map(job);
        }
        await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
        return [];
      },
      postResults: async (entries) => {
        posted.push(...entries);
        return {
          results: entries.map((e) => ({ job_id: e.job_id, slot: e.slot, status: 'recorded' as const })),
        };
      },
      heartbeat: async () => ({
        location: { id: 'loc_1', name: 'office' },
        server_time: new Date().toISOString(),
      }),
      close: async () => {},
    };
    let running = 0;
    let most = 0;
    const release: (() => void)[] = [];
    const agent = createAgent(
      {
        client,
        prober: () => {
          running += 1;
          most = Math.max(most, running);
          return new Promise<Probed>((resolve) =>
            release.push(() => {
              running -= 1;
              resolve({
                outcome: { success: true, status_code: 0, latency_ms: 1, error_message: '' },
                startedMs: Date.now(),
              });
            }),
          );
        },
        clock: systemClock,
        logger: silentLogger,
        version: 'test',
      },
      { concurrency: 2, maxUnsent: 100, heartbeatIntervalMs: 60_000, maxBackoffMs: 1000 },
    );
    const done = agent.run();

    for (let n = 0; n < 5; n++) {
      await expect.poll(() => release.length, WAIT).toBeGreaterThan(0);
      release.shift()?.();
    }
    await expect.poll(() => posted.length, WAIT).toBe(5);
    agent.stop();

    expect(await done).toEqual({ unsent: 0 });
    expect(most).toBe(2);
    expect(leases[0]).toBe(2);
    expect(posted.map((e) => e.job_id).sort()).toEqual(['a', 'b', 'c', 'd', 'e']);
  });
});
