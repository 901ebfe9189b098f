import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { outsideCheckState } from '../../lib/integrations/ingest/alert-lifecycle.ts';
import {
  createIngestService,
  type OutsideStateChange,
} from '../../lib/integrations/ingest/ingest-service.ts';
import {
  getOutsideAlert,
  getOutsideTally,
  oldestLowestOpen,
  openAlertCount,
  openOf,
} from '../../lib/integrations/items/outside-alert-items.ts';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { createSqliteTable, openSqliteDatabase } from '../../lib/sqlite/sqlite-table.ts';
import type { Table } from '../../lib/store/table.ts';
import { tableEngines } from '../support/table-engines.ts';
import { integrationRecord as integration } from './support/integration-record.ts';

/**
 * Ingest over both engines of the Table port: alerts land on the entity their rules name (or the
 * integration's own, saying why), one alert per dedup key however often it is sent, and each
 * touched entity's outside state is handed on with the worst open alert's summary. The property:
 * after any run of requests, each entity's tally is the count of its open alerts, and the last
 * state handed on for it is what its stored alerts say.
 */

const ENTITIES = new Map([
  ['service/orders-db', 'ent_orders'],
  ['service/shop-api', 'ent_shop'],
]);
const OWN = 'ent_integration';

function rig(table: Table, openBound?: number) {
  const changes: OutsideStateChange[] = [];
  const service = createIngestService({
    table,
    clock: createFakeClock(Date.parse('2026-11-28T22:00:00Z')),
    entities: {
      get: async (_tenant, blueprint, slug) => {
        const id = ENTITIES.get(`${blueprint}/${slug}`);
        return id ? { id } : undefined;
      },
    },
    fetchCertificate: async () => {
      throw new Error('no certificate here');
    },
    confirmSubscription: async () => undefined,
    topicConfirmed: async () => undefined,
    acknowledgeIncident: async () => undefined,
    stateChanged: async (change) => {
      changes.push(change);
      return 'recorded' as const;
    },
    ...(openBound === undefined ? {} : { openBound }),
  });
  return { service, changes };
}

const am = (
  alerts: {
    fp: string;
    status?: 'firing' | 'resolved';
    service?: string;
    severity?: string;
    summary?: string;
  }[],
) => ({
  version: '4',
  alerts: alerts.map((a) => ({
    status: a.status ?? 'firing',
    fingerprint: a.fp,
    labels: {
      alertname: a.fp,
      ...(a.service ? { service: a.service } : {}),
      ...(a.severity ? { severity: a.severity } : {}),
    },
    annotations: { summary: a.summary ?? `${a.fp} is wrong` },
  })),
});

