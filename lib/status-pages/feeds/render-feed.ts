import { createHash } from 'node:crypto';
import { Feed, type Item } from 'feed';
import { escapeHtml } from '../html/html-text.ts';
import { renderMarkdown } from '../html/markdown.ts';
import type { PageIncidentRecord } from '../items/page-incident-items.ts';
import { lastUpdateAt } from './feed-entries.ts';

/**
 * A page's incidents as RSS 2.0 and Atom 1.0 (RFC 4287), written by the `feed` package. Titles
 * are HTML-escaped text (Atom's `type="html"`, which the package sets) and bodies the Markdown
 * subset's HTML, the same renderer the page uses: no raw HTML, no script. Characters XML 1.0
 * cannot carry (most C0 controls, lone surrogates) become U+FFFD first, so any text stays
 * well-formed. Ids are tag: URIs (RFC 4151) under the page's host, stable across renders; an
 * incident is named by a digest of its id, which the public answers keep out as the page does.
 */

export interface FeedPage {
  slug: string;
  title: string;
  description: string | null;
  /** The origin the page is read at (its custom domain's, else VIGIL_PUBLIC_URL's, else the request's allowed one). */
  origin: string;
  /** The prefix of the page's routes on that origin: /p/{slug}, or '' on its custom domain. */
  base: string;
  /** The page's entities by id: impact on others is left out, as on the page. */
  names: ReadonlyMap<string, string>;
  /** The feed's time when it has no entry (its last build). */
  nowIso: string;
}

const STATUS_WORDS: Record<PageIncidentRecord['status'], string> = {
  investigating: 'Investigating',
  identified: 'Identified',
  monitoring: 'Monitoring',
  resolved: 'Resolved',
};
const LEVEL_WORDS: Record<PageIncidentRecord['impact'][number]['level'], string> = {
  degraded_performance: 'degraded performance',
  partial_outage: 'partial outage',
  major_outage: 'major outage',
};

// XML 1.0's Char production: tab, LF, CR, U+0020..U+D7FF, U+E000..U+FFFD and astral pairs.
const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
/** Text XML 1.0 can carry: anything else is U+FFFD. */
const xmlSafe = (text: string) => text.replace(NOT_XML_CHAR, '\uFFFD');
/**
 * HTML the package wraps in CDATA: XML-safe, and never a `]]>` (which would end the section);
 * the escaped and rendered texts hold none, this keeps it so whatever they become.
 */
const cdataHtml = (html: string) => xmlSafe(html).replaceAll(']]>', ']]&gt;');

const minute = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`;

function updateHtml(u: PageIncidentRecord['updates'][number]): string {
  return `<p><small>${minute(u.at)}</small><br><strong>${STATUS_WORDS[u.status]}</strong></p>${renderMarkdown(u.body)}`;
}

function impactHtml(r: PageIncidentRecord, names: FeedPage['names']): string {
  const shown = r.impact.flatMap(({ entity_id, level }) => {
    const name = names.get(entity_id);
    return name === undefined ? [] : [`${escapeHtml(name)} (${LEVEL_WORDS[level]})`];
  });
  return shown.length > 0 ? `<p>Affects ${shown.join(', ')}</p>` : '';
}

const digest = (id: string) => createHash('sha256').update(id).digest('hex').slice(0, 32);

function item(page: FeedPage, r: PageIncidentRecord): Item {
  const host = new URL(page.origin).hostname;
  const newest = [...r.updates].reverse();
  const latest = newest[0];
  return {
    id: `tag:${host},2026:status-page/${page.slug}/incident/${digest(r.id)}`,
    title: cdataHtml(escapeHtml(`${r.title} (${STATUS_WORDS[r.status]})`)),
    link: `${page.origin}${page.base}/history/${r.started_at.slice(0, 7)}`,
    date: new Date(lastUpdateAt(r)),
    published: new Date(r.started_at),
    description: cdataHtml(latest ? updateHtml(latest) : ''),
    content: cdataHtml(impactHtml(r, page.names) + newest.map(updateHtml).join('')),
  };
}

/**
 * The feed of `format`. RSS 2.0 has one date per item, `pubDate`, which the package takes from
 * `published` when there is one: the RSS item leaves it out, so its `pubDate` is the newest
 * update (docs/status-pages.md "Feeds"); Atom keeps both, `published` the start and `updated`
 * the newest update.
 */
function feedOf(page: FeedPage, records: readonly PageIncidentRecord[], format: 'rss' | 'atom'): Feed {
  const pageUrl = `${page.origin}${page.base}`;
  const feed = new Feed({
    id: `tag:${new URL(page.origin).hostname},2026:status-page/${page.slug}`,
    title: xmlSafe(page.title),
    description: xmlSafe(page.description ?? `Incidents and updates of ${page.title}`),
    link: page.base === '' ? `${page.origin}/` : pageUrl,
    updated: new Date(records[0] ? lastUpdateAt(records[0]) : page.nowIso),
    feedLinks: { rss: `${pageUrl}/feed.rss`, atom: `${pageUrl}/feed.atom` },
    author: { name: xmlSafe(page.title), link: pageUrl },
    generator: 'Vigil',
    language: 'en',
    ttl: 5,
  });
  for (const r of records) {
    const { published, ...rest } = item(page, r);
    feed.addItem(format === 'atom' ? { ...rest, published } : rest);
  }
  return feed;
}

/** The page's incidents as an RSS 2.0 document. */
export const renderRss = (page: FeedPage, records: readonly PageIncidentRecord[]) =>
  feedOf(page, records, 'rss').rss2();

/** The page's incidents as an Atom 1.0 document. */
export const renderAtom = (page: FeedPage, records: readonly PageIncidentRecord[]) =>
  feedOf(page, records, 'atom').atom1();
