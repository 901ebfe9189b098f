import { escapeHtml, time } from '../html/html-text.ts';
import { renderMarkdown } from '../html/markdown.ts';
import { HISTORY_DAYS, type HistoryPage, type WrittenIncident } from './public-incidents.ts';

/**
 * The written incidents in the public page's HTML: open ones on top with their latest update
 * (earlier ones in a `<details>`, which needs no script), then the history with a link to older
 * incidents and one to each month's archive. Bodies are the Markdown subset (../html/markdown.ts).
 */

export const INCIDENTS_STYLE = [
  '.inc{background:#fff;border:1px solid #dde1e6;border-radius:6px;padding:10px 14px;margin:8px 0}',
  '.inc h3{font-size:16px;margin:0 0 4px}.inc p{margin:4px 0}.inc ul,.inc ol{list-style:revert;padding-left:20px}',
  '.inc pre{background:#f0f2f5;padding:6px;overflow:auto}.upd{border-top:1px solid #eef0f3;padding-top:6px;margin-top:6px}',
  '.st{font-weight:600;text-transform:capitalize}nav a{margin-right:12px}',
].join('');

const STATUS_WORDS: Record<WrittenIncident['status'], string> = {
  investigating: 'Investigating',
  identified: 'Identified',
  monitoring: 'Monitoring',
  resolved: 'Resolved',
};
export const LEVEL_WORDS: Record<WrittenIncident['impact'][number]['level'], string> = {
  degraded_performance: 'degraded performance',
  partial_outage: 'partial outage',
  major_outage: 'major outage',
};

function update(u: WrittenIncident['updates'][number]): string {
  return `<div class="upd"><span class="st">${STATUS_WORDS[u.status]}</span> · ${time(u.at)}${renderMarkdown(u.body)}</div>`;
}

function incident(i: WrittenIncident): string {
  const [latest, ...earlier] = i.updates;
  const impact =
    i.impact.length > 0
      ? `<p class="meta">Affects ${i.impact.map((x) => `${escapeHtml(x.entity_name)} (${LEVEL_WORDS[x.level]})`).join(', ')}</p>`
      : '';
  const span = i.resolved_at
    ? `${time(i.started_at)} to ${time(i.resolved_at)}`
    : `since ${time(i.started_at)}`;
  return [
    `<li class="inc"><h3>${escapeHtml(i.title)}</h3>`,
    `<p class="meta">${STATUS_WORDS[i.status]}, ${span}</p>`,
    impact,
    latest ? update(latest) : '',
    earlier.length > 0
      ? `<details><summary>Earlier updates (${earlier.length})</summary>${earlier.map(update).join('')}</details>`
      : '',
    '</li>',
  ].join('');
}

/**
 * One list: the written incidents, then `more` (list items already rendered: the incidents the
 * page's checks opened, when it shows them), or the `none` sentence when both are empty.
 */
const list = (incidents: WrittenIncident[], none: string, more: readonly string[] = []) =>
  incidents.length + more.length > 0
    ? `<ul>${incidents.map(incident).join('')}${more.join('')}</ul>`
    : `<p>${none}</p>`;

/**
 * The page's current incidents, at its top, in one list: the open written ones, then `detected`
 * (the open incidents of its checks as list items, when the page shows them). Nothing when none.
 */
export function openIncidentsHtml(open: WrittenIncident[], detected: readonly string[] = []): string {
  return open.length + detected.length > 0 ? `<h2>Current incidents</h2>${list(open, '', detected)}` : '';
}

/** A link to the next page of `path` when `older` is set. */
const olderLink = (path: string, older: string | null) =>
  older === null
    ? ''
    : `<p><a href="${escapeHtml(`${path}?before=${encodeURIComponent(older)}`)}">Older incidents</a></p>`;

/**
 * The history section of the main page (its routes under `pageBase`): 90 days' first page, the
 * resolved incidents of its checks (`detected`, list items, when the page shows them) in the same
 * list, then the months' archives (`archive`, yyyy-mm, newest first).
 */
export function historyHtml(
  pageBase: string,
  history: HistoryPage,
  archive: readonly string[],
  detected: readonly string[] = [],
): string {
  const base = `${pageBase}/history`;
  return [
    `<h2>Incident history</h2>`,
    // The open ones are on top already: the main page's history lists the resolved ones.
    list(
      history.incidents.filter((i) => i.status === 'resolved'),
      `No incidents resolved in the last ${HISTORY_DAYS} days.`,
      detected,
    ),
    olderLink(base, history.older),
    archiveNav(pageBase, archive),
  ].join('');
}

/** Links to each month's archive (none before the page's first month: archiveMonths). */
function archiveNav(pageBase: string, archive: readonly string[]): string {
  const base = `${pageBase}/history`;
  const links = archive.map((m) => `<a href="${base}/${m}">${m}</a>`);
  return `<nav aria-label="Incident archive">Archive: ${links.join('')}</nav>`;
}

/** A history or archive page: the page's title and links, its heading and path, its incidents. */
export interface HistoryView {
  title: string;
  /** Where the page's routes are: /p/{slug}, or the root of its custom domain. */
  links: { base: string; home: string };
  heading: string;
  path: string;
  page: HistoryPage;
  /** The months whose archives are linked, newest first (archiveMonths). */
  archive: readonly string[];
}

/** The body of a history or archive page: a heading, its incidents and the link to older ones. */
export function historyPageHtml(view: HistoryView): string {
  return [
    `<h1>${escapeHtml(view.title)}</h1>`,
    `<p><a href="${view.links.home}">Current status</a></p>`,
    `<h2>${escapeHtml(view.heading)}</h2>`,
    list(view.page.incidents, 'No incidents.'),
    olderLink(view.path, view.page.older),
    archiveNav(view.links.base, view.archive),
  ].join('');
}
