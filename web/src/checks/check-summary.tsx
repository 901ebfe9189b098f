import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { decodeTime } from 'ulid';
import type { Schemas } from '../api/client';
import { Time } from '../ui/bits';
import { Empty, ErrorNote, Loading } from '../ui/feedback';
import { CursorPager, useCursorPages } from '../ui/pager';
import { Table } from '../ui/table';
import { everyWords } from '../ui/time-words';
import { checkTypeForm, targetOf } from './check-types/registry';
import { StoredTrace, storedScreenshots } from './evidence';
import { checkQueries } from './queries';
import { StepResults } from './step-results';
import { trustRows } from './tls-trust-fields';

export { targetOf };

/** The stored settings of a check as a definition list (only its type's fields). */
export function CheckConfig({ check }: { check: Schemas['Check'] }) {
  const rows: [string, string][] = [
    ['Type', check.check_type],
    ['Interval', everyWords(check.interval_seconds)],
    ['Failure threshold', String(check.failure_threshold)],
    ['Success threshold', String(check.success_threshold)],
  ];
  if (check.check_type !== 'push' && check.check_type !== 'outside') {
    rows.push(['Timeout', `${check.timeout_ms} ms`]);
    if (check.degraded_latency_ms) rows.push(['Degraded above', `${check.degraded_latency_ms} ms`]);
  }
  rows.push(...checkTypeForm(check.check_type).rows(check));
  rows.push(...trustRows(check));
  return (
    <dl className="check-config">
      {rows.map(([k, v]) => (
        <div key={k}>
          <dt>{k}</dt>
          <dd>{v}</dd>
        </div>
      ))}
    </dl>
  );
}

/** Brings the linked result's row into view once it is shown. */
const scrollToRow = (row: HTMLTableRowElement | null) => row?.scrollIntoView({ block: 'center' });

/** How a result's outcome reads (inconclusive: too few locations reported to decide its slot; it moved nothing). */
const OUTCOME_WORDS: Record<Schemas['Result']['outcome'], string> = {
  up: 'success',
  degraded: 'degraded',
  down: 'failure',
  inconclusive: 'inconclusive',
};

/**
 * Where a page that starts at the result `id` names begins: its time, as the list sorts it (a
 * result id is a ULID of its slot, or of its checked_at when it has none).
 */
function pageStartOf(id: string): string | undefined {
  try {
    return new Date(decodeTime(id.replace(/^res_/, ''))).toISOString();
  } catch {
    return undefined;
  }
}

/**
 * The check's recent results, newest first, a page at a time (GET /v1/checks/{id}/results), a
 * scripted check's steps with a browser run's screenshots. `linked`: the result a link names (an
 * alert's evidence link, ?result=), marked, its steps unfolded and scrolled to: the list starts at
 * it (`until`), however many results came after it, until "Newest results" is asked for.
 */
export function RecentResults({ checkId, linked }: { checkId: string; linked?: string | undefined }) {
  const pages = useCursorPages();
  const { cursor } = pages;
  const [fromLinked, setFromLinked] = useState(true);
  const until = linked !== undefined && fromLinked ? pageStartOf(linked) : undefined;
  const results = useQuery(checkQueries.results(checkId, cursor, 20, until));
  if (results.isPending) return <Loading what="results" />;
  if (results.error) return <ErrorNote error={results.error} title="The results could not be read." />;
  const { results: rows, next_cursor } = results.data;
  const linkedMissing = linked !== undefined && cursor === undefined && !rows.some((r) => r.id === linked);
  const newest = () => {
    pages.reset();
    setFromLinked(false);
  };
  return (
    <>
      {until !== undefined && cursor === undefined ? (
        <p className="muted">
          {linkedMissing
            ? 'The result this link names is not there: it may be past the retention period.'
            : 'From the result this link names; older results follow.'}{' '}
          <button type="button" onClick={newest}>
            Newest results
          </button>
        </p>
      ) : null}
      {rows.length === 0 ? (
        <Empty title="No results yet.">
          A pull check reports after its first run; a push check when your agent posts.
        </Empty>
      ) : (
        <Table
          label="Recent results"
          rows={rows}
          rowKey={(r) => r.id}
          rowProps={(r) =>
            r.id === linked ? { ref: scrollToRow, className: 'result-linked', 'aria-current': 'true' } : {}
          }
          columns={[
            { header: 'Time', cell: (r) => <Time iso={r.checked_at} /> },
            {
              header: 'Outcome',
              cell: (r) => (
                <>
                  <span className={`badge state-${r.outcome}`}>{OUTCOME_WORDS[r.outcome]}</span>
                  {r.synthetic ? <span className="muted"> (no report)</span> : null}
                </>
              ),
            },
            { header: 'Status code', cell: (r) => r.status_code || '—' },
            { header: 'Latency', cell: (r) => `${r.latency_ms} ms` },
            {
              header: 'Error',
              cell: (r) => (
                <>
                  {r.error_message || (r.details?.tls_warning ? '' : '—')}
                  {r.details?.tls_warning ? (
                    <span className="badge state-degraded" title="The check's tls.skip_verify is on">
                      {r.details.tls_warning}
                    </span>
                  ) : null}
                  {r.details?.steps ? (
                    <StepResults
                      steps={r.details.steps}
                      failed={r.details.failed_step}
                      open={r.id === linked}
                      screenshotOf={storedScreenshots(checkId, r)}
                    />
                  ) : null}
                  <StoredTrace checkId={checkId} result={r} />
                </>
              ),
            },
          ]}
        />
      )}
      <CursorPager pages={pages} next={next_cursor} of="results" />
    </>
  );
}
