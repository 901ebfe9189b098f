import { secretRedactor } from '../../domain/redaction.ts';
import { withTrustWarning } from '../../probes/check-trust.ts';
import { degraded, failed, passed, startTimer } from '../../probes/outcome.ts';
import type { ApiStepReport, ProbeDeps, ProbeOutcome } from '../../probes/types.ts';
import type { MultistepProbeJob } from './multistep.ts';
import { now, runStep } from './step-run.ts';
import type { TemplateScope } from './templates.ts';

/** A step's error as stored: at most 500 characters (a result holds up to 10 steps). */
const bounded = (text: string) => (text.length > 500 ? `${text.slice(0, 499)}…` : text);

/** How a step reads in a message: `step 2 "api"`. */
const stepLabel = (index: number, name: string) => `step ${index + 1} "${name}"`;

/**
 * Runs a multistep check's steps in order within the check's timeout_ms (the total deadline; a
 * step's own timeout_ms is cut to what is left), each through the SSRF guard, each step's values
 * filled from the variables and the values earlier steps extracted. Up when every step passes;
 * the first failure ends the run (later steps `skipped`). Never throws.
 */
export async function runMultistepProbe(job: MultistepProbeJob, deps: ProbeDeps): Promise<ProbeOutcome> {
  const elapsed = startTimer();
  const deadline = now() + job.timeout_ms;
  const variables = job.variables ?? {};
  const scope: { variables: Record<string, string>; steps: Record<string, Record<string, string>> } = {
    variables: Object.fromEntries(Object.entries(variables).map(([name, v]) => [name, v.value])),
    steps: {},
  };
  const secrets = Object.values(variables)
    .filter((v) => v.secret === true)
    .map((v) => v.value);
  const reports: ApiStepReport[] = [];
  let failure: { index: number; report: ApiStepReport } | undefined;
  for (const [index, step] of job.steps.entries()) {
    if (failure) {
      reports.push({ name: step.name, outcome: 'skipped', status_code: 0 });
      continue;
    }
    const left = Math.floor(deadline - now());
    if (left <= 0) {
      const error = `the check's timeout_ms of ${job.timeout_ms} ms ran out before this step`;
      failure = { index, report: { name: step.name, outcome: 'failed', status_code: 0, error } };
      reports.push(failure.report);
      continue;
    }
    const own = step.timeout_ms ?? left;
    const run = await runStep(step, {
      scope: scope satisfies TemplateScope,
      budgetMs: Math.min(own, left),
      budgetIsTotal: left <= own,
      totalTimeoutMs: job.timeout_ms,
      tls: job.tls,
      deps,
    });
    secrets.push(...run.sent);
    reports.push(run.report);
    if (run.report.outcome === 'failed') failure = { index, report: run.report };
    else scope.steps[step.name] = run.extracted;
  }
  const redact = secretRedactor(secrets.filter((s) => s !== ''));
  const steps = reports.map((r) => (r.error === undefined ? r : { ...r, error: bounded(redact(r.error)) }));
  const latency = elapsed();
  const last = reports.findLast((r) => r.outcome !== 'skipped');
  const status = failure?.report.status_code ?? last?.status_code ?? 0;
  if (failure) {
    const message = `${stepLabel(failure.index, failure.report.name)}: ${failure.report.error ?? 'failed'}`;
    return withTrustWarning(
      failed(redact(message), latency, status, { steps, failed_step: failure.report.name }),
      job.tls,
    );
  }
  const slow = steps.findIndex((r) => r.outcome === 'degraded');
  const slowStep = steps[slow];
  if (slowStep)
    return withTrustWarning(
      degraded(`${stepLabel(slow, slowStep.name)}: ${slowStep.error ?? 'degraded'}`, latency, status, {
        steps,
      }),
      job.tls,
    );
  return withTrustWarning(passed(latency, status, { steps }), job.tls);
}
