import { performance } from 'node:perf_hooks';
import { httpRequest } from '../../egress/egress.ts';
import { TimeoutError } from '../../egress/egress-errors.ts';
import { type HopTimings, http1Request } from '../../egress/http1-client.ts';
import { evaluateAssertions } from '../../probes/assertions.ts';
import { trustedCa } from '../../probes/check-trust.ts';
import { describeError, startTimer } from '../../probes/outcome.ts';
import { loadPatternEngine } from '../../probes/pattern-engine.ts';
import type { ApiStepReport, CheckTlsTrust, ProbeDeps, StepTimings } from '../../probes/types.ts';
import { extract } from './extract.ts';
import type { MultistepStep } from './multistep-schema.ts';
import { render, type TemplateScope } from './templates.ts';

/** How much of each step's body its assertions and extractions read; the rest is never read. */
const BODY_WINDOW_BYTES = 64 * 1024;

/** What one step is given besides its config. */
export interface StepContext {
  scope: TemplateScope;
  /** The ms this step may take: its own timeout_ms, cut to what is left of the check's. */
  budgetMs: number;
  /** Whether the budget is what is left of the check's timeout_ms (a timeout then says so). */
  budgetIsTotal: boolean;
  totalTimeoutMs: number;
  tls: CheckTlsTrust | undefined;
  deps: ProbeDeps;
}

/** A step's report, its extracted values when it passed, and the values it sent that results must not show. */
export interface StepRun {
  report: ApiStepReport;
  extracted: Record<string, string>;
  sent: string[];
}

/** Whole ms between two marks, when both were taken. */
const span = (from: number | undefined, to: number | undefined) =>
  from !== undefined && to !== undefined ? Math.max(0, Math.round(to - from)) : undefined;

function timingsOf(marks: HopTimings, totalMs: number): StepTimings {
  const connected = marks.secure ?? marks.connect;
  const phases = {
    dns_ms: span(marks.start, marks.lookup),
    connect_ms: span(marks.lookup ?? marks.start, marks.connect),
    tls_ms: span(marks.connect, marks.secure),
    first_byte_ms: span(connected, marks.firstByte),
  };
  const taken = Object.entries(phases).filter(([, ms]) => ms !== undefined);
  return { ...Object.fromEntries(taken), total_ms: totalMs };
}

/**
 * Runs one step: fills its references, sends it through the SSRF guard (every redirect hop too,
 * lib/egress/egress.ts) with the check's TLS trust, judges its status and assertions as an http
 * check does, and extracts its values. Never throws: a failure is the report's `error`.
 */
export async function runStep(step: MultistepStep, ctx: StepContext): Promise<StepRun> {
  const elapsed = startTimer();
  const marks: HopTimings = {};
  const sent: string[] = [];
  const failedWith = (error: string, status = 0): StepRun => ({
    report: {
      name: step.name,
      outcome: 'failed',
      status_code: status,
      error,
      timings: timingsOf(marks, elapsed()),
    },
    extracted: {},
    sent,
  });
  let url: string;
  let headers: Record<string, string>;
  let body: string | undefined;
  try {
    url = render(step.url, ctx.scope);
    headers = Object.fromEntries(
      Object.entries(step.headers ?? {}).map(([h, v]) => [h, render(v, ctx.scope)]),
    );
    body = step.body === undefined ? undefined : render(step.body, ctx.scope);
  } catch (err) {
    return failedWith(err instanceof Error ? err.message : String(err));
  }
  // Header values are credentials as an http check's are: whatever they became, results hide them.
  sent.push(...Object.values(headers));
  const assertions = step.assertions ?? [];
  const extractions = Object.entries(step.extract ?? {});
  const readsBody =
    assertions.some((a) => a.source === 'body' || a.source === 'json') ||
    extractions.some(([, e]) => e.source === 'json_body' || e.source === 'body_regex');
  try {
    if (assertions.some((a) => a.op === 'matches') || extractions.some(([, e]) => e.source === 'body_regex'))
      await loadPatternEngine();
    const res = await httpRequest({
      url,
      method: step.method ?? 'GET',
      headers,
      ...(body !== undefined ? { body } : {}),
      timeoutMs: ctx.budgetMs,
      maxBodyBytes: readsBody ? BODY_WINDOW_BYTES : 0,
      allowPrivate: ctx.deps.allowPrivate,
      resolve: ctx.deps.resolve,
      ca: trustedCa(ctx.deps.tlsCa, ctx.tls),
      ...(ctx.tls?.skip_verify ? { rejectUnauthorized: false } : {}),
      // The hand-written client, whatever deps.transport says: it is the one that marks the phases.
      transport: http1Request,
      timings: marks,
    });
    const latency = elapsed();
    const expected = step.expected_status;
    const statusOk = expected === undefined ? res.status >= 200 && res.status < 300 : res.status === expected;
    if (!statusOk) return failedWith(`expected status ${expected ?? '2xx'}, got ${res.status}`, res.status);
    const responseBody = readsBody ? res.bodyPrefix.toString('utf8') : '';
    const failure = evaluateAssertions(assertions, {
      status: res.status,
      headers: res.headers,
      body: responseBody,
      latencyMs: latency,
    });
    if (failure !== undefined) return failedWith(failure, res.status);
    const extracted: Record<string, string> = {};
    for (const [name, extraction] of extractions) {
      const found = extract(extraction, { headers: res.headers, body: responseBody });
      if ('error' in found) return failedWith(`extract ${name}: ${found.error}`, res.status);
      extracted[name] = found.value;
    }
    const slow = step.degraded_latency_ms !== undefined && latency > step.degraded_latency_ms;
    const report: ApiStepReport = {
      name: step.name,
      outcome: slow ? 'degraded' : 'passed',
      status_code: res.status,
      ...(slow
        ? { error: `latency ${latency} ms is above its degraded_latency_ms ${step.degraded_latency_ms}` }
        : {}),
      timings: timingsOf(marks, latency),
    };
    return { report, extracted, sent };
  } catch (err) {
    if (err instanceof TimeoutError && ctx.budgetIsTotal)
      return failedWith(`the check's timeout_ms of ${ctx.totalTimeoutMs} ms ran out during this step`);
    return failedWith(describeError(err));
  }
}

/** Now, on the clock the deadline is kept by. */
export const now = () => performance.now();
