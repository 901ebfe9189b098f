import { cronProblem, isTimeZone } from '../domain/schedules.ts';
import { WINDOW_LIMITS } from '../maintenance/maintenance-items.ts';
import { MAX_DURATION_SECONDS } from '../maintenance/request-schemas.ts';
import { RESERVED_SLUGS } from '../status-pages/status-pages.ts';
import { flag, type KumaContext, type Loose, num, slugOf, text, unique } from './kuma-context.ts';

/**
 * Kuma maintenance and status pages → the document's `maintenance` and `status_pages`. Neither is
 * in Kuma's JSON backup (it holds notifications and monitors only): they come from its database
 * (./kuma-db.ts), which Kuma 2.x leaves as the only export.
 */

/** A maintenance row (`maintenance` table) with the monitors it covers (`monitor_maintenance`). */
export interface KumaMaintenance extends Loose {
  id: number;
  title: string;
  strategy: string;
  monitorIds: number[];
}

/** A status page row (`status_page`) with its monitors, group by group in order (`group`, `monitor_group`). */
export interface KumaStatusPage extends Loose {
  id: number;
  slug: string;
  title: string;
  monitorIds: number[];
}

/** `2026-03-01 22:00:00` read in `zone` → `2026-03-01T21:00:00Z` (Kuma stores a single window's times as local text). */
function utcOf(local: string, zone: string): string | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?/.exec(local);
  if (!m) return undefined;
  const asUtc = Date.UTC(
    +(m[1] ?? 0),
    +(m[2] ?? 1) - 1,
    +(m[3] ?? 1),
    +(m[4] ?? 0),
    +(m[5] ?? 0),
    +(m[6] ?? 0),
  );
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  });
  // The zone's offset at an instant: its wall clock there, read as if UTC, minus the instant.
  const offset = (instant: number) => {
    const part = (type: string) => Number(format.formatToParts(instant).find((p) => p.type === type)?.value);
    return (
      Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'), part('second')) -
      instant
    );
  };
  // Twice: the offset at the guessed instant may differ from the one at the true instant across a DST change.
  const instant = asUtc - offset(asUtc - offset(asUtc));
  return new Date(instant).toISOString().replace('.000Z', 'Z');
}

/** Kuma's time zone option: an IANA name, or empty / SAME_AS_SERVER (the server's, which the file does not say). */
function zoneOf(row: Loose, ctx: KumaContext, label: string): string {
  const zone = text(row.timezone);
  if (zone && zone !== 'SAME_AS_SERVER' && isTimeZone(zone)) return zone;
  ctx.skip(
    `${label}: its time zone ${zone ?? '(none)'} is read as UTC (the file does not name the server's)`,
  );
  return 'UTC';
}

/** The schedule of a window: one-off times, a cron with its duration, or undefined with its line. */
function scheduleOf(row: KumaMaintenance, ctx: KumaContext, label: string): Loose | undefined {
  if (row.strategy === 'manual') {
    ctx.skip(`${label} (manual): Vigil's windows have a schedule; start it in Vigil when needed`);
    return undefined;
  }
  if (row.strategy === 'single') {
    const zone = zoneOf(row, ctx, label);
    const starts = utcOf(text(row.start_date) ?? '', zone);
    const ends = utcOf(text(row.end_date) ?? '', zone);
    if (!starts || !ends) {
      ctx.skip(`${label} (single): it has no start and end date`);
      return undefined;
    }
    return { starts_at: starts, ends_at: ends };
  }
  // Kuma keeps every recurring strategy as the cron it generated, with the duration in seconds.
  const cron = text(row.cron);
  const duration = num(row.duration);
  if (!cron || duration === undefined) {
    ctx.skip(`${label} (${row.strategy}): it has no cron schedule`);
    return undefined;
  }
  const zone = zoneOf(row, ctx, label);
  const problem = cronProblem(cron, zone);
  if (problem) {
    ctx.skip(
      `${label} (${row.strategy}): its cron ${JSON.stringify(cron)} is not one Vigil reads: ${problem}`,
    );
    return undefined;
  }
  if (duration < 60 || duration > MAX_DURATION_SECONDS) {
    ctx.skip(`${label} (${row.strategy}): its duration of ${duration} s is outside Vigil's 60 s to 7 days`);
    return undefined;
  }
  if (row.strategy === 'recurring-interval') {
    ctx.skip(
      `${label}: "every ${num(row.interval_day)} days" is kept as Kuma's own cron ${JSON.stringify(cron)}, which restarts its count each month`,
    );
  }
  return { cron, duration_seconds: duration, timezone: zone };
}

