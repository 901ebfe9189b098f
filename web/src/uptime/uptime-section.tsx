import { useQueries } from '@tanstack/react-query';
import { api, must } from '../api/client';
import { useRefreshOnChange } from '../live/refresh';
import { ErrorNote, Loading } from '../ui/feedback';
import { Section } from '../ui/page';
import { Table } from '../ui/table';
import { LocationUptimeTable } from './location-uptime-table';
import { uptimeKeys } from './queries';
import {
  barSummary,
  budgetWords,
  dayClass,
  dayWords,
  downtimeWords,
  msWords,
  mttrWords,
  percent,
  UPTIME_WINDOWS,
  type Uptime,
  type UptimeDay,
  type UptimeWindow,
  uptimeWords,
  WINDOW_WORDS,
} from './words';

/**
 * Uptime of a check or an entity (GET .../uptime, docs/api.md "Uptime and SLOs"): a 90-day bar of
 * daily uptime (the `days` of the 90d answer) and a table of the four windows: uptime, downtime,
 * incidents, MTTR, latency percentiles and, for a check with an SLO target, the budget left.
 */

export type UptimeSubject =
  | { kind: 'check'; id: string }
  | { kind: 'entity'; blueprint: string; slug: string };

function read(subject: UptimeSubject, window: UptimeWindow): Promise<Uptime> {
  const query = { window };
  if (subject.kind === 'check') {
    return must(api.GET('/v1/checks/{id}/uptime', { params: { path: { id: subject.id }, query } }));
  }
  return must(
    api.GET('/v1/blueprints/{blueprint_slug}/entities/{slug}/uptime', {
      params: { path: { blueprint_slug: subject.blueprint, slug: subject.slug }, query },
    }),
  );
}

/** The section; `changedAt` (a check's last result, an entity's update) refreshes it when it moves. */
export function UptimeSection({ subject, changedAt }: { subject: UptimeSubject; changedAt?: unknown }) {
  const key = uptimeKeys.of(subject);
  useRefreshOnChange(changedAt, [key]);
  const answers = useQueries({
    queries: UPTIME_WINDOWS.map((window) => ({
      queryKey: uptimeKeys.window(subject, window),
      queryFn: () => read(subject, window),
    })),
  });
  const error = answers.find((a) => a.error)?.error;
  const rows = answers.map((a) => a.data).filter((u): u is Uptime => u !== undefined);
  const days = rows.find((u) => u.window === '90d')?.days;
  const slo = rows.find((u) => u.slo_target !== undefined)?.slo_target;
  const label = subject.kind === 'check' ? 'Uptime of the check' : 'Uptime of the entity';
  return (
    <Section title="Uptime">
      <ErrorNote error={error} title="The uptime could not be loaded." />
      {answers.some((a) => a.isPending) ? <Loading what="uptime" /> : null}
      {days ? <DailyBar days={days} /> : null}
      {slo !== undefined ? (
        <p className="muted uptime-slo">
          SLO target {percent(slo)} of results successful; the error budget is the {percent(1 - slo)} that may
          fail.
        </p>
      ) : null}
      {rows.length === UPTIME_WINDOWS.length ? (
        <>
          <UptimeTable label={label} rows={rows} withBudget={slo !== undefined} />
          <LocationUptimeTable rows={rows} />
        </>
      ) : null}
      <p className="muted">
        Uptime counts successful results over all results; downtime is time spent down or degraded
        {subject.kind === 'entity' ? ' (the entity’s incidents)' : ''}. Latency percentiles are estimates.
      </p>
    </Section>
  );
}

/** One bar per UTC day, oldest first; colour and a tooltip per day, one sentence for screen readers. */
function DailyBar({ days }: { days: readonly UptimeDay[] }) {
  return (
    <figure className="uptime-bar-figure">
      <div className="uptime-bar" role="img" aria-label={barSummary(days)}>
        {days.map((d) => (
          <span key={d.date} className={dayClass(d)} title={dayWords(d)} data-date={d.date} />
        ))}
      </div>
      <figcaption className="uptime-bar-axis muted">
        <span>{days.length} days ago</span>
        <span>today</span>
      </figcaption>
    </figure>
  );
}

function UptimeTable({ label, rows, withBudget }: { label: string; rows: Uptime[]; withBudget: boolean }) {
  return (
    <Table
      label={label}
      rows={rows}
      rowKey={(u) => u.window}
      columns={[
        { header: 'Window', rowHeader: true, cell: (u) => WINDOW_WORDS[u.window] },
        {
          header: 'Uptime',
          cell: (u) => (
            <>
              {uptimeWords(u.uptime_ratio)}
              <span className="muted"> ({resultWords(u)})</span>
            </>
          ),
        },
        withBudget && { header: 'Error budget', cell: (u) => budgetWords(u.error_budget_remaining) },
        { header: 'Downtime', cell: (u) => downtimeWords(u.downtime_seconds, u.incidents) },
        { header: 'Incidents', cell: (u) => u.incidents },
        { header: 'MTTR', cell: (u) => mttrWords(u.mttr_seconds) },
        { header: 'p50', cell: (u) => msWords(u.latency_ms.p50) },
        { header: 'p95', cell: (u) => msWords(u.latency_ms.p95) },
        { header: 'p99', cell: (u) => msWords(u.latency_ms.p99) },
      ]}
    />
  );
}

function resultWords(u: Uptime): string {
  const results = `${u.results} result${u.results === 1 ? '' : 's'}`;
  return u.failures === 0 ? results : `${u.failures} of ${results} failed`;
}
