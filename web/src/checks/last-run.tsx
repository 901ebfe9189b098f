import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, must, type Schemas } from '../api/client';
import { durationInWords } from '../incidents/words';
import { checkKeys } from './queries';

/**
 * A heartbeat's last run beside its state in the checks list (issue 78 point 4): its outcome and
 * how long it took ("last run 42 min", "last run fail, 4 s", "last run running"), read from GET
 * /v1/checks/{id}/runs?limit=1 for the push checks of the page shown only. Nothing while it loads,
 * nor for a heartbeat with no run yet.
 */

type Run = Schemas['Run'];

const lastRunQuery = (id: string) =>
  queryOptions({
    queryKey: [...checkKeys.results(id), 'runs', 'last'] as const,
    queryFn: () => must(api.GET('/v1/checks/{id}/runs', { params: { path: { id }, query: { limit: 1 } } })),
  });

/** "42 min", "850 ms": a run's length for reading. */
export const runTook = (ms: number) => (ms < 1000 ? `${ms} ms` : durationInWords(ms / 1000));

/** The last run in words: its outcome unless a success, then its duration when known. */
function lastRunWords(run: Run): string {
  const took = run.duration_ms === null ? null : runTook(run.duration_ms);
  const outcome = run.outcome === 'success' ? null : run.outcome;
  return `last run ${[outcome, took].filter((part) => part !== null).join(', ') || 'success'}`;
}

export function LastRun({ checkId }: { checkId: string }) {
  const runs = useQuery(lastRunQuery(checkId));
  const run = runs.data?.runs[0];
  if (!run) return null;
  return (
    <div className="muted" data-testid="last-run">
      {lastRunWords(run)}
    </div>
  );
}
