import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { emptyRollup } from '../../lib/domain/rollups/sparkline.ts';
import type { Rollup } from '../../lib/domain/rollups.ts';
import { buildReport, REPORT_BOUNDS, type ReportInput } from '../../lib/reports/report-model.ts';
import { lastWholePeriod } from '../../lib/reports/report-period.ts';
import { renderReport } from '../../lib/reports/report-render.ts';

/**
 * The report builder and its e-mail (pure): named examples, and the MTTR, duration and period
 * properties over generated incident sets (seed printed).
 */

const HOUR = 3_600_000;
const NOW = Date.parse('2026-11-26T10:00:00.000Z');
const WEEK = lastWholePeriod('weekly', 'Europe/Berlin', NOW);
const LINKS = {
  console: 'https://vigil.example.com/',
  unsubscribe: 'https://vigil.example.com/v1/reports/unsubscribe/t0k',
};

/** A rollup of `total` results, `failures` failed, every latency in the histogram bucket `bucket`. */
function rollup(total: number, failures: number, bucket = 0): Rollup {
  const r = emptyRollup();
  r.total = total;
  r.failures = failures;
  r.histogram[bucket] = total;
  r.latency_max = 60_000;
  return r;
}

function input(overrides: Partial<ReportInput> = {}): ReportInput {
  return {
    tenantName: 'Acme',
    period: WEEK,
    blueprints: [],
    pages: [],
    incidents: [],
    checks: [],
    checkCount: 0,
    ...overrides,
  };
}

describe('report period', () => {
  it('is the last whole week, Monday to Monday in the person’s zone', () => {
    expect(WEEK.key).toBe('weekly:2026-11-16');
    expect(new Date(WEEK.startMs).toISOString()).toBe('2026-11-15T23:00:00.000Z');
    expect(new Date(WEEK.endMs).toISOString()).toBe('2026-11-22T23:00:00.000Z');
  });

  it('is the last whole month, and a boundary at now counts as passed', () => {
    const month = lastWholePeriod('monthly', 'UTC', Date.parse('2026-11-01T00:00:00.000Z'));
    expect(month.key).toBe('monthly:2026-10');
    expect(month.endMs).toBe(Date.parse('2026-11-01T00:00:00.000Z'));
  });

  it('reads an unknown zone as UTC', () => {
    expect(lastWholePeriod('weekly', 'Mars/Olympus', NOW).timeZone).toBe('UTC');
  });
});

describe('report builder', () => {
  it('gives uptime per blueprint and per page by name, no results as null', () => {
    const model = buildReport(
      input({
        blueprints: [
          { name: 'Services', rollups: [rollup(1000, 1), rollup(1000, 0)] },
          { name: 'Databases', rollups: [] },
        ],
        pages: [{ name: 'Public status', rollups: [rollup(400, 4)] }],
      }),
    );
    expect(model.blueprints.rows).toEqual([
      { name: 'Databases', uptime: null },
      { name: 'Services', uptime: 0.9995 },
    ]);
    expect(model.pages.rows).toEqual([{ name: 'Public status', uptime: 0.99 }]);
  });

  it('lists incidents opened in the period with durations, one still open at its end as ongoing', () => {
    const model = buildReport(
      input({
        incidents: [
          { entityName: 'API', openedMs: WEEK.startMs + HOUR, resolvedMs: WEEK.startMs + 3 * HOUR },
          { entityName: 'DB', openedMs: WEEK.endMs - HOUR, resolvedMs: null },
          { entityName: 'Old', openedMs: WEEK.startMs - 5 * HOUR, resolvedMs: WEEK.startMs + HOUR },
          { entityName: 'Late', openedMs: WEEK.endMs - HOUR, resolvedMs: WEEK.endMs + HOUR },
        ],
      }),
    );
    expect(model.incidents.rows.map((r) => [r.entity, r.durationMs / HOUR, r.ongoing])).toEqual([
      ['API', 2, false],
      ['DB', 1, true],
      ['Late', 1, true],
    ]);
    // Resolved in the period: API (2 h) and Old (6 h), whenever they opened.
    expect(model.mttrMs).toBe(4 * HOUR);
    expect(model.counts).toMatchObject({ opened: 3, resolved: 2, ongoing: 2 });
  });

  it('has no MTTR when nothing was resolved in the period', () => {
    expect(buildReport(input()).mttrMs).toBeNull();
  });

  it('names the five slowest checks by p95, slowest first', () => {
    const checks = Array.from({ length: 8 }, (_, i) => ({
      name: `check ${i}`,
      entityName: 'API',
      rollups: [rollup(100, 0, 20 + 4 * i)],
    }));
    const model = buildReport(input({ checks, checkCount: 8 }));
    expect(model.slowest.map((c) => c.name)).toEqual(['check 7', 'check 6', 'check 5', 'check 4', 'check 3']);
    expect(model.slowest[0]?.p95Ms).toBeGreaterThan(model.slowest[4]?.p95Ms ?? Number.POSITIVE_INFINITY);
  });

  it('lists at most the bound of each section and counts the rest', () => {
    const blueprints = Array.from({ length: REPORT_BOUNDS.blueprints + 7 }, (_, i) => ({
      name: `bp ${String(i).padStart(2, '0')}`,
      rollups: [rollup(10, 0)],
    }));
    const model = buildReport(input({ blueprints }));
    expect(model.blueprints.rows).toHaveLength(REPORT_BOUNDS.blueprints);
    expect(model.blueprints.more).toBe(7);
    expect(renderReport(model, LINKS).text).toContain('and 7 more');
  });
});