/** The windows, each covering the entities of its monitors. */
export function convertMaintenance(
  rows: KumaMaintenance[],
  entityOf: Map<number, string>,
  ctx: KumaContext,
): Loose[] {
  const windows: Loose[] = [];
  const taken = new Set<string>();
  for (const row of rows) {
    const label = `maintenance "${row.title}"`;
    if (row.active !== undefined && !flag(row.active)) {
      ctx.skip(`${label}: it is paused in Kuma; Vigil's windows have no pause`);
      continue;
    }
    const entities = row.monitorIds.flatMap((id) => entityOf.get(id) ?? []);
    if (entities.length === 0) {
      ctx.skip(
        `${label}: it covers no monitor the document has (Kuma's status-page-only maintenance is not kept)`,
      );
      continue;
    }
    const schedule = scheduleOf(row, ctx, label);
    if (!schedule) continue;
    // Kuma shows the description on its status pages: it becomes the window's public note, which
    // Vigil's pages show once the window is announced (left to the operator: Kuma shows it only while on).
    const description = text(row.description);
    if (description && description.length > WINDOW_LIMITS.publicNote)
      ctx.skip(`${label}: its description is longer than ${WINDOW_LIMITS.publicNote} characters, not kept`);
    const note =
      description && description.length <= WINDOW_LIMITS.publicNote ? { public_note: description } : {};
    windows.push({
      name: unique(row.title.trim().slice(0, 95) || `kuma-${row.id}`, taken, ' '),
      entities,
      ...schedule,
      ...note,
    });
  }
  return windows;
}

/** The status pages, each showing the entities of its monitors in Kuma's order. */
export function convertStatusPages(
  rows: KumaStatusPage[],
  entityOf: Map<number, string>,
  ctx: KumaContext,
): Loose[] {
  const pages: Loose[] = [];
  const taken = new Set<string>();
  for (const row of rows) {
    const label = `status page "${row.slug}"`;
    let slug = slugOf(row.slug, `kuma-${row.id}`);
    if (RESERVED_SLUGS.has(slug) || slug.slice(2, 4) === '--') {
      ctx.skip(`${label}: the slug is reserved in Vigil; the page becomes kuma-${slug}`);
      slug = `kuma-${slug}`;
    }
    slug = unique(slug, taken);
    const entities = [...new Set(row.monitorIds.flatMap((id) => entityOf.get(id) ?? []))];
    for (const [field, what] of [
      ['password', 'its password'],
      ['custom_css', 'its custom CSS'],
      ['footer_text', 'its footer text'],
      ['google_analytics_tag_id', 'its analytics tag'],
    ] as const) {
      if (text(row[field])) ctx.skip(`${label}: ${what} is not kept`);
    }
    // Kuma gives every page its own logo, /icon.svg; another one is the user's own.
    if (text(row.icon) && row.icon !== '/icon.svg') ctx.skip(`${label}: its icon is not kept`);
    const description = text(row.description);
    pages.push({
      slug,
      title: (text(row.title) ?? slug).slice(0, 100),
      ...(description ? { description: description.slice(0, 1000) } : {}),
      entities,
    });
  }
  return pages;
}
