import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { AppError } from '../../lib/platform/errors.ts';
import { createSqliteTable, openSqliteDatabase } from '../../lib/sqlite/sqlite-table.ts';
import { createPageIncidentService } from '../../lib/status-pages/incidents/page-incident-service.ts';
import { PAGE_INCIDENT_STATUSES } from '../../lib/status-pages/items/page-incident-items.ts';
import { pageCreatedOps } from '../../lib/status-pages/items/status-page-items.ts';
import type { Table } from '../../lib/store/table.ts';

/**
 * The forward-only rule over generated sequences of updates (fast-check; seed printed, replay it
 * with VIGIL_MODEL_SEED): against a model that holds only the current status, every attempt is
 * accepted exactly when the incident is unresolved and the status does not go back; the stored
 * updates' statuses never decrease, and resolved_at is set exactly when the last one is resolved.
 */

const seed = process.env.VIGIL_MODEL_SEED ? Number(process.env.VIGIL_MODEL_SEED) : Date.now() % 2 ** 31;
const rank = (s: string) => PAGE_INCIDENT_STATUSES.indexOf(s as (typeof PAGE_INCIDENT_STATUSES)[number]);

describe('page incident statuses move forward only', () => {
  let table: Table;
  const clock = createFakeClock(Date.parse('2026-06-01T00:00:00.000Z'));

  beforeAll(async () => {
    table = createSqliteTable({ db: openSqliteDatabase(':memory:') });
    await table.transact(
      pageCreatedOps({
        slug: 'acme',
        tenant_id: 'tnt_model',
        title: 'Acme',
        description: null,
        visibility: 'public',
        password_hash: null,
        access_key: null,
        domain: null,
        entity_ids: [],
        show_incidents: true,
        created_at: '2026-06-01T00:00:00.000Z',
        updated_at: '2026-06-01T00:00:00.000Z',
        version: 1,
      }),
    );
  });
  afterAll(async () => {
    await table?.close();
  });

  it(`accepts exactly the updates the model allows (seed ${seed})`, async () => {
    console.info(`page incident status flow: seed ${seed}`);
    const service = createPageIncidentService({ table, clock });
    const status = fc.constantFrom(...PAGE_INCIDENT_STATUSES);
    await fc.assert(
      fc.asyncProperty(status, fc.array(status, { minLength: 1, maxLength: 12 }), async (first, attempts) => {
        const created = await service.create('tnt_model', 'acme', {
          title: 'Generated',
          status: first,
          body: 'first',
          notify: false,
          impact: [],
          linked_incident_ids: [],
          draft: false,
        });
        let current: string = first;
        for (const next of attempts) {
          clock.advance(1000);
          const allowed = current !== 'resolved' && rank(next) >= rank(current);
          const outcome = await service
            .addUpdate('tnt_model', 'acme', created.id, { status: next, body: 'next', notify: false })
            .then(
              () => 'accepted',
              (error: unknown) => (error instanceof AppError && error.status === 400 ? 'refused' : error),
            );
          expect(outcome).toBe(allowed ? 'accepted' : 'refused');
          if (allowed) current = next;
        }
        const stored = await service.get('tnt_model', 'acme', created.id);
        const ranks = stored.updates.map((u) => rank(u.status));
        expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
        expect(stored.status).toBe(current);
        expect(stored.resolved_at !== null).toBe(current === 'resolved');
        await service.remove('tnt_model', 'acme', created.id);
      }),
      { seed, numRuns: 100 },
    );
  });
});
