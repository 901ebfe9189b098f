import { withDeadline } from '../../egress/egress-deadline.ts';
import { resolveAllowed } from '../../egress/egress-guard.ts';
import { degraded, describeError, failed, passed, startTimer } from '../../probes/outcome.ts';
import type { ProbeDeps, ProbeOutcome } from '../../probes/types.ts';
import type { IcmpProbeJob } from './icmp.ts';
import { type PingSummary, runPing } from './ping-command.ts';

const DEFAULT_COUNT = 3;

/** Pings the address the SSRF guard checked (never the name) and judges the summary. */
export async function runIcmpProbe(job: IcmpProbeJob, deps: ProbeDeps): Promise<ProbeOutcome> {
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
}

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
