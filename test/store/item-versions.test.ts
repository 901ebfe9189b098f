import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, paginateScan } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getCheckDefinition } from '../../lib/checks/check-items.ts';
import { createCellRunner } from '../../lib/checks/runner/cell-runner.ts';
import { systemClock } from '../../lib/platform/clock.ts';
import { tenantPk } from '../../lib/store/partitions.ts';
import {
  type ApiHarness,
  bothRuntimes,
  type LambdaHarness,
  type LocalHarness,
} from '../support/api-harness.ts';
import { runCellSlot } from '../support/cell-fixtures.ts';

/**
 * Every stored item says what it is and which shape it was written in: a broad run through the
 * API (tenancy, team, catalog, checks with probed cell slots, recorded and pushed results, paging, deletes,
 * rate limits) and then a read of every item the store holds, on either engine.
 */

type RawItem = Record<string, unknown>;

/** Every item of the local runtime's sqlite file. */
function sqliteItems(api: LocalHarness): RawItem[] {
  const rows = api.local.table.db.prepare<[], { data: string }>('SELECT data FROM items').all();
  return rows.map((row) => JSON.parse(row.data) as RawItem);
}

/** Every item of the harness's DynamoDB Local table (the only table in its database). */
async function dynamoItems(api: LambdaHarness): Promise<RawItem[]> {
  // A document client over the harness's own client: not destroyed here (the harness owns it).
  const doc = DynamoDBDocumentClient.from(api.dynamodb);
  const names = (await doc.send(new ListTablesCommand({}))).TableNames ?? [];
  expect(names).toHaveLength(1);
  const TableName = names[0];
  const tenant = await doc.send(
    new GetCommand({ TableName, Key: { pk: tenantPk(api.tenantId), sk: '#TENANT' } }),
  );
  expect(tenant.Item, 'the harness table holds its tenant').toBeDefined();
  const items: RawItem[] = [];
  for await (const page of paginateScan({ client: doc }, { TableName, ConsistentRead: true })) {
    items.push(...(page.Items ?? []));
  }
  return items;
}

const allItems = (api: ApiHarness): Promise<RawItem[]> =>
  'local' in api ? Promise.resolve(sqliteItems(api as LocalHarness)) : dynamoItems(api as LambdaHarness);

/** Item types the scenario below writes on either runtime and that stay in the table after it. */
const WRITTEN = [
  'tenant',
  'user',
  'user_email',
  'api_key',
  'api_key_hash',
  'invitation',
  'invitation_email',
  'invitation_token',
  'blueprint',
  'entity',
  'entity_pointer',
  'relation',
  'relation_key',
  'dependency',
  'check',
  'check_state',
  'result',
  'transition',
  'rollup',
  'cell',
  'cell_results',
  'cell_state',
  'cursor_secret',
];

