import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { judgePing, runIcmpProbe } from '../../lib/check-types/icmp/icmp-probe.ts';
import { parsePingOutput } from '../../lib/check-types/icmp/ping-command.ts';
import { systemClock } from '../../lib/platform/clock.ts';
import type { ProbeDeps, ProbeOutcome } from '../../lib/probes/types.ts';

const run = promisify(execFile);
const deps: ProbeDeps = { clock: systemClock, allowPrivate: true };
const job = (extra: Partial<Parameters<typeof runIcmpProbe>[0]> = {}) => ({
  check_type: 'icmp' as const,
  host: '127.0.0.1',
  timeout_ms: 1000,
  ...extra,
});

/** The probe run in a network namespace of its own, with `setup` (ip commands) run there first. */
async function probeInNamespace(setup: string, host: string): Promise<ProbeOutcome> {
  const script = `${setup} && exec "$0" test/check-types/support/icmp-probe-cli.ts "$1" 500`;
  const { stdout } = await run('unshare', ['-n', 'sh', '-c', script, process.execPath, host], {
    timeout: 20_000,
  });
  return JSON.parse(stdout) as ProbeOutcome;
}

describe('icmp check type', () => {
  it('is up when 127.0.0.1 answers, with the round trips in details', async () => {
    const outcome = await runIcmpProbe(job({ count: 2 }), deps);
    expect(outcome).toMatchObject({ success: true, error_message: '' });
    expect(outcome.degraded).toBeUndefined();
    expect(outcome.details).toMatchObject({ packets_sent: 2, packets_received: 2, packet_loss_percent: 0 });
    expect(outcome.details?.rtt_avg_ms).toBeGreaterThan(0);
  });

  it('pings ::1 over IPv6', async () => {
    const outcome = await runIcmpProbe(job({ host: '::1', count: 1 }), deps);
    expect(outcome).toMatchObject({ success: true, details: { packets_received: 1 } });
  });

  it('refuses a private target without allowPrivate, before any echo is sent', async () => {
    const outcome = await runIcmpProbe(job({ host: '127.0.0.1' }), { ...deps, allowPrivate: false });
    expect(outcome.success).toBe(false);
    expect(outcome.error_message).toMatch(/destination 127\.0\.0\.1 is .*loopback/);
    expect(outcome.details).toBeUndefined();
  });

  it('resolves a name through the guard and pings the address it answered', async () => {
    const resolved: string[] = [];
    const outcome = await runIcmpProbe(job({ host: 'router.test', count: 1 }), {
      ...deps,
      resolve: async (name) => {
        resolved.push(name);
        return [{ address: '127.0.0.1', family: 4 }];
      },
    });
    expect(resolved).toEqual(['router.test']);
    expect(outcome.success).toBe(true);
    const denied = await runIcmpProbe(job({ host: 'router.test' }), {
      ...deps,
      allowPrivate: false,
      resolve: async () => [{ address: '10.0.0.1', family: 4 }],
    });
    expect(denied.error_message).toMatch(/destination 10\.0\.0\.1 is/);
  });

  it('is down when no echo comes back (a dropped address in a namespace of its own)', async () => {
    // 192.0.2.0/24 (TEST-NET-1) routed to the namespace's loopback: the kernel drops the echo.
    const outcome = await probeInNamespace(
      'ip link set lo up && ip route add 192.0.2.0/24 dev lo',
      '192.0.2.1',
    );
    expect(outcome).toMatchObject({
      success: false,
      error_message: 'no echo reply to 2 of 2 requests',
      details: { packets_sent: 2, packets_received: 0, packet_loss_percent: 100 },
    });
  });

  it('is down with what ping said when the network is unreachable', async () => {
    const outcome = await probeInNamespace('true', '192.0.2.1');
    expect(outcome.success).toBe(false);
    expect(outcome.error_message).toBe('ping failed: connect: Network is unreachable');
  });
});

describe('judging ping summaries', () => {
  const summary = parsePingOutput(
    [
      'PING 10.0.0.1 (10.0.0.1) 56(84) bytes of data.',
      '',
      '--- 10.0.0.1 ping statistics ---',
      '4 packets transmitted, 3 received, 25% packet loss, time 603ms',
      'rtt min/avg/max/mdev = 1.250/12.500/30.000/5.000 ms',
    ].join('\n'),
  );

  it('reads iputils summary lines', () => {
    expect(summary).toEqual({ transmitted: 4, received: 3, rtt: { min: 1.25, avg: 12.5, max: 30 } });
    expect(parsePingOutput('ping: connect: Network is unreachable\n')).toBeUndefined();
  });

  it('is degraded when loss is above max_loss_percent, up at or below it', () => {
    if (!summary) throw new Error('no summary');
    expect(judgePing(summary, 0, undefined)).toMatchObject({
      success: true,
      degraded: true,
      latency_ms: 13,
      error_message: '25% packet loss (3 of 4 replies) is above max_loss_percent 0',
    });
    expect(judgePing(summary, 25, undefined)).toMatchObject({ success: true, error_message: '' });
  });

  it('is degraded when the average round trip is above degraded_rtt_ms', () => {
    if (!summary) throw new Error('no summary');
    expect(judgePing(summary, 50, 10)).toMatchObject({
      degraded: true,
      error_message: 'average round trip 12.5 ms is above degraded_rtt_ms 10',
    });
    expect(judgePing(summary, 50, 13).degraded).toBeUndefined();
  });
});
