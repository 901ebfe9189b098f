import * as z from 'zod';
import { secretRedactor } from '../../domain/redaction.ts';
import type { BrowserRunAnswer } from '../../probes/browser-run-wire.ts';
import { degradeIfSlow, failed, passed, startTimer } from '../../probes/outcome.ts';
import type { BrowserStepReport, ProbeDeps, Probed, ProbeOutcome } from '../../probes/types.ts';
import type { ConfiguredProbeJob } from '../contract/definition.ts';
import { render } from '../multistep/templates.ts';
import { type BrowserConfig, browserStored } from './browser-schema.ts';

/** What a browser probe runs: the config with the common probe fields. */
export type BrowserProbeJob = ConfiguredProbeJob<'browser', BrowserConfig>;

/** The longest a browser run's steps may take together, whatever the check's timeout_ms says. */
const MAX_RUN_MS = 60_000;

/** The step fields that may hold `{{variables.x}}`. */
const TEMPLATED = ['selector', 'url', 'value', 'text'] as const;

/** A step's error as stored: at most 500 characters (a result holds up to 30 steps). */
const bounded = (text: string) => (text.length > 500 ? `${text.slice(0, 499)}…` : text);

/**
 * Runs a browser check in the runtime's browser runner (a sandboxed child process per run, every
 * request through the SSRF guard: lib/probes/browser-runner.ts) with its references filled from
 * its variables. Up when every step passes; the first failure ends the run (later steps
 * `skipped`). Secret values never reach the result: every error is redacted here. Never throws.
 */
export async function runBrowserProbe(job: BrowserProbeJob, deps: ProbeDeps): Promise<ProbeOutcome> {
  const elapsed = startTimer();
  const variables = job.variables ?? {};
  const scope = {
    variables: Object.fromEntries(Object.entries(variables).map(([name, v]) => [name, v.value])),
    steps: {},
  };
  const secrets = Object.values(variables)
    .filter((v) => v.secret === true && v.value !== '')
    .map((v) => v.value);
  const redact = secretRedactor(secrets);
  if (!deps.browserRunner)
    return failed('browser checks are not run here: this runtime has no browser runner', 0);
  let answer: BrowserRunAnswer;
  try {
    const steps = job.steps.map((step) => {
      const filled = { ...step };
      for (const field of TEMPLATED) {
        const text = step[field];
        if (text !== undefined) filled[field] = render(text, scope);
      }
      return filled;
    });
    answer = await deps.browserRunner({
      steps,
      ...(job.viewport ? { viewport: job.viewport } : {}),
      timeoutMs: Math.min(job.timeout_ms, MAX_RUN_MS),
      allowPrivate: deps.allowPrivate,
      // The child masks these in the trace before it answers (lib/probes/browser/trace-masking.ts).
      trace: job.trace,
      secrets,
    });
  } catch (err) {
    return failed(redact(err instanceof Error ? err.message : String(err)), elapsed());
  }
  const steps: BrowserStepReport[] = answer.steps.map((s) =>
    s.error === undefined ? s : { ...s, error: bounded(redact(s.error)) },
  );
  const details = { steps, vitals: answer.vitals };
  const index = steps.findIndex((s) => s.outcome === 'failed');
  const failure = steps[index];
  // The screenshots and the trace travel beside the details: the recorder stores them as artifacts (lib/checks/artifacts).
  const { screenshots, trace, trace_left_out } = answer;
  const withShots = (outcome: ProbeOutcome): ProbeOutcome => ({
    ...outcome,
    ...(screenshots.length > 0 ? { screenshots } : {}),
    ...(trace ? { trace } : {}),
    ...(trace_left_out ? { trace_left_out } : {}),
  });
  if (failure)
    return withShots(
      failed(`step ${index + 1} (${failure.action}): ${failure.error ?? 'failed'}`, elapsed(), 0, details),
    );
  return withShots(passed(elapsed(), 0, details));
}

/** A browser check's probe job as a queue carries it (lib/checks/probe-job.ts probeDefinition). */
const jobCheckSchema = z
  .object({
    check_type: z.literal('browser'),
    timeout_ms: z.number().int().min(1).max(600_000),
    degraded_latency_ms: z.number().int().min(1).optional(),
  })
  .and(browserStored);

/**
 * Runs a browser check's probe job received from elsewhere (the cloud's browser function): parsed
 * first (a check it cannot read is a `problem`), then as runProbe runs it, degraded when slow; its
 * secret variables are hidden by runBrowserProbe, which is all outcome redaction hides for it.
 */
export async function runBrowserJob(check: unknown, deps: ProbeDeps): Promise<Probed | { problem: string }> {
  const parsed = jobCheckSchema.safeParse(check);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? ` at ${issue.path.join('.')}` : '';
    return { problem: `the browser check cannot be read${where}: ${issue?.message}` };
  }
  const startedMs = deps.clock.now();
  const outcome = await runBrowserProbe(parsed.data, deps);
  return { outcome: degradeIfSlow(outcome, parsed.data.degraded_latency_ms), startedMs };
}
