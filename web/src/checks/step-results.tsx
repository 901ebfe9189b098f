import type { Schemas } from '../api/client';

type StepReport = NonNullable<NonNullable<Schemas['Result']['details']>['steps']>[number];

/** The state colour of a step's outcome (a skipped step did not run: unknown). */
const STEP_CLASS: Record<StepReport['outcome'], string> = {
  passed: 'state-up',
  degraded: 'state-degraded',
  failed: 'state-down',
  skipped: 'state-unknown',
};

/** "dns 1 · connect 2 · tls 5 · first byte 40 · total 48 ms": the phases a step's last hop went through. */
function timingsText(timings: StepReport['timings']): string {
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

/** A multistep result's steps, in order: each one's outcome, status, timings and error (the first failure marked). */
export function StepResults({
  steps,
  failed,
  open = false,
}: {
  steps: StepReport[];
  failed: string | undefined;
  /** Shown unfolded (a draft's run, read at once). */
  open?: boolean;
}) {
  return (
    <details open={open}>
      <summary>
        {steps.length} steps{failed ? `, failed at "${failed}"` : ''}
      </summary>
      <ol aria-label="Steps">
        {steps.map((s) => (
          <li key={s.name}>
            <strong>{s.name}</strong> <span className={`badge ${STEP_CLASS[s.outcome]}`}>{s.outcome}</span>
            {s.status_code ? ` ${s.status_code}` : ''}
            {s.timings ? <span className="muted"> {timingsText(s.timings)}</span> : null}
            {s.error ? <div>{s.error}</div> : null}
          </li>
        ))}
      </ol>
    </details>
  );
}
