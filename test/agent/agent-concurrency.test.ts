import { describe, expect, it } from 'vitest';
import { keyFile, startAgent } from '../support/agent-process.ts';
import { agentTestProcesses, httpJob } from './agent-rig.ts';

const processes = agentTestProcesses();

describe('vigil agent concurrency', () => {
  it('never has more than --concurrency probes in flight at the target, and probes every job', async () => {
    const { vigil, target } = await processes.standInAndTarget(300);
    vigil.enqueue(...Array.from({ length: 12 }, (_, i) => httpJob(`job-${i}`, target.url('/slow'))));

    startAgent(['--url', vigil.url, '--key-file', keyFile(), '--concurrency', '3']);

    await expect.poll(() => vigil.state.stored.size, { timeout: 30_000 }).toBe(12);
    expect(target.hits('/slow')).toBe(12);
    expect(target.maxInFlight).toBeLessThanOrEqual(3);
    expect(target.maxInFlight).toBeGreaterThan(1);
    expect(vigil.state.leases.every((lease) => lease.max <= 3)).toBe(true);
  });
});
