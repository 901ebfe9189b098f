import type { CallToolResult } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listEntityPointers, pointerNamedOps } from '../../lib/catalog/entities/entity-items.ts';
import { backfillSearchKeys } from '../../lib/catalog/entities/search-backfill.ts';
import { systemClock } from '../../lib/platform/clock.ts';
import { silentLogger } from '../../lib/platform/logger.ts';
import { ConditionFailedError } from '../../lib/store/table.ts';
import {
  forgetSearchKeysBackfill,
  loadPreviousLayout,
  type PreviousLayout,
  previousLayout,
} from '../fixtures/previous-layout/load.ts';
import { connectSdkClient } from '../mcp/sdk-client.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';
import { enableToolsets } from '../support/toolsets.ts';

/**
 * The id pointer of an entity stored by the previous layout (test/fixtures/previous-layout: no
 * name, no search index keys) is not found by a prefix search until the backfill names it; then
 * search_entities finds it by name and by slug, with its state. The backfill runs once (marker),
 * changes nothing on a second pass, and its writes hold only on what they read.
 */
describe.each(runtimes)('the entity search keys backfill ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  let dump: PreviousLayout;
  const backfill = () =>
    backfillSearchKeys({
      table: api.table,
      tenants: api.app.tenants,
      logger: silentLogger,
      clock: systemClock,
    });
  // biome-ignore lint/suspicious/noExplicitAny: tool results are inspected freely
  const search = async (prefix: string): Promise<any[]> => {
    const client = await connectSdkClient(api, dump.api_key);
    try {
      const result = (await client.callTool({
        name: 'search_entities',
        arguments: { prefix },
      })) as CallToolResult;
      expect(result.isError ?? false).toBe(false);
      // biome-ignore lint/suspicious/noExplicitAny: tool results are inspected freely
      return (result.structuredContent as any).entities;
    } finally {
      await client.close();
    }
  };

  beforeAll(async () => {
    api = await start({ scheduler: false });
    dump = previousLayout();
    // A local runtime backfilled its (empty) store at start: this store is one the layout left.
    await forgetSearchKeysBackfill(api.table);
    await loadPreviousLayout(api.table, dump);
    // The tools are the catalog-ops skill's: the tenant registers it.
    await enableToolsets(api, dump.api_key);
  });
  afterAll(async () => {
    await api?.close();
  });

  it('names the old pointer once, after which a prefix search finds it', async () => {
    const [old] = await listEntityPointers(api.table, dump.tenant_id);
    expect(old).toEqual({ id: dump.entity_id, blueprint_slug: 'service', slug: 'api' });
    expect(await search('ap')).toEqual([]);
    // Held on what it read: a name the entity does not have fails, and nothing is written.
    const named = (name: string) =>
      api.table.transact(pointerNamedOps(dump.tenant_id, old ?? (dump.entity_id as never), name));
    await expect(named('Not the API')).rejects.toBeInstanceOf(ConditionFailedError);

    expect(await backfill()).toBe(1);
    expect(await listEntityPointers(api.table, dump.tenant_id)).toEqual([{ ...old, name: 'API' }]);
    // The marker: a second run reads only it; without it, nothing is left to name.
    expect(await backfill()).toBe(0);
    await forgetSearchKeysBackfill(api.table);
    expect(await backfill()).toBe(0);
    // A named pointer is not named again (a rename since would have set it).
    await expect(named('API')).rejects.toBeInstanceOf(ConditionFailedError);

    const found = {
      id: dump.entity_id,
      blueprint_slug: 'service',
      slug: 'api',
      name: 'API',
      state: 'degraded',
    };
    await expect.poll(() => search('AP'), { timeout: 30_000 }).toEqual([found]);
    expect(await search('api')).toEqual([found]);
  });

  it('moves the pointer with a rename: found by the new name, no longer by the old', async () => {
    const path = '/v1/blueprints/service/entities/api';
    const renamed = await api.request('PUT', path, { key: dump.api_key, body: { name: 'Edge gateway' } });
    expect(renamed.status, renamed.text).toBe(200);
    await expect
      .poll(async () => (await search('edge')).map((e) => e.name), { timeout: 30_000 })
      .toEqual(['Edge gateway']);
    // Still found by its slug (its old name shared that prefix); the pointer holds the new name.
    expect((await search('api')).map((e) => e.name)).toEqual(['Edge gateway']);
    expect((await listEntityPointers(api.table, dump.tenant_id))[0]?.name).toBe('Edge gateway');
  });
});
