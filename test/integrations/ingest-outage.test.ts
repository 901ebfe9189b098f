import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createIngestService } from '../../lib/integrations/ingest/ingest-service.ts';
import {
  getOutsideAlert,
  getOutsideTally,
  type OutsideTally,
  openAlertCount,
} from '../../lib/integrations/items/outside-alert-items.ts';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { createSqliteTable, openSqliteDatabase } from '../../lib/sqlite/sqlite-table.ts';
import type { Table } from '../../lib/store/table.ts';
import { integrationRecord } from './support/integration-record.ts';

/**
 * Ingest through a store outage (issue 77 point 6): a store that fails a write fails the request,
 * as a sender sees it (a 5xx), and the sender sends the whole request again, as Alertmanager and
 * SNS do. The property: whatever writes fail on the way, once every request went through, each
 * alert's status and each entity's tally and the open count are those of the same requests with no
 * outage; only the retrigger counts may be higher (a request applied in part, then again).
 */

const INTEGRATION = integrationRecord({ id: 'int_outage', entity_id: 'ent_own' });

/** A table whose transactions fail when `down()` says so (the store refusing, before it writes). */
function flaky(table: Table, down: () => boolean): Table {
  return {
    ...table,
    get: (key, options) => table.get(key, options),
    batchGet: (keys) => table.batchGet(keys),
    query: (input) => table.query(input),
    update: (op) => table.update(op),
    close: () => table.close(),
    transact: async (ops) => {
      if (down()) throw new Error('the store is unavailable');
      return table.transact(ops);
    },
  };
}

/** A tally's counts (its `writes` differ with the retries a run took). */
const counts = ({ writes: _writes, ...rest }: OutsideTally) => rest;

function service(table: Table) {
  return createIngestService({
    table,
    clock: createFakeClock(Date.parse('2026-11-28T22:00:00Z')),
    entities: { get: async (_t, bp, slug) => ({ id: `ent_${bp}_${slug}` }) },
    fetchCertificate: async () => '',
    confirmSubscription: async () => undefined,
    topicConfirmed: async () => undefined,
    acknowledgeIncident: async () => undefined,
    stateChanged: async () => 'recorded' as const,
  });
}

const body = (
  alerts: { fp: string; status: 'firing' | 'resolved'; service: string; severity: string }[],
) => ({
  alerts: alerts.map((a) => ({
    status: a.status,
    fingerprint: a.fp,
    labels: { service: a.service, severity: a.severity },
    annotations: { summary: a.fp },
  })),
});

describe('ingest through a store outage (property, SQLite)', () => {
  it('ends as an outage-free run does once the sender has sent every request again', async () => {
    const alert = fc.record({
      fp: fc.constantFrom('a', 'b', 'c'),
      status: fc.constantFrom<'firing' | 'resolved'>('firing', 'resolved'),
      service: fc.constantFrom('db', 'api'),
      severity: fc.constantFrom('critical', 'warning', 'info'),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(alert, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 8 }),
        fc.array(fc.boolean(), { minLength: 1, maxLength: 40 }),
        async (requests, outages) => {
          const calm = createSqliteTable({ db: openSqliteDatabase(':memory:') });
          const stormy = createSqliteTable({ db: openSqliteDatabase(':memory:') });
          let write = 0;
          // The outage's pattern, then the store stays up (every request goes through in the end).
          const down = () => outages[write++] === true;
          const calmIngest = service(calm);
          const stormyIngest = service(flaky(stormy, down));
          let refused = 0;
          for (const request of requests) {
            await calmIngest.ingest(INTEGRATION, body(request), {});
            for (;;) {
              try {
                await stormyIngest.ingest(INTEGRATION, body(request), {});
                break;
              } catch (error) {
                expect((error as Error).message).toBe('the store is unavailable');
                refused += 1;
                if (refused > 100) throw new Error('the sender would give up');
              }
            }
          }
          for (const fp of ['a', 'b', 'c']) {
            const [want, got] = await Promise.all([
              getOutsideAlert(calm, INTEGRATION.id, fp),
              getOutsideAlert(stormy, INTEGRATION.id, fp),
            ]);
            expect(got?.status, fp).toBe(want?.status);
            expect(got?.severity, fp).toBe(want?.severity);
            expect(got?.entity_id, fp).toBe(want?.entity_id);
            expect(got?.count ?? 0, fp).toBeGreaterThanOrEqual(want?.count ?? 0);
          }
          for (const entity of ['ent_service_db', 'ent_service_api'])
            expect(counts(await getOutsideTally(stormy, INTEGRATION.id, entity))).toEqual(
              counts(await getOutsideTally(calm, INTEGRATION.id, entity)),
            );
          expect(await openAlertCount(stormy, INTEGRATION.id)).toBe(
            await openAlertCount(calm, INTEGRATION.id),
          );
        },
      ),
      { numRuns: 60 },
    );
  });
});
