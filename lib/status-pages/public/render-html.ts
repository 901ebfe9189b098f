import { createHash } from 'node:crypto';
import type { PageLinks } from '../domains/page-hosts.ts';
import { escapeHtml, time } from '../html/html-text.ts';
import {
  type HistoryView,
  historyHtml,
  historyPageHtml,
  INCIDENTS_STYLE,
  LEVEL_WORDS,
  openIncidentsHtml,
} from '../incidents/render-incidents.ts';
import { maintenanceNoticesHtml } from '../maintenance-notices/render-notices.ts';
import type { PublicPage, PublicState } from './public-view.ts';
import { BARS_STYLE, percent, renderBars } from './render-bars.ts';
import { SUBSCRIBE_STYLE, subscribeFormHtml } from './subscriber-pages.ts';

/**
 * The public status page as HTML, rendered on the server from the public view alone: no script at
 * all (so no console code and no key can be in it), one inline stylesheet allowed by its hash, and
 * every text escaped. The CSP below forbids everything else.
 */

const STYLE = [
  'body{font:15px/1.5 system-ui,sans-serif;margin:0;background:#f6f7f9;color:#1c1f24}',
  'main{max-width:860px;margin:0 auto;padding:24px 16px}',
  'h1{font-size:26px;margin:0 0 4px}h2{font-size:18px;margin:28px 0 8px}',
  '.banner{padding:12px 16px;border-radius:6px;font-weight:600;margin:16px 0;color:#fff}',
  '.s-up{background:#16794a}.s-degraded{background:#8a5a00}.s-down{background:#b3261e}.s-unknown{background:#5b6470}.s-maintenance{background:#1f5fa8}',
  'ul{list-style:none;padding:0;margin:0}',
  '.entity{background:#fff;border:1px solid #dde1e6;border-radius:6px;padding:10px 14px;margin:8px 0}',
  '.row{display:flex;justify-content:space-between;gap:12px;flex-wrap:wrap}',
  '.state{font-weight:600}.t-up{color:#16794a}.t-degraded{color:#8a5a00}.t-down{color:#b3261e}.t-unknown{color:#5b6470}.t-maintenance{color:#1f5fa8}',
  BARS_STYLE,
  INCIDENTS_STYLE,
  '.meta{color:#4a515b;font-size:13px}',
  SUBSCRIBE_STYLE,
  'footer{color:#4a515b;font-size:13px;margin-top:32px}',
].join('');

const STYLE_HASH = `sha256-${createHash('sha256').update(STYLE).digest('base64')}`;

