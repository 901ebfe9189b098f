import { scrollRegion } from '../ui/scroll-region';
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
      <div className="table-wrap" {...scrollRegion('Uptime per location')}>
        <table aria-label="Uptime per location">
          <thead>
            <tr>
              <th scope="col">Location</th>
              {rows.map((u) => (
                <th scope="col" key={u.window}>
                  {WINDOW_WORDS[u.window]}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {names.map((name) => (
              <tr key={name}>
                <th scope="row">{name}</th>
                {rows.map((u) => (
                  <td key={u.window}>{locationUptimeWords(u.locations?.find((l) => l.location === name))}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="muted">
        Each location’s own reports, whatever the slot’s decision; counted per UTC day, so a window’s first
        and last days count whole.
      </p>
    </>
  );
}
