import { queryOptions, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, must, type Schemas } from '../api/client';
import { Time } from '../ui/bits';
import { Empty, ErrorNote, Loading } from '../ui/feedback';
import { Section } from '../ui/page';
import { runTook } from './last-run';
import { checkKeys } from './queries';

/**
 * "Runs" of a heartbeat (issue 78 point 4; GET /v1/checks/{id}/runs and /normal): its newest runs
 * as bars, oldest left, each as tall as the run took, coloured by its outcome (and said in words),
 * a flagged run outlined; the learned normal (p5–p95 of the durations) as a band behind them. A
 * bar is a button: it shows the run's times, outcome, exit status, flags and log excerpt below.
 * A sentence says the same for a screen reader.
 */

type Run = Schemas['Run'];
type Normal = Schemas['RunNormal'];

/** Runs the chart shows: the newest page. */
const RUNS_SHOWN = 50;

const runsQuery = (id: string) =>
  queryOptions({
    queryKey: [...checkKeys.results(id), 'runs'] as const,
    queryFn: () =>
      must(api.GET('/v1/checks/{id}/runs', { params: { path: { id }, query: { limit: RUNS_SHOWN } } })),
  });

const normalQuery = (id: string) =>
  queryOptions({
    queryKey: [...checkKeys.results(id), 'normal'] as const,
    queryFn: () => must(api.GET('/v1/checks/{id}/normal', { params: { path: { id } } })),
  });

/** A bar's colour by outcome (its label says the outcome in words too). */
const OUTCOME_CLASS: Record<Run['outcome'], string> = {
  success: 'run-up',
  fail: 'run-down',
  exit: 'run-down',
  hung: 'run-down',
  missed: 'run-down',
  running: 'run-running',
};

/** A run's length for reading: "850 ms", "3 min 20 s". */
const took = runTook;

/** The chart in words: how many runs, their median, the normal band and the flagged ones. */
function runsInWords(runs: readonly Run[], normal: Normal | undefined): string {
  const timed = runs.flatMap((r) => (r.duration_ms === null ? [] : [r.duration_ms])).sort((a, b) => a - b);
  const median = timed.length > 0 ? `; median ${took(timed[Math.floor(timed.length / 2)] ?? 0)}` : '';
  const band = normal?.duration
    ? `; normal ${took(normal.duration.p5_ms)} to ${took(normal.duration.p95_ms)}${normal.active ? '' : ' (still learning)'}`
    : '';
  const flagged = runs.filter((r) => r.flags.length > 0).length;
  return `Last ${runs.length} runs${median}${band}; ${flagged} flagged`;
}

function RunDetail({ run }: { run: Run }) {
  return (
    <dl className="run-detail" data-testid="run-detail">
      <dt>Started</dt>
      <dd>{run.started_at ? <Time iso={run.started_at} /> : 'not reported'}</dd>
      <dt>Ended</dt>
      <dd>{run.ended_at ? <Time iso={run.ended_at} /> : 'not yet'}</dd>
      <dt>Took</dt>
      <dd>{run.duration_ms === null ? 'unknown' : took(run.duration_ms)}</dd>
      <dt>Outcome</dt>
      <dd>
        {run.outcome}
        {run.exit_status === undefined ? '' : ` (exit status ${run.exit_status})`}
      </dd>
      {run.flags.length > 0 ? (
        <>
          <dt>Flags</dt>
          <dd>{run.flags.join(', ').replaceAll('_', ' ')}</dd>
        </>
      ) : null}
      {run.log_excerpt ? (
        <>
          <dt>Log</dt>
          <dd>
            <pre className="ping-body">{run.log_excerpt}</pre>
          </dd>
        </>
      ) : null}
    </dl>
  );
}

export function RunTimeline({ checkId }: { checkId: string }) {
  const runs = useQuery(runsQuery(checkId));
  const normal = useQuery(normalQuery(checkId));
  const [chosen, setChosen] = useState<string | undefined>();
  if (runs.isPending) return <Loading />;
  if (runs.error) return <ErrorNote error={runs.error} />;
  const list = [...runs.data.runs].reverse();
  if (list.length === 0)
    return (
      <Section title="Runs">
        <Empty title="No runs yet">A /start and its end make one; a success alone is a run too.</Empty>
      </Section>
    );
  const band = normal.data?.duration;
  const top = Math.max(1, ...list.map((r) => r.duration_ms ?? 0), (band?.p95_ms ?? 0) * 1.2);
  const pct = (ms: number) => `${Math.min(100, (ms / top) * 100)}%`;
  const shown = list.find((r) => r.id === chosen);
  return (
    <Section title="Runs">
      <p className="muted">{runsInWords(list, normal.data)}</p>
      <div className="run-chart" data-testid="run-chart">
        {band ? (
          <div
            className={`run-band${normal.data?.active ? '' : ' learning'}`}
            style={{ bottom: pct(band.p5_ms), height: `calc(${pct(band.p95_ms)} - ${pct(band.p5_ms)})` }}
            title={`Normal: ${took(band.p5_ms)} to ${took(band.p95_ms)}`}
            aria-hidden="true"
          />
        ) : null}
        {list.map((run) => (
          <button
            key={run.id}
            type="button"
            className={`run-bar ${OUTCOME_CLASS[run.outcome]}${run.flags.length > 0 ? ' run-flagged' : ''}${run.id === chosen ? ' chosen' : ''}`}
            style={{ height: run.duration_ms === null ? '4px' : pct(run.duration_ms) }}
            aria-pressed={run.id === chosen}
            aria-label={`${run.outcome}${run.duration_ms === null ? '' : `, ${took(run.duration_ms)}`}${run.flags.length > 0 ? `, flagged ${run.flags.join(' ')}` : ''}`}
            onClick={() => setChosen(run.id === chosen ? undefined : run.id)}
          />
        ))}
      </div>
      {shown ? <RunDetail run={shown} /> : null}
    </Section>
  );
}
