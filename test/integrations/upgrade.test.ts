import { describe, expect, it } from 'vitest';
import { createIngestService } from '../../lib/integrations/ingest/ingest-service.ts';
import { integrationByTokenHash, listIntegrations } from '../../lib/integrations/items/integration-items.ts';
import {
  getOutsideAlert,
  getOutsideTally,
  oldestLowestOpen,
  openAlertCount,
} from '../../lib/integrations/items/outside-alert-items.ts';
import { listPayloads } from '../../lib/integrations/items/payload-log-items.ts';
import { createIntegrationService } from '../../lib/integrations/manage/integration-service.ts';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { createSqliteTable, openSqliteDatabase } from '../../lib/sqlite/sqlite-table.ts';
import { loadPreviousRelease, previousRelease } from '../fixtures/previous-release-told/load.ts';

/**
 * Outside alerts' eight item types over the previous release's data (test/fixtures/previous-release-told,
 * written before integrations existed): every read of a missing item answers "none" (no integration,
 * no token, zero tallies and count, an empty payload log), so nothing needs filling on upgrade, and
 * the tenant of that release makes an integration and ingests into it as a new one does.
 */

describe("outside alerts over the previous release's data", () => {
  it('reads nothing where nothing was stored, then works as on a new store', async () => {
    const table = createSqliteTable({ db: openSqliteDatabase(':memory:') });
    const dump = previousRelease('http://127.0.0.1:9');
    await loadPreviousRelease(table, dump);
    const tenantId = dump.tenant_id;
    const clock = createFakeClock(Date.parse('2026-11-28T22:00:00Z'));

    expect(await listIntegrations(table, tenantId)).toEqual([]);
    expect(await integrationByTokenHash(table, 'f'.repeat(64))).toBeUndefined();
    expect(await getOutsideTally(table, 'int_none', 'ent_none')).toEqual({
      critical: 0,
      error: 0,
      warning: 0,
      info: 0,
    });
    expect(await openAlertCount(table, 'int_none')).toBe(0);
    expect(await oldestLowestOpen(table, 'int_none')).toBeUndefined();
    expect(await listPayloads(table, 'int_none')).toEqual([]);

    const integrations = createIntegrationService({
      table,
      clock,
      catalog: { createOwnEntity: async () => 'ent_own', removeOwnEntity: async () => undefined },
      removeOutsideCheck: async () => undefined,
    });
    const { record, token } = await integrations.create(tenantId, {
      kind: 'alertmanager',
      name: 'Prometheus',
      enabled: true,
      entity_rules: [],
      severity_map: {},
    });
    expect((await integrations.byToken(token)).id).toBe(record.id);
    const ingest = createIngestService({
      table,
      clock,
      entities: { get: async () => undefined },
      fetchCertificate: async () => '',
      confirmSubscription: async () => undefined,
      topicConfirmed: async () => undefined,
      acknowledgeIncident: async () => undefined,
      stateChanged: async () => 'recorded' as const,
    });
    const outcome = await ingest.ingest(
      record,
      { alerts: [{ status: 'firing', fingerprint: 'fp1', labels: {} }] },
      {},
    );
    expect(outcome).toMatchObject({ accepted: 1, unmatched: 1 });
    expect(await getOutsideAlert(table, record.id, 'fp1')).toMatchObject({
      status: 'triggered',
      entity_id: 'ent_own',
    });
    expect(await openAlertCount(table, record.id)).toBe(1);
  });
});