describe.each(bothRuntimes)(
  'stored item types and schema versions ($runtime runtime)',
  ({ runtime, start }) => {
    let api: ApiHarness;
    let target: Server;
    let targetUrl: string;

    const call = async (method: string, path: string, body?: unknown, expected = [200, 201, 204]) => {
      const res = await api.request(method, path, { key: api.adminKey, body });
      expect(expected, `${method} ${path}: ${res.text}`).toContain(res.status);
      return res.body;
    };

    beforeAll(async () => {
      target = createServer((_req, res) => res.end('ok'));
      await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
      targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}/health`;
      // Generous limits: every request takes its rate window (an upserted item in the cloud runtime).
      api = await start({
        env: {
          VIGIL_RATE_LIMIT_RPS: '1000',
          VIGIL_RATE_LIMIT_BURST: '1000',
          VIGIL_ALLOW_PRIVATE_TARGETS: 'true',
        },
      });
    });
    afterAll(async () => {
      await api?.close();
      await new Promise((resolve) => target.close(resolve));
    });

    it('stamps every item it writes with a string entity and an integer schema_version of at least 1', async () => {
      await api.createTenant('Versions');
      await call('POST', '/v1/auth/keys', { label: 'ci' });
      const joined = await call('POST', '/v1/settings/users/invite', { email: 'joins@example.com' });
      const accepted = await api.request('POST', '/v1/settings/users/accept', {
        body: { token: joined.token, name: 'Joins' },
      });
      expect(accepted.status, accepted.text).toBe(201);
      await call('POST', '/v1/settings/users/invite', { email: 'pending@example.com', role: 'admin' });

      await call('POST', '/v1/blueprints', { slug: 'service', name: 'Service' });
      await call('PUT', '/v1/blueprints/service', { description: 'what we run' });
      await call('POST', '/v1/blueprints/service/fields', { name: 'team', field_type: 'string' });
      const ids: Record<string, string> = {};
      for (const slug of ['api', 'db', 'cache']) {
        ids[slug] = (await call('POST', '/v1/blueprints/service/entities', { slug, name: slug })).id;
      }
      await call('PUT', '/v1/blueprints/service/entities/api', { fields: { team: 'core' } });
      await call('POST', '/v1/relations', {
        from_entity_id: ids.api,
        to_entity_id: ids.db,
        relation_type: 'depends_on',
      });
      await call('POST', '/v1/relations', {
        from_entity_id: ids.api,
        to_entity_id: ids.cache,
        relation_type: 'connects_to',
      });

      // An http check (a pull check: it runs in a cell) probed once against the local server by its
      // cell's runner, then further slots that move its state. (A day's cell keeps no rollups: cells of
      // 5 minutes or more are read from their slots; cell_rollup is in test/checks/cell-sparkline.test.ts.)
      const http = await call('POST', '/v1/checks', {
        entity_id: ids.api,
        check_type: 'http',
        target_url: targetUrl,
        interval_seconds: 86_400,
      });
      const place = (await getCheckDefinition(api.table, api.tenantId, http.id))?.cell;
      if (!place) throw new Error('an enabled pull check runs in a cell');
      const cells = createCellRunner({
        table: api.table,
        prober: api.app.jobRunner.prober,
        tenants: api.app.tenants,
        clock: systemClock,
      });
      const now = Date.now();
      const probed = await cells.run({
        kind: 'cell',
        tenant_id: api.tenantId,
        cell_id: place.cell_id,
        shard: place.shard,
        slot_ms: now,
      });
      expect(probed.status).toBe('recorded');
      for (const [i, success] of [false, false, false, true].entries()) {
        await runCellSlot(api, { slotMs: now + (i + 1) * 400_000, answers: { [http.id]: success } });
      }
      await call('PUT', `/v1/checks/${http.id}`, { timeout_ms: 5000 });

      // A push check (the per-check layout) with results recorded across rollup buckets, pushed
      // results, a heartbeat, and a page cursor over its results.
      const push = await call('POST', '/v1/checks', {
        entity_id: ids.db,
        check_type: 'push',
        interval_seconds: 60,
      });
      for (const [i, success] of [false, false, false, true].entries()) {
        const outcome = await api.app.recorder.record({
          tenantId: api.tenantId,
          checkId: push.id,
          success,
          status_code: 0,
          latency_ms: 12,
          error_message: success ? '' : 'unavailable',
          checkedAtMs: now + (i + 1) * 400_000,
        });
        expect(outcome.status).toBe('recorded');
      }
      await call('POST', `/v1/checks/${push.id}/results`, { success: true, latency_ms: 3 });
      await call('POST', `/v1/checks/${push.id}/results`, {
        success: false,
        latency_ms: 4,
        error_message: 'down',
      });
      await call('POST', `/v1/checks/${push.id}/heartbeat`);
      const first = await call('GET', `/v1/checks/${push.id}/results?limit=1`);
      expect(first.next_cursor).toEqual(expect.any(String));
      await call(
        'GET',
        `/v1/checks/${push.id}/results?limit=1&cursor=${encodeURIComponent(first.next_cursor)}`,
      );

      // A deleted entity with a check: its purge job, then the purge rounds it starts.
      await call('POST', '/v1/checks', { entity_id: ids.cache, check_type: 'push', interval_seconds: 60 });
      await call('DELETE', '/v1/blueprints/service/entities/cache');
      const beforePurge = await allItems(api);
      await api.drainChanges();
      const items = [...beforePurge, ...(await allItems(api))];

      const unstamped = items.filter(
        (item) =>
          typeof item.entity !== 'string' ||
          !Number.isInteger(item.schema_version) ||
          (item.schema_version as number) < 1,
      );
      expect(unstamped.map((item) => `${item.pk} ${item.sk} ${String(item.entity)}`)).toEqual([]);
      const types = new Set(items.map((item) => item.entity));
      expect(
        [...WRITTEN, ...(runtime === 'lambda' ? ['rate_window'] : [])].filter((t) => !types.has(t)),
      ).toEqual([]);
    });
  },
);
