import { type ReactNode, useState } from 'react';
import type { Schemas } from '../api/client';

type StepReport = NonNullable<NonNullable<Schemas['Result']['details']>['steps']>[number];
type ApiStep = Schemas['ApiStepResult'];

/** The state colour of a step's outcome (a skipped step did not run: unknown). */
const STEP_CLASS: Record<StepReport['outcome'], string> = {
  passed: 'state-up',
  degraded: 'state-degraded',
  failed: 'state-down',
  skipped: 'state-unknown',
};

/** "dns 1 · connect 2 · tls 5 · first byte 40 · total 48 ms": the phases a step's last hop went through. */
function timingsText(timings: ApiStep['timings']): string {
  if (!timings) return '';
  const phases: [string, number | undefined][] = [
    ['dns', timings.dns_ms],
    ['connect', timings.connect_ms],
    ['tls', timings.tls_ms],
    ['first byte', timings.first_byte_ms],
  ];
  const taken = phases.filter(([, ms]) => ms !== undefined).map(([label, ms]) => `${label} ${ms}`);
  return [...taken, `total ${timings.total_ms} ms`].join(' · ');
}

/** A step's label: a multistep step's name, or a browser step's number and action ("2. click"). */
const stepLabel = (s: StepReport, index: number) => ('name' in s ? s.name : `${index + 1}. ${s.action}`);

/** What a step's line shows after its outcome: status and phases (multistep), or its ms (browser). */
function stepFacts(s: StepReport): string {
  if (!('name' in s)) return s.outcome === 'skipped' ? '' : ` ${s.ms} ms`;
  const timings = s.timings ? ` ${timingsText(s.timings)}` : '';
  return `${s.status_code ? ` ${s.status_code}` : ''}${timings}`;
}

/**
 * A multistep or browser result's steps, in order: each one's outcome, status, timings and error,
 * the failing step marked (the first failure), and a browser run's screenshots beside their steps
 * (read only once the list is unfolded).
 */
export function StepResults({
  steps,
  failed,
  open = false,
  screenshotOf,
}: {
  steps: StepReport[];
  failed: string | undefined;
  /** Shown unfolded (a draft's run, read at once; the result a link names). */
  open?: boolean;
  /** A step's screenshot (one-based step), if it has one. */
  screenshotOf?: ((step: number) => ReactNode) | undefined;
}) {
  const [shown, setShown] = useState(open);
  const failing = steps.findIndex((s) => s.outcome === 'failed');
  const failingStep = steps[failing];
  const failedAt = failed ?? (failingStep ? stepLabel(failingStep, failing) : undefined);
  return (
    <details open={open} onToggle={(e) => setShown(e.currentTarget.open)}>
      <summary>
        {steps.length} steps{failedAt ? `, failed at "${failedAt}"` : ''}
      </summary>
      <ol aria-label="Steps">
        {steps.map((s, index) => (
          <li
            key={stepLabel(s, index)}
            className={index === failing ? 'step-failing' : undefined}
            aria-current={index === failing ? 'step' : undefined}
          >
            <strong>{stepLabel(s, index)}</strong>{' '}
            <span className={`badge ${STEP_CLASS[s.outcome]}`}>{s.outcome}</span>
            <span className="muted">{stepFacts(s)}</span>
            {index === failing ? <span className="step-failing-mark"> ← the failing step</span> : null}
            {s.error ? <div>{s.error}</div> : null}
            {shown && screenshotOf ? screenshotOf(index + 1) : null}
          </li>
        ))}
      </ol>
    </details>
  );
}