describe.each(tableEngines())('ingest on $engine', ({ make }) => {
  it('puts alerts on the entities their labels name, and the rest on its own entity saying why', async () => {
    const table = make();
    const { service, changes } = rig(table);
    const int = integration();
    const outcome = await service.ingest(
      int,
      am([
        { fp: 'db-disk', service: 'orders-db', severity: 'warning', summary: 'Disk 95% full' },
        { fp: 'db-down', service: 'orders-db', summary: 'orders-db is down' },
        { fp: 'nowhere', service: 'billing' },
        { fp: 'nolabel' },
      ]),
      {},
    );
    expect(outcome).toEqual({
      accepted: 4,
      deduplicated: 0,
      unmatched: 2,
      unmatchedWhy: ['nowhere: no entity service/billing', 'nolabel: the alert has no label service'],
      gaveWay: [],
      ignored: 0,
      dedupKeys: ['db-disk', 'db-down', 'nowhere', 'nolabel'],
    });
    expect(changes.map(({ entityId, state, reason }) => ({ entityId, state, reason }))).toEqual([
      { entityId: 'ent_orders', state: 'down', reason: 'orders-db is down' },
      { entityId: OWN, state: 'down', reason: 'nolabel is wrong' },
    ]);
    expect(await getOutsideAlert(table, int.id, 'nowhere')).toMatchObject({
      entity_id: OWN,
      unmatched: { rule: 0, named: 'service/billing', why: 'no entity service/billing' },
    });
    expect(await getOutsideAlert(table, int.id, 'nolabel')).toMatchObject({
      unmatched: { rule: 0, named: null, why: 'the alert has no label service' },
    });
  });

  it('keeps one alert per fingerprint when a request comes again, and resolves it to up', async () => {
    const table = make();
    const { service, changes } = rig(table);
    const int = integration();
    const body = am([{ fp: 'db-down', service: 'orders-db' }]);
    await service.ingest(int, body, {});
    expect(await service.ingest(int, body, {})).toMatchObject({ accepted: 0, deduplicated: 1 });
    expect(await getOutsideAlert(table, int.id, 'db-down')).toMatchObject({ status: 'triggered', count: 2 });
    expect(await getOutsideTally(table, int.id, 'ent_orders')).toMatchObject({
      critical: 1,
      error: 0,
      warning: 0,
      info: 0,
    });
    await service.ingest(int, am([{ fp: 'db-down', service: 'orders-db', status: 'resolved' }]), {});
    expect(changes.at(-1)).toMatchObject({ entityId: 'ent_orders', state: 'up', reason: undefined });
    expect(await getOutsideTally(table, int.id, 'ent_orders')).toMatchObject({
      critical: 0,
      error: 0,
      warning: 0,
      info: 0,
    });
  });

  it('counts one open alert when the same trigger arrives twice at once', async () => {
    const table = make();
    const { service } = rig(table);
    const int = integration();
    const body = am([{ fp: 'db-down', service: 'orders-db' }]);
    await Promise.all([service.ingest(int, body, {}), service.ingest(int, body, {})]);
    expect(await getOutsideAlert(table, int.id, 'db-down')).toMatchObject({ count: 2, version: 2 });
    expect(await getOutsideTally(table, int.id, 'ent_orders')).toMatchObject({ critical: 1 });
  });

  it('keeps an integration under its bound of open alerts: the oldest of the lowest severity gives way', async () => {
    const table = make();
    const { service } = rig(table, 3);
    const int = integration();
    const one = (fp: string, severity: string) =>
      service.ingest(int, am([{ fp, service: 'orders-db', severity }]), {});
    await one('a', 'critical');
    await one('b', 'info');
    await one('c', 'warning');
    expect((await one('d', 'critical')).gaveWay).toEqual(['b']);
    expect((await one('e', 'critical')).gaveWay).toEqual(['c']);
    const statuses = await Promise.all(
      ['a', 'b', 'c', 'd', 'e'].map(async (fp) => (await getOutsideAlert(table, int.id, fp))?.status),
    );
    expect(statuses).toEqual(['triggered', 'resolved', 'resolved', 'triggered', 'triggered']);
    expect(await openAlertCount(table, int.id)).toBe(3);
    expect(await getOutsideTally(table, int.id, 'ent_orders')).toMatchObject({
      critical: 3,
      error: 0,
      warning: 0,
      info: 0,
    });
  });
});

describe('ingest (property, SQLite)', () => {
  it('keeps each tally the count of open alerts, and hands on the state its alerts say', async () => {
    const step = fc.record({
      fp: fc.constantFrom('a', 'b', 'c', 'd'),
      status: fc.constantFrom<'firing' | 'resolved'>('firing', 'resolved'),
      service: fc.constantFrom('orders-db', 'shop-api', 'billing'),
      severity: fc.constantFrom('critical', 'warning', 'info', 'error'),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(step, { minLength: 1, maxLength: 4 }), { maxLength: 12 }),
        async (requests) => {
          const table = createSqliteTable({ db: openSqliteDatabase(':memory:') });
          const { service, changes } = rig(table);
          const int = integration();
          for (const request of requests) await service.ingest(int, am(request), {});
          const stored = (
            await Promise.all(['a', 'b', 'c', 'd'].map((fp) => getOutsideAlert(table, int.id, fp)))
          ).filter((a) => a !== undefined);
          for (const entityId of new Set(stored.map((a) => a.entity_id))) {
            const mine = stored.filter((a) => a.entity_id === entityId);
            const tally = await getOutsideTally(table, int.id, entityId);
            for (const severity of ['critical', 'error', 'warning', 'info'] as const)
              expect(tally[severity]).toBe(
                mine.filter((a) => a.status !== 'resolved' && a.severity === severity).length,
              );
            // An entity where no alert ever opened has no outside check to move; info alone is up.
            expect(changes.findLast((c) => c.entityId === entityId)?.state).toBe(
              tally.writes ? (outsideCheckState(mine) ?? 'up') : undefined,
            );
            expect(outsideCheckState(openOf(tally))).toBe(outsideCheckState(mine));
          }
          const open = stored.filter((a) => a.status !== 'resolved');
          expect(await openAlertCount(table, int.id)).toBe(open.length);
          const rank = ['info', 'warning', 'error', 'critical'];
          const [expected] = [...open].sort(
            (x, y) =>
              rank.indexOf(x.severity) - rank.indexOf(y.severity) ||
              (x.first_at < y.first_at ? -1 : x.first_at > y.first_at ? 1 : x.id < y.id ? -1 : 1),
          );
          expect(await oldestLowestOpen(table, int.id)).toBe(expected?.dedup_key);
        },
      ),
      { numRuns: 60 },
    );
  });
});
