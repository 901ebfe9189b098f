import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderAtom, renderRss } from '../../lib/status-pages/feeds/render-feed.ts';
import type { PageIncidentRecord } from '../../lib/status-pages/items/page-incident-items.ts';
import { feedProblems } from './support/feed-validator.ts';

/**
 * The feeds' writer against the validator: any title, body, entity name and page title (XML
 * specials, CDATA ends, control characters, astral and lone surrogates, Markdown) gives RSS and
 * Atom documents that validate; and the validator itself refuses broken feeds, so a pass means
 * something.
 */

const SEED = Number(process.env.VIGIL_FEED_SEED ?? 5_404);
const AT = '2026-06-10T12:00:00.000Z';

const nasty = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.constantFrom(
    '<b>x</b>',
    ']]>',
    '&amp;',
    '**bold** _em_ `a<b`',
    '[l](https://x.y/?a=1&b=2)',
    '\u0000\u0008\uFFFE',
    '\uD800',
  ),
);

function record(title: string, bodies: string[]): PageIncidentRecord {
  return {
    id: 'pin_1',
    tenant_id: 'tnt_1',
    page: 'acme',
    title,
    status: 'identified',
    impact: [{ entity_id: 'ent_1', level: 'major_outage' }],
    updates: bodies.map((body, i) => ({
      id: `upd_${i}`,
      status: 'investigating',
      body,
      notify: false,
      at: AT,
    })),
    started_at: AT,
    resolved_at: null,
    linked_incident_ids: [],
    draft: false,
    created_at: AT,
    updated_at: AT,
    version: 1,
  };
}

const page = (title: string, entity: string) => ({
  slug: 'acme',
  title,
  description: null,
  origin: 'https://status.example.com',
  names: new Map([['ent_1', entity]]),
  nowIso: AT,
  base: '/p/acme',
});

describe('status page feeds: writer and validator', () => {
  it('writes RSS and Atom that validate whatever the texts hold', async () => {
    console.info(`feed property seed ${SEED} (VIGIL_FEED_SEED replays it)`);
    await fc.assert(
      fc.asyncProperty(
        nasty,
        fc.array(nasty, { minLength: 1, maxLength: 3 }),
        nasty,
        nasty,
        async (title, bodies, pageTitle, entity) => {
          const records = [record(title, bodies)];
          const p = page(pageTitle, entity);
          expect(await feedProblems('rss', renderRss(p, records))).toEqual([]);
          expect(await feedProblems('atom', renderAtom(p, records))).toEqual([]);
        },
      ),
      { seed: SEED, numRuns: 25 },
    );
  });

  it('refuses broken feeds: not well formed, a required element missing, a bad date', async () => {
    const records = [record('Outage', ['Down.'])];
    const rss = renderRss(page('Acme', 'API'), records);
    const atom = renderAtom(page('Acme', 'API'), records);
    expect(await feedProblems('rss', rss)).toEqual([]);
    expect(await feedProblems('atom', atom)).toEqual([]);
    // Not XML at all: an unescaped ampersand.
    expect(await feedProblems('rss', rss.replace('<title>Acme</title>', '<title>A & B</title>'))).not.toEqual(
      [],
    );
    // RSS: a channel without its required <link>; a pubDate that is not RFC 822.
    expect(await feedProblems('rss', rss.replace(/<link>[^<]*<\/link>/, ''))).not.toEqual([]);
    expect(await feedProblems('rss', rss.replace(/<pubDate>[^<]*</, '<pubDate>2026-06-10<'))).not.toEqual([]);
    // Atom: an entry without its id; an updated that is not a date-time; no author anywhere.
    expect(await feedProblems('atom', atom.replace(/<id>tag:[^<]*incident[^<]*<\/id>/, ''))).not.toEqual([]);
    expect(await feedProblems('atom', atom.replace(/<updated>[^<]*</, '<updated>today<'))).not.toEqual([]);
    expect(await feedProblems('atom', atom.replace(/<author>[\s\S]*?<\/author>/, ''))).toEqual([
      'an atom:feed without an author has an entry without one',
    ]);
  });
});
