import * as z from 'zod';
import { withDeadline } from '../platform/egress-deadline.ts';
import { resolveAllowed } from '../platform/egress-guard.ts';
import { degraded, describeError, failed, passed, startTimer } from '../probes/outcome.ts';
import type { ProbeOutcome } from '../probes/types.ts';
import { defineCheckType } from './definition.ts';
import { type PingSummary, runPing } from './icmp/ping-command.ts';

const host = z
  .string()
  .trim()
  .min(1, 'Enter the host to ping: a name (router.lan) or an IP address.')
  .max(253, 'Enter a host name of 253 characters or fewer.')
  .meta({ description: 'The host to send echo requests to: a name or an IPv4 or IPv6 address.' });

const input = z.strictObject({
  host,
  count: z
    .number()
    .int('Enter a whole number of echo requests.')
    .min(1, 'Send at least 1 echo request.')
    .max(10, 'Send at most 10 echo requests per run.')
    .optional()
    .meta({ description: 'Echo requests sent per run, 0.2 s apart (1 to 10; default 3).' }),
  max_loss_percent: z
    .number()
    .int('Enter a whole percentage.')
    .min(0, 'Enter a percentage from 0 to 99.')
    .max(99, 'Enter a percentage from 0 to 99: losing every echo request is always down.')
    .optional()
    .meta({
      description:
        'Packet loss above this percentage is degraded; losing every echo request is down (0 to 99; default 0: any loss is degraded).',
    }),
  degraded_rtt_ms: z
    .number()
    .int('Enter a whole number of milliseconds.')
    .min(1, 'Enter at least 1 millisecond.')
    .max(60_000, 'Enter 60000 milliseconds or fewer.')
    .optional()
    .meta({ description: 'An average round trip slower than this (ms) is degraded; absent: never.' }),
});

const stored = z.object({
  host: z.string(),
  count: z.number().int().optional(),
  max_loss_percent: z.number().optional(),
  degraded_rtt_ms: z.number().optional(),
});

export type IcmpConfig = z.output<typeof input>;

const DEFAULT_COUNT = 3;

/**
 * ICMP echo ("ping"). Node has no ICMP sockets, so the probe runs the system's iputils `ping`
 * (./icmp/ping-command.ts says why that and not the npm package) on the address the SSRF guard
 * checked, never on the name, so a name cannot be resolved again to a private address.
 */
export const icmpCheckType = defineCheckType('icmp', {
  label: 'Ping (ICMP)',
  input,
  stored,
  tls: false,
  unsupported: {
    cloud:
      'icmp checks need raw network access, which AWS Lambda does not give: run them on the local runtime.',
  },
  defaultName: (config) => `Ping ${config.host}`,
  targetLabel: (config) => `icmp ${config.host}`,
  async probe(job, deps): Promise<ProbeOutcome> {
    const elapsed = startTimer();
    let summary: PingSummary;
    try {
      const guard = { allowPrivate: deps.allowPrivate, resolve: deps.resolve };
      const [target] = await withDeadline(job.timeout_ms, () => resolveAllowed(job.host, guard));
      if (!target) return failed(`could not resolve host ${job.host}`, elapsed());
      summary = await runPing({
        address: target.address,
        family: target.family,
        count: job.count ?? DEFAULT_COUNT,
        timeoutMs: job.timeout_ms,
      });
    } catch (err) {
      return failed(describeError(err), elapsed());
    }
    return judgePing(summary, job.max_loss_percent ?? 0, job.degraded_rtt_ms);
  },
});

/** Down when every echo was lost; degraded above the loss or round-trip thresholds; up otherwise. */
export function judgePing(
  summary: PingSummary,
  maxLossPercent: number,
  degradedRttMs: number | undefined,
): ProbeOutcome {
  const { transmitted, received, rtt } = summary;
  const loss = transmitted === 0 ? 100 : Math.round(((transmitted - received) / transmitted) * 100);
  const details = {
    packets_sent: transmitted,
    packets_received: received,
    packet_loss_percent: loss,
    ...(rtt ? { rtt_min_ms: rtt.min, rtt_avg_ms: rtt.avg, rtt_max_ms: rtt.max } : {}),
  };
  // The latency of a ping is its round trip, not the time the command took to run.
  const latency = rtt ? Math.round(rtt.avg) : 0;
  if (received === 0 || !rtt) {
    const why = summary.error ? `: ${summary.error}` : '';
    return failed(`no echo reply to ${transmitted} of ${transmitted} requests${why}`, latency, 0, details);
  }
  if (loss > maxLossPercent) {
    return degraded(
      `${loss}% packet loss (${received} of ${transmitted} replies) is above max_loss_percent ${maxLossPercent}`,
      latency,
      0,
      details,
    );
  }
  if (degradedRttMs !== undefined && rtt.avg > degradedRttMs) {
    return degraded(
      `average round trip ${rtt.avg} ms is above degraded_rtt_ms ${degradedRttMs}`,
      latency,
      0,
      details,
    );
  }
  return passed(latency, 0, details);
}
