import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, must, type Schemas } from '../api/client';
import { durationInWords } from '../incidents/words';
import { Time } from '../ui/bits';
import { Empty, ErrorNote, Loading } from '../ui/feedback';
import { Section } from '../ui/page';
import { CursorPager, useCursorPages } from '../ui/pager';
import { Table } from '../ui/table';
import { checkKeys } from './queries';

/**
 * "Last pings" of a push check (GET /v1/checks/{id}/pings): each ping's time, kind, exit status,
 * HTTP method and run id, a run's start → end with its duration, and its body, expandable, as preformatted
 * text (React writes it as text: a body is never read as HTML). Read-only keys get bodies with
 * secret-looking lines redacted by the API. A plain success (no body, run id or run) is not logged:
 * it is among the check's results.
 */

type Ping = Schemas['Ping'];

/** Pings per page. */
const PINGS_PAGE = 20;

/** One page of the check's pings; under the check's results key, so a new result refreshes it. */
const pingsQuery = (id: string, cursor: string | undefined) =>
  queryOptions({
    queryKey: [...checkKeys.results(id), 'pings', cursor ?? ''] as const,
    queryFn: () =>
      must(
        api.GET('/v1/checks/{id}/pings', {
          params: { path: { id }, query: { limit: PINGS_PAGE, ...(cursor ? { cursor } : {}) } },
        }),
      ),
  });

/** A ping's kind in words and its badge colour (never colour alone). */
function kindOf(ping: Ping): { words: string; className: string } {
  switch (ping.kind) {
    case 'success':
      return { words: 'success', className: 'state-up' };
    case 'fail':
      return { words: 'failure', className: 'state-down' };
    case 'exit':
      return ping.exit_status === 0
        ? { words: 'exit 0', className: 'state-up' }
        : { words: `exit ${ping.exit_status ?? '?'}`, className: 'state-down' };
    case 'start':
      return { words: 'start', className: 'state-unknown' };
    default:
      return { words: 'log', className: 'state-unknown' };
  }
}

/** A run's length for reading: "850 ms", "3 min 20 s". */
function durationWords(ms: number): string {
  return ms < 1000 ? `${ms} ms` : durationInWords(ms / 1000);
}

/** The run a ping belongs to: an end with its start → end and duration, or a start. */
function RunCell({ ping }: { ping: Ping }) {
  if (ping.duration_ms !== undefined) {
    const started = new Date(Date.parse(ping.at) - ping.duration_ms).toISOString();
    return (
      <span className="ping-run">
        <Time iso={started} /> → <Time iso={ping.at} />, {durationWords(ping.duration_ms)}
      </span>
    );
  }
  if (ping.kind === 'start') return <span className="muted">run started</span>;
  return <span className="muted">—</span>;
}

function BodyCell({ ping }: { ping: Ping }) {
  if (ping.body === '') return <span className="muted">—</span>;
  const lines = ping.body.split('\n').length;
  return (
    <details className="ping-body">
      <summary>
        {lines === 1 ? '1 line' : `${lines} lines`}
        {ping.body_over_budget
          ? " (cut at 1 KB: the account's day of ping bodies was spent)"
          : ping.body_truncated
            ? ' (cut at 100 KB)'
            : ''}
      </summary>
      <pre className="snippet">{ping.body}</pre>
    </details>
  );
}

/** The check's pings, newest first, a page at a time. */
export function LastPings({ checkId }: { checkId: string }) {
  const pages = useCursorPages();
  const pings = useQuery(pingsQuery(checkId, pages.cursor));
  return (
    <Section title="Last pings">
      {pings.isPending ? (
        <Loading what="pings" />
      ) : pings.error ? (
        <ErrorNote error={pings.error} title="The pings could not be read." />
      ) : (
        <>
          {pings.data.pings.length === 0 ? (
            <Empty title="No pings logged yet.">
              Starts, failures, exit statuses, log lines and pings with a body show here; a plain success
              shows among the check's results only.
            </Empty>
          ) : (
            <Table
              label="Last pings"
              rows={pings.data.pings}
              rowKey={(ping) => ping.id}
              columns={[
                { header: 'Time', cell: (ping) => <Time iso={ping.at} /> },
                {
                  header: 'Kind',
                  cell: (ping) => {
                    const kind = kindOf(ping);
                    return <span className={`badge ${kind.className}`}>{kind.words}</span>;
                  },
                },
                { header: 'Method', cell: (ping) => <code>{ping.method}</code> },
                { header: 'Run', cell: (ping) => <RunCell ping={ping} /> },
                {
                  header: 'Run id',
                  cell: (ping) => (ping.rid ? <code>{ping.rid}</code> : <span className="muted">—</span>),
                },
                { header: 'Body', cell: (ping) => <BodyCell ping={ping} /> },
              ]}
            />
          )}
          <CursorPager pages={pages} next={pings.data.next_cursor} of="pings" />
        </>
      )}
    </Section>
  );
}