/** The page's CSP: nothing but its own hashed stylesheet; no script, frame, base or plugin; forms post only here (subscribe). */
export const PAGE_CSP = [
  "default-src 'none'",
  `style-src '${STYLE_HASH}'`,
  "img-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** How the pages name a state. */
export const STATE_WORDS: Record<PublicState, string> = {
  up: 'Operational',
  degraded: 'Degraded',
  down: 'Down',
  unknown: 'No data yet',
};
const BANNER: Record<PublicState, string> = {
  up: 'All systems operational',
  degraded: 'Some systems are degraded',
  down: 'Some systems are down',
  unknown: 'No status yet',
};

/**
 * The page's banner: under maintenance when a window covers an entity and nothing outside it is
 * wrong; a partial outage when an open incident says so and nothing is down.
 */
function bannerOf(view: PublicPage): { className: string; text: string } {
  if (view.maintenance && (view.state === 'up' || view.state === 'unknown')) {
    return { className: 's-maintenance', text: 'Under maintenance' };
  }
  if (view.state === 'degraded' && view.entities.some((e) => e.impact === 'partial_outage'))
    return { className: 's-degraded', text: 'Partial outage' };
  return { className: `s-${view.state}`, text: BANNER[view.state] };
}

type Entity = PublicPage['entities'][number];

/** Its open incidents' impact beats its checks' word unless the checks say worse (down beyond a partial outage). */
const IMPACT_RANK = { degraded_performance: 2, partial_outage: 2.5, major_outage: 3 } as const;
const STATE_RANK: Record<PublicState, number> = { unknown: 0, up: 1, degraded: 2, down: 3 };

/** The word and colour of an entity's state: maintenance, its incidents' impact, or its state. */
function entityWord(entity: Entity): { className: string; word: string } {
  const impact = entity.impact;
  if (impact !== null && IMPACT_RANK[impact] >= STATE_RANK[entity.state]) {
    const word = LEVEL_WORDS[impact];
    return { className: `t-${entity.state}`, word: `${word.charAt(0).toUpperCase()}${word.slice(1)}` };
  }
  if (entity.in_maintenance) return { className: 't-maintenance', word: 'Under maintenance' };
  return { className: `t-${entity.state}`, word: STATE_WORDS[entity.state] };
}

function entityItem(entity: Entity): string {
  const name = escapeHtml(entity.name);
  const uptime = entity.uptime_ratio === null ? 'no uptime data' : `${percent(entity.uptime_ratio)} uptime`;
  const { className, word } = entityWord(entity);
  return [
    '<li class="entity"><div class="row">',
    `<span>${name}</span><span class="state ${className}">${word}</span></div>`,
    renderBars(entity.days),
    `<div class="meta">${escapeHtml(uptime)}</div></li>`,
  ].join('');
}

/** The incidents the page's checks opened (when it shows them) as list items: open ones, and resolved ones. */
function detected(view: PublicPage['incidents']): { open: string[]; resolved: string[] } {
  if (view === null) return { open: [], resolved: [] };
  return {
    open: view.open.map(
      (i) =>
        `<li class="entity">${escapeHtml(i.entity_name)}: ${i.state === 'acknowledged' ? 'investigating' : 'open'} since ${time(i.opened_at)}</li>`,
    ),
    resolved: view.resolved.map(
      (i) =>
        `<li class="entity">${escapeHtml(i.entity_name)}: ${time(i.opened_at)} to ${time(i.resolved_at)} (${Math.max(1, Math.round(i.duration_seconds / 60))} min)</li>`,
    ),
  };
}

function documentOf(title: string, body: string, head = ''): string {
  return [
    '<!doctype html><html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title>${head}<style>${STYLE}</style></head>`,
    `<body><main>${body}</main></body></html>`,
  ].join('');
}

/**
 * A light document in the public pages' look and stylesheet, without the page's feeds or forms: the
 * MCP status app's views (lib/mcp/apps). `body` must be HTML built from escaped text.
 */
export function renderLightDocument(title: string, body: string): string {
  return documentOf(title, body);
}

/**
 * The whole page, its links under `links` (/p/{slug}, or the root of its custom domain); the
 * subscribe form only where the deployment can send the confirmation mail (`subscribe`).
 */
export function renderPage(view: PublicPage, links: PageLinks, offer: { subscribe: boolean }): string {
  const { base } = links;
  const feeds = { rss: `${base}/feed.rss`, atom: `${base}/feed.atom` };
  const checks = detected(view.incidents);
  const body = [
    `<h1>${escapeHtml(view.title)}</h1>`,
    view.description ? `<p>${escapeHtml(view.description)}</p>` : '',
    `<div class="banner ${bannerOf(view).className}" role="status">${bannerOf(view).text}</div>`,
    // One list of the current incidents: the written ones, then those the checks opened.
    openIncidentsHtml(view.written_incidents.open, checks.open),
    maintenanceNoticesHtml(view.maintenance_notices),
    '<h2>Services</h2>',
    view.entities.length > 0
      ? `<ul>${view.entities.map(entityItem).join('')}</ul>`
      : '<p>Nothing is shown yet.</p>',
    historyHtml(base, view.written_incidents.history, view.written_incidents.archive, checks.resolved),
    offer.subscribe ? subscribeFormHtml(base) : '',
    `<footer>Updated ${time(view.generated_at)}. Follow the incidents: <a href="${feeds.rss}">RSS</a> · <a href="${feeds.atom}">Atom</a>. Powered by Vigil.</footer>`,
  ].join('');
  // Feed readers and browsers find the feeds from the page's address (RSS Autodiscovery).
  const head = [
    `<link rel="alternate" type="application/rss+xml" title="${escapeHtml(view.title)} (RSS)" href="${feeds.rss}">`,
    `<link rel="alternate" type="application/atom+xml" title="${escapeHtml(view.title)} (Atom)" href="${feeds.atom}">`,
  ].join('');
  return documentOf(view.title, body, head);
}

/** A page of the written-incident history (the last 90 days, or one month's archive). */
export function renderHistory(view: HistoryView): string {
  return documentOf(`${view.heading} · ${view.title}`, historyPageHtml(view));
}

/** The page of an unknown slug. */
export function renderNotFound(): string {
  return documentOf(
    'Status page not found',
    '<h1>Status page not found</h1><p>There is no status page at this address.</p>',
  );
}
