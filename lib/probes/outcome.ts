import { performance } from 'node:perf_hooks';
import { ConnectionError, isTlsFailureCode, toEgressError } from '../egress/egress-errors.ts';
import type { ProbeDetails, ProbeOutcome, ProbeScreenshot } from './types.ts';

/** Starts a monotonic timer; the returned function gives whole milliseconds elapsed. */
export function startTimer(): () => number {
  const started = performance.now();
  return () => Math.max(0, Math.round(performance.now() - started));
}

/** A passing outcome. */
export function passed(latencyMs: number, statusCode = 0, details?: ProbeDetails): ProbeOutcome {
  return withDetails(
    { success: true, status_code: statusCode, latency_ms: latencyMs, error_message: '' },
    details,
  );
}

/** An outcome with a message a user reads in the check results, and its latency, status and details. */
type MessageOutcome = (
  message: string,
  latencyMs: number,
  statusCode?: number,
  details?: ProbeDetails,
) => ProbeOutcome;

const withMessage =
  (verdict: Pick<ProbeOutcome, 'success' | 'degraded'>): MessageOutcome =>
  (message, latencyMs, statusCode = 0, details) =>
    withDetails(
      { ...verdict, status_code: statusCode, latency_ms: latencyMs, error_message: message },
      details,
    );

/** A degraded pass: it succeeded, with the reason it is degraded in `error_message`. */
export const degraded = withMessage({ success: true, degraded: true });

/** A failing outcome with the message a user reads in the check results. */
export const failed = withMessage({ success: false });

/** The outcome degraded when it passed slower than `thresholdMs`; as it was otherwise. */
export function degradeIfSlow(outcome: ProbeOutcome, thresholdMs: number | undefined): ProbeOutcome {
  if (!outcome.success || outcome.degraded || thresholdMs === undefined) return outcome;
  if (outcome.latency_ms <= thresholdMs) return outcome;
  return {
    ...outcome,
    degraded: true,
    error_message: `latency ${outcome.latency_ms} ms is above degraded_latency_ms ${thresholdMs}`,
  };
}

function withDetails(outcome: ProbeOutcome, details: ProbeDetails | undefined): ProbeOutcome {
  return details ? { ...outcome, details } : outcome;
}

/** The message for a thrown error: egress errors carry their own ("connection refused", "timed out after 5000 ms"). */
export function describeError(err: unknown): string {
  return toEgressError(err).message;
}

/** A failing outcome for a thrown error; a TLS failure keeps its code in `details.error_code`. */
export function failedOn(err: unknown, latencyMs: number): ProbeOutcome {
  const egress = toEgressError(err);
  const tls = egress instanceof ConnectionError && isTlsFailureCode(egress.code);
  return failed(egress.message, latencyMs, 0, tls ? { error_code: egress.code } : undefined);
}

/** "1 day", "3 days". */
export function days(n: number): string {
  return n === 1 ? '1 day' : `${n} days`;
}

/**
 * The base64 an answer that carries a browser run's screenshots inline holds at most (a draft's,
 * and the synchronous browser function's, whose answer Lambda bounds at 6 MB).
 */
export const INLINE_SCREENSHOT_CHARS = 3 * 1024 * 1024;

/**
 * A run's screenshots within `maxChars` of base64: newest first until the bound is spent (the
 * failing step's is always the last taken, so it is kept first), answered in step order, with how
 * many were left out.
 */
export function newestScreenshots(
  shots: readonly ProbeScreenshot[],
  maxChars = INLINE_SCREENSHOT_CHARS,
): { kept: ProbeScreenshot[]; leftOut: number } {
  const kept: ProbeScreenshot[] = [];
  let chars = 0;
  for (const shot of [...shots].reverse()) {
    if (chars + shot.jpeg.length > maxChars) continue;
    chars += shot.jpeg.length;
    kept.unshift(shot);
  }
  return { kept, leftOut: shots.length - kept.length };
}
