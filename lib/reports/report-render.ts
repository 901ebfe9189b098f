import type { IncidentRow, Listed, ReportModel, UptimeRow } from './report-model.ts';

/**
 * A report as an e-mail: a subject, plain text, and light HTML (inline styles, no images, no remote
 * content, no scripts), every name escaped; a link to the console and one that stops the reports.
 */

export interface ReportLinks {
  /** The console's address (VIGIL_PUBLIC_URL). */
  console: string;
  /** The signed link that turns this person's reports off. */
  unsubscribe: string;
}

export interface ReportEmail {
  subject: string;
  text: string;
  html: string;
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

/** `99.95%`, or `no results`. */
function percent(uptime: number | null): string {
  if (uptime === null) return 'no results';
  return `${(Math.floor(uptime * 10_000) / 100).toFixed(2)}%`;
}

/** A duration in words: `45 s`, `12 min`, `3 h 5 min`, `2 d 4 h`. */
function duration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min`;
  const h = Math.floor(m / 60);
  if (h < 24) return m % 60 ? `${h} h ${m % 60} min` : `${h} h`;
  const d = Math.floor(h / 24);
  return h % 24 ? `${d} d ${h % 24} h` : `${d} d`;
}

function when(ms: number, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', { timeZone, dateStyle: 'medium', timeStyle: 'short' }).format(
    new Date(ms),
  );
}

function day(ms: number, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', { timeZone, dateStyle: 'medium' }).format(new Date(ms));
}

/** The period in words: `16 Nov 2026 – 22 Nov 2026 (Europe/Berlin)`. */
function periodText(model: ReportModel): string {
  const { startMs, endMs, timeZone } = model.period;
  return `${day(startMs, timeZone)} – ${day(endMs - 1, timeZone)} (${timeZone})`;
}

const moreText = (more: number) => (more > 0 ? `and ${more} more` : undefined);

function incidentText(row: IncidentRow, timeZone: string): string {
  const state = row.ongoing
    ? 'ongoing at the period’s end'
    : `resolved ${when(row.resolvedMs ?? 0, timeZone)}`;
  return `${row.entity}: opened ${when(row.openedMs, timeZone)}, ${duration(row.durationMs)}, ${state}`;
}

function textSection(title: string, lines: string[], empty: string): string[] {
  return [title, '-'.repeat(title.length), ...(lines.length > 0 ? lines : [empty]), ''];
}

function uptimeLines(list: Listed<UptimeRow>): string[] {
  return [...list.rows.map((r) => `${r.name}: ${percent(r.uptime)}`), moreText(list.more)].filter(
    (l): l is string => l !== undefined,
  );
}

function textOf(model: ReportModel, links: ReportLinks): string {
  const zone = model.period.timeZone;
  const { counts } = model;
  return [
    `${model.tenantName}: ${model.period.frequency} report, ${periodText(model)}`,
    '',
    `Incidents opened: ${counts.opened} (${counts.ongoing} ongoing); resolved: ${counts.resolved}; mean time to resolve: ${model.mttrMs === null ? 'none resolved' : duration(model.mttrMs)}.`,
    '',
    ...textSection('Uptime by blueprint', uptimeLines(model.blueprints), 'No blueprints.'),
    ...textSection('Uptime by status page', uptimeLines(model.pages), 'No status pages.'),
    ...textSection(
      'Incidents',
      [...model.incidents.rows.map((r) => incidentText(r, zone)), moreText(model.incidents.more)].filter(
        (l): l is string => l !== undefined,
      ),
      'No incidents opened in this period.',
    ),
    ...textSection(
      'Slowest checks (p95 latency)',
      model.slowest.map((c) => `${c.name} (${c.entity}): ${Math.round(c.p95Ms)} ms`),
      'No latency recorded in this period.',
    ),
    `Open the console: ${links.console}`,
    `Stop these reports: ${links.unsubscribe}`,
    '',
  ].join('\n');
}

const CELL = 'style="padding:4px 8px;border-bottom:1px solid #ddd;text-align:left"';

function htmlTable(head: string[], rows: string[][], more: number, empty: string): string {
  if (rows.length === 0) return `<p>${escapeHtml(empty)}</p>`;
  const th = head.map((h) => `<th ${CELL}>${escapeHtml(h)}</th>`).join('');
  const body = rows
    .map((r) => `<tr>${r.map((c) => `<td ${CELL}>${escapeHtml(c)}</td>`).join('')}</tr>`)
    .join('');
  const tail = more > 0 ? `<p>${escapeHtml(`and ${more} more`)}</p>` : '';
  return `<table style="border-collapse:collapse"><thead><tr>${th}</tr></thead><tbody>${body}</tbody></table>${tail}`;
}

function htmlOf(model: ReportModel, links: ReportLinks, subject: string): string {
  const zone = model.period.timeZone;
  const { counts } = model;
  const uptime = (list: Listed<UptimeRow>, head: string, empty: string) =>
    htmlTable(
      [head, 'Uptime'],
      list.rows.map((r) => [r.name, percent(r.uptime)]),
      list.more,
      empty,
    );
  const summary = `Incidents opened: ${counts.opened} (${counts.ongoing} ongoing); resolved: ${counts.resolved}; mean time to resolve: ${model.mttrMs === null ? 'none resolved' : duration(model.mttrMs)}.`;
  return [
    '<!DOCTYPE html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<title>${escapeHtml(subject)}</title></head>`,
    '<body style="font-family:sans-serif;color:#222;max-width:640px">',
    `<h1 style="font-size:20px">${escapeHtml(model.tenantName)}: ${escapeHtml(model.period.frequency)} report</h1>`,
    `<p>${escapeHtml(periodText(model))}</p>`,
    `<p>${escapeHtml(summary)}</p>`,
    '<h2 style="font-size:16px">Uptime by blueprint</h2>',
    uptime(model.blueprints, 'Blueprint', 'No blueprints.'),
    '<h2 style="font-size:16px">Uptime by status page</h2>',
    uptime(model.pages, 'Status page', 'No status pages.'),
    '<h2 style="font-size:16px">Incidents</h2>',
    htmlTable(
      ['Entity', 'Opened', 'Duration', 'State'],
      model.incidents.rows.map((r) => [
        r.entity,
        when(r.openedMs, zone),
        duration(r.durationMs),
        r.ongoing ? 'ongoing' : `resolved ${when(r.resolvedMs ?? 0, zone)}`,
      ]),
      model.incidents.more,
      'No incidents opened in this period.',
    ),
    '<h2 style="font-size:16px">Slowest checks (p95 latency)</h2>',
    htmlTable(
      ['Check', 'Entity', 'p95'],
      model.slowest.map((c) => [c.name, c.entity, `${Math.round(c.p95Ms)} ms`]),
      0,
      'No latency recorded in this period.',
    ),
    `<p><a href="${escapeHtml(links.console)}">Open the console</a></p>`,
    `<p style="font-size:12px;color:#666"><a href="${escapeHtml(links.unsubscribe)}">Stop these reports</a></p>`,
    '</body></html>',
  ].join('\n');
}

/** The e-mail of a report. */
export function renderReport(model: ReportModel, links: ReportLinks): ReportEmail {
  const name = model.tenantName.replace(/[\r\n]+/g, ' ').slice(0, 80);
  const subject = `[Vigil] ${name}: ${model.period.frequency} report, ${periodText(model)}`;
  return { subject, text: textOf(model, links), html: htmlOf(model, links, subject) };
}
