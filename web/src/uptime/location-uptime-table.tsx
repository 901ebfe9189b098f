import { Table } from '../ui/table';
import { percent, type Uptime, WINDOW_WORDS } from './words';

type LocationUptime = NonNullable<Uptime['locations']>[number];

/** "66.667 % (2 of 3 up)", or "no reports". */
function locationUptimeWords(row: LocationUptime | undefined): string {
  if (!row || row.uptime_percent === null) return 'no reports';
  return `${percent(row.uptime_percent / 100)} (${row.up} of ${row.total} up)`;
}

/**
 * A located check's uptime per location (the `locations` of each window's answer): a row per
 * location, a column per window. Each location's own reports, counted per UTC day: a window's first
 * and last days count whole.
 */
export function LocationUptimeTable({ rows }: { rows: readonly Uptime[] }) {
  const names = [...new Set(rows.flatMap((u) => (u.locations ?? []).map((l) => l.location)))];
  if (names.length === 0) return null;
  return (
    <>
      <h3>Uptime per location</h3>
      <Table
        label="Uptime per location"
        rows={names}
        rowKey={(name) => name}
        columns={[
          { header: 'Location', rowHeader: true, cell: (name) => name },
          ...rows.map((u) => ({
            header: WINDOW_WORDS[u.window],
            cell: (name: string) => locationUptimeWords(u.locations?.find((l) => l.location === name)),
          })),
        ]}
      />
      <p className="muted">
        Each location’s own reports, whatever the slot’s decision; counted per UTC day, so a window’s first
        and last days count whole.
      </p>
    </>
  );
}
