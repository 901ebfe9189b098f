import { afterEach, describe, expect, it } from 'vitest';
import {
  keyFile,
  killAgents,
  startAgent,
  startHttpTarget,
  TEST_LOCATION_KEY,
} from '../support/agent-process.ts';
import { startVigilStandIn } from '../support/vigil-stand-in.ts';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  killAgents();
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

const SLOT = Date.parse('2026-11-24T12:00:00.000Z');

describe('vigil agent concurrency', () => {
  it('never has more than --concurrency probes in flight at the target, and probes every job', async () => {
    const vigil = await startVigilStandIn(TEST_LOCATION_KEY);
    const target = await startHttpTarget(300);
    cleanups.push(vigil.stop, target.close);
    vigil.enqueue(
      ...Array.from({ length: 12 }, (_, i) => ({
        job_id: `job-${i}`,
        slot: SLOT,
        check: { check_type: 'http', target_url: target.url(`/slow?job=${i}`), timeout_ms: 5000 },
      })),
    );

    startAgent(['--url', vigil.url, '--key-file', keyFile(), '--concurrency', '3']);

    await expect.poll(() => vigil.state.stored.size, { timeout: 30_000 }).toBe(12);
    expect(target.hits('/slow')).toBe(12);
    expect(target.maxInFlight).toBeLessThanOrEqual(3);
    expect(target.maxInFlight).toBeGreaterThan(1);
    expect(vigil.state.leases.every((lease) => lease.max <= 3)).toBe(true);
  });
});