describe('report e-mail', () => {
  const model = buildReport(
    input({
      tenantName: 'Acme <script>',
      blueprints: [{ name: 'Services & <b>co</b>', rollups: [rollup(1000, 1)] }],
      incidents: [
        { entityName: 'API "edge"', openedMs: WEEK.startMs + HOUR, resolvedMs: WEEK.startMs + 2 * HOUR },
      ],
    }),
  );
  const email = renderReport(model, LINKS);

  it('escapes every name in the HTML and loads nothing remote', () => {
    expect(email.html).not.toMatch(/<script|<img|src=|<link|url\(/i);
    expect(email.html).toContain('Services &amp; &lt;b&gt;co&lt;/b&gt;');
    expect(email.html).toContain('API &quot;edge&quot;');
  });

  it('says the figures in words in the text, with both links', () => {
    expect(email.text).toContain('Services & <b>co</b>: 99.90%');
    expect(email.text).toContain('API "edge": opened');
    expect(email.text).toContain('1 h, resolved');
    expect(email.text).toContain(`Stop these reports: ${LINKS.unsubscribe}`);
    expect(email.html).toContain(`href="${LINKS.console}"`);
    expect(email.subject).toMatch(
      /^\[Vigil\] Acme <script>: weekly report, 16 Nov 2026 – 22 Nov 2026 \(Europe\/Berlin\)$/,
    );
  });
});

describe('report properties', () => {
  const seed = process.env.VIGIL_MODEL_SEED ? Number(process.env.VIGIL_MODEL_SEED) : Date.now() % 2 ** 31;
  const incident = fc.record({
    entityName: fc.constantFrom('API', 'DB', 'Queue'),
    openedMs: fc.integer({ min: WEEK.startMs - 10 * 24 * HOUR, max: WEEK.endMs - 1 }),
    lasts: fc.option(fc.integer({ min: 0, max: 20 * 24 * HOUR }), { nil: null }),
  });

  it(`MTTR is the mean of the durations of the incidents resolved in the period (seed ${seed})`, () => {
    console.info(`report properties: seed ${seed}`);
    fc.assert(
      fc.property(fc.array(incident, { maxLength: 60 }), (generated) => {
        const incidents = generated.map((i) => ({
          entityName: i.entityName,
          openedMs: i.openedMs,
          resolvedMs: i.lasts === null ? null : i.openedMs + i.lasts,
        }));
        const model = buildReport(input({ incidents }));
        const resolved = incidents.filter(
          (i) => i.resolvedMs !== null && i.resolvedMs >= WEEK.startMs && i.resolvedMs < WEEK.endMs,
        );
        const durations = resolved.map((i) => (i.resolvedMs ?? 0) - i.openedMs);
        const mean = durations.length ? durations.reduce((a, b) => a + b, 0) / durations.length : null;
        expect(model.mttrMs).toBe(mean);
        expect(model.counts.resolved).toBe(resolved.length);
        const opened = incidents.filter((i) => i.openedMs >= WEEK.startMs && i.openedMs < WEEK.endMs);
        expect(model.counts.opened).toBe(opened.length);
        expect(model.incidents.rows.length + model.incidents.more).toBe(opened.length);
        // Every listed duration ends by the period's end, and an ongoing one runs to it.
        for (const row of model.incidents.rows) {
          expect(row.openedMs + row.durationMs).toBeLessThanOrEqual(WEEK.endMs);
          if (row.ongoing) expect(row.openedMs + row.durationMs).toBe(WEEK.endMs);
        }
      }),
      { seed, numRuns: 300 },
    );
  });

  it(`each instant lies in the period after its last whole one, in any zone (seed ${seed})`, () => {
    fc.assert(
      fc.property(
        fc.integer({ min: Date.parse('2020-01-01'), max: Date.parse('2035-01-01') }),
        fc.constantFrom('UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Kolkata', 'Pacific/Chatham'),
        fc.constantFrom('weekly' as const, 'monthly' as const),
        (nowMs, zone, frequency) => {
          const period = lastWholePeriod(frequency, zone, nowMs);
          expect(period.endMs).toBeLessThanOrEqual(nowMs);
          expect(period.endMs - period.startMs).toBeGreaterThanOrEqual(
            frequency === 'weekly' ? 167 * HOUR : 27 * 24 * HOUR,
          );
          // The next period has not ended yet: now is before the end after this one.
          const next = lastWholePeriod(
            frequency,
            zone,
            period.endMs + (frequency === 'weekly' ? 8 : 32) * 24 * HOUR,
          );
          expect(next.startMs).toBeGreaterThanOrEqual(period.endMs);
          expect(lastWholePeriod(frequency, zone, period.endMs).key).toBe(period.key);
        },
      ),
      { seed, numRuns: 200 },
    );
  });
});
