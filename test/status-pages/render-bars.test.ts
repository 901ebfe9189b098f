import { describe, expect, it } from 'vitest';
import { linksAt } from '../../lib/status-pages/domains/page-hosts.ts';
import type { PublicPage } from '../../lib/status-pages/public/public-view.ts';
import { barsSummary, renderBars } from '../../lib/status-pages/public/render-bars.ts';
import { renderPage } from '../../lib/status-pages/public/render-html.ts';

/** The daily bars drawn in runs: lean HTML for a page of 100 entities, every day still accounted for. */

type Day = PublicPage['entities'][number]['days'][number];

const DAY_MS = 86_400_000;
const START = Date.parse('2026-03-04T00:00:00Z');

function days(ratioOf: (i: number) => number | null): Day[] {
  return Array.from({ length: 90 }, (_, i) => ({
    date: new Date(START + i * DAY_MS).toISOString().slice(0, 10),
    uptime_ratio: ratioOf(i),
  }));
}

/** The elements of the bars and the columns each spans. */
function spans(html: string): { classes: string; span: number; title: string | undefined }[] {
  const bars = /<div class="bars" aria-hidden="true">(.*?)<\/div>/.exec(html)?.[1] ?? '';
  return [...bars.matchAll(/<i(?: class="([^"]*)")?(?: title="([^"]*)")?><\/i>/g)].map((m) => ({
    classes: m[1] ?? '',
    span: Number(/s(\d+)/.exec(m[1] ?? '')?.[1] ?? 1),
    title: m[2],
  }));
}

describe('status page bars', () => {
  it('draws a run of full days and a run of days without data as one element each', () => {
    const html = renderBars(days((i) => (i < 30 ? null : 1)));
    expect(spans(html)).toEqual([
      { classes: 's30', span: 30, title: undefined },
      { classes: 'b4 s60', span: 60, title: undefined },
    ]);
  });

  it('titles a day below 100 % with its figure, and a run of them with its dates and lowest; 90 columns in all', () => {
    const html = renderBars(
      days((i) =>
        i === 10
          ? 0.9712
          : i === 11
            ? 0.99951
            : i === 50
              ? null
              : i >= 60 && i < 63
                ? 0.995 - (i - 60) / 10_000
                : 1,
      ),
    );
    const found = spans(html);
    expect(found.reduce((sum, s) => sum + s.span, 0)).toBe(90);
    expect(found.filter((s) => s.title)).toEqual([
      { classes: 'b2', span: 1, title: '2026-03-14: 97.12%' },
      { classes: 'b4', span: 1, title: '2026-03-15: 99.95%' },
      { classes: 'b3 s3', span: 3, title: '2026-05-03 to 2026-05-05: lowest 99.48%' },
    ]);
    // 100 % days beside a 99.95 % day (both green) stay apart: the full run has no title to mislead.
    expect(found.map((s) => s.classes)).toEqual([
      'b4 s10',
      'b2',
      'b4',
      'b4 s38',
      '',
      'b4 s9',
      'b3 s3',
      'b4 s27',
    ]);
  });

  it('says what the bars show in a visually hidden summary', () => {
    expect(barsSummary(days(() => null))).toBe('Daily uptime over the last 90 days: no data yet.');
    expect(barsSummary(days(() => 1))).toBe(
      'Daily uptime over the last 90 days: 100% on every day with data.',
    );
    expect(barsSummary(days((i) => (i === 3 ? 0.5 : i === 4 ? 0.99 : i > 80 ? null : 1)))).toBe(
      'Daily uptime over the last 90 days: below 100% on 2 days, lowest 50.00% on 2026-03-07; no data on 9 days.',
    );
    expect(renderBars(days(() => 1))).toContain(
      '<p class="vh">Daily uptime over the last 90 days: 100% on every day with data.</p>',
    );
  });

  it('renders a page of 100 healthy entities, or of 100 flaky ones, in under 60 KB and 200 KB', () => {
    const page = (ratioOf: (i: number) => number | null): PublicPage => ({
      title: 'Acme',
      description: null,
      state: 'up',
      maintenance: false,
      generated_at: '2026-06-01T00:00:00.000Z',
      entities: Array.from({ length: 100 }, (_, i) => ({
        name: `Service ${i}`,
        state: 'up' as const,
        impact: null,
        in_maintenance: false,
        uptime_ratio: 0.999,
        days: days(ratioOf),
      })),
      incidents: null,
      written_incidents: { open: [], history: { incidents: [], older: null }, archive: ['2026-06'] },
      maintenance_notices: [],
    });
    // Mostly full days, a bad day now and then.
    const healthy = Buffer.byteLength(
      renderPage(
        page((i) => (i % 30 === 7 ? 0.98 : 1)),
        linksAt('/p/acme'),
        { subscribe: true },
      ),
    );
    // Every day below 100 %, a worse one every week: 26 titled runs per entity.
    const flaky = Buffer.byteLength(
      renderPage(
        page((i) => (i % 7 === 0 ? 0.97 : 0.995)),
        linksAt('/p/acme'),
        { subscribe: true },
      ),
    );
    console.log(`100 entities: ${healthy} bytes healthy, ${flaky} bytes flaky`);
    expect(healthy).toBeLessThan(60_000);
    expect(flaky).toBeLessThan(200_000);
  });
});
