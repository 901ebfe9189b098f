import { afterEach } from 'vitest';
import { killAgents, startHttpTarget, TEST_LOCATION_KEY } from '../support/agent-process.ts';
import { startVigilStandIn } from '../support/vigil-stand-in.ts';

/** The slot the agent process tests lease their jobs for. */
export const SLOT = Date.parse('2026-11-24T12:00:00.000Z');

/** An http probe job of SLOT; its URL carries the job id (`?job=<id>`), so the target tells the jobs apart. */
export const httpJob = (id: string, url: string, timeout_ms = 5000) => ({
  job_id: id,
  slot: SLOT,
  check: { check_type: 'http', target_url: `${url}?job=${id}`, timeout_ms },
});

/**
 * What an agent process test starts, ended after each test of the file: the agents it started are
 * killed, then what it started here (or handed to `afterTest`) is stopped.
 */
export function agentTestProcesses() {
  const cleanups: (() => unknown)[] = [];
  afterEach(async () => {
    killAgents();
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });
  return {
    afterTest(...more: (() => unknown)[]): void {
      cleanups.push(...more);
    },
    /** A stand-in Vigil that knows the test location key, and an HTTP target that holds each answer `holdMs`. */
    async standInAndTarget(holdMs?: number) {
      const vigil = await startVigilStandIn(TEST_LOCATION_KEY);
      const target = await startHttpTarget(holdMs);
      cleanups.push(vigil.stop, target.close);
      return { vigil, target };
    },
  };
}
