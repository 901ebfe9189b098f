import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, fieldErrors, must, type Schemas } from '../api/client';
import { ErrorNote } from '../ui/feedback';
import { ExecutionSummary } from './executions';
import { type Pair, PairsEditor, pairsToObject } from './pairs-editor';
import { actionKeys } from './queries';

/** Runs an action now with the variables given, and shows the execution the API answered. */
export function RunPanel({ actionId }: { actionId: string }) {
  const queryClient = useQueryClient();
  const [vars, setVars] = useState<Pair[]>([]);
  const run = useMutation({
    mutationFn: (v: Record<string, string>) =>
      must(api.POST('/v1/actions/{id}/run', { params: { path: { id: actionId } }, body: { vars: v } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: actionKeys.executions(actionId) }),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    run.mutate(pairsToObject(vars));
  };
  const errs = fieldErrors(run.error);
  const varErr = Object.entries(errs)
    .map(([p, m]) => `${p}: ${m}`)
    .join('; ');
  return (
    <form className="run-form" onSubmit={submit} aria-label="Run the action">
      <PairsEditor
        legend="Variables"
        what="Variable"
        pairs={vars}
        onChange={setVars}
        error={varErr || undefined}
        hint="Fill {{placeholders}} of your own (names: lowercase letters, digits and _) or override built-in ones."
      />
      <button type="submit" className="primary" disabled={run.isPending}>
        {run.isPending ? 'Running…' : 'Run now'}
      </button>
      <ErrorNote error={run.error} title="The action did not run." />
      {run.data ? <RunResult execution={run.data as Schemas['ActionExecution']} /> : null}
    </form>
  );
}

function RunResult({ execution }: { execution: Schemas['ActionExecution'] }) {
  return (
    <div className="run-result" role="status" aria-label="Run result">
      <h3>This run</h3>
      <ExecutionSummary execution={execution} />
    </div>
  );
}
