import { useState } from 'react';
import type { Schemas } from '../api/client';
import { ErrorNote } from '../ui/feedback';
import { draftScreenshots } from './evidence';
import { StepResults } from './step-results';

export type DraftRunAnswer = Schemas['DraftRun'];

const OUTCOME_CLASS: Record<DraftRunAnswer['outcome'], string> = {
  up: 'state-up',
  degraded: 'state-degraded',
  down: 'state-down',
};

/** What a draft's one probe saw (POST /v1/checks/run-draft): its outcome, status, time, error, steps and screenshots. */
function DraftRunResult({ answer }: { answer: DraftRunAnswer }) {
  const steps = answer.details?.steps;
  return (
    <output aria-label="Run result" className="stack">
      <div>
        <span className={`badge ${OUTCOME_CLASS[answer.outcome]}`}>{answer.outcome}</span>
        {answer.status_code ? ` HTTP ${answer.status_code}` : ''} in {answer.latency_ms} ms
        <span className="muted"> · not saved: nothing was stored</span>
      </div>
      {answer.error_message ? <div>{answer.error_message}</div> : null}
      {steps ? (
        <StepResults
          steps={steps}
          failed={answer.details?.failed_step}
          open
          screenshotOf={draftScreenshots(answer.screenshots)}
        />
      ) : null}
      {answer.screenshots_left_out ? (
        <div className="muted">
          {answer.screenshots_left_out} earlier screenshot{answer.screenshots_left_out === 1 ? '' : 's'} left
          out: a draft's answer holds a bounded size.
        </div>
      ) : null}
    </output>
  );
}

/**
 * "Run now" in the editor, before saving: the form's body is probed once as the saved check would
 * be, and the outcome (each step of a multistep or browser check, a browser step's screenshot) is
 * shown under the button.
 */
export function DraftRunButton({
  body,
  run,
}: {
  body: () => Record<string, unknown>;
  run: (body: Record<string, unknown>) => Promise<DraftRunAnswer>;
}) {
  const [answer, setAnswer] = useState<DraftRunAnswer>();
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const start = async () => {
    setBusy(true);
    setError(undefined);
    setAnswer(undefined);
    try {
      setAnswer(await run(body()));
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <button type="button" onClick={start} disabled={busy}>
        {busy ? 'Running…' : 'Run now'}
      </button>
      <ErrorNote error={error} title="The draft did not run." />
      {answer ? <DraftRunResult answer={answer} /> : null}
    </>
  );
}
