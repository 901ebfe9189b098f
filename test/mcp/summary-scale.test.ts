import type { CallToolResult } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EntityRecord, entityCreatedOps } from '../../lib/catalog/entities/entity-items.ts';
import {
  countersSeededOp,
  readStatusCounters,
  seededEntryOp,
} from '../../lib/catalog/entities/entity-state-index-items.ts';
import { newId } from '../../lib/platform/ids.ts';
import type { WriteOp } from '../../lib/store/table.ts';
import { type LocalHarness, startLocalHarness } from '../support/api-harness.ts';
import { enableToolsets } from '../support/toolsets.ts';
import { connectSdkClient } from './sdk-client.ts';

/**
 * get_status_summary and search_entities at 100,000 entities (SQLite): every answer, as the MCP
 * SDK client receives it over HTTP, stays under 50 KB, and the summary pages problems first.
 * Entities are seeded through the owner modules' write builders (entity create's items and the
 * status migration's index entries and counts), 33 entities per transaction, several at once.
 */

const ENTITIES = 100_000;
const stateOf = (i: number): EntityRecord['state'] => {
  const r = i % 100;
  return r === 0 ? 'down' : r < 4 ? 'degraded' : r < 6 ? 'unknown' : 'up';
};
// Long names (the byte bound, not the count, must end these pages).
const nameOf = (i: number) => `Entity ${i} ${'x'.repeat(150)}`;

// biome-ignore lint/suspicious/noExplicitAny: tool results are inspected freely
const data = (result: CallToolResult): any => result.structuredContent;

describe('MCP tools at 100,000 entities (local runtime, SQLite)', () => {
  let api: LocalHarness;
  const answerBytes: number[] = [];

  beforeAll(async () => {
    api = await startLocalHarness({ scheduler: false });
    const at = new Date().toISOString();
    const counts = { up: 0, degraded: 0, down: 0, unknown: 0, total: ENTITIES };
    const batches: WriteOp[][] = [];
    let ops: WriteOp[] = [];
    for (let i = 0; i < ENTITIES; i += 1) {
      const entity: EntityRecord = {
        id: newId('ent', Date.now()),
        blueprint_slug: `bp-${i % 10}`,
        slug: `e-${i}`,
        name: nameOf(i),
        fields: {},
        state: stateOf(i),
        created_at: at,
        updated_at: at,
        version: 1,
      };
      counts[entity.state] += 1;
      ops.push(...entityCreatedOps(api.tenantId, entity), seededEntryOp(api.tenantId, entity, entity.state));
      if (ops.length + 3 > 100) {
        batches.push(ops);
        ops = [];
      }
    }
    batches.push(ops);
    for (let i = 0; i < batches.length; i += 16) {
      await Promise.all(batches.slice(i, i + 16).map((batch) => api.table.transact(batch)));
    }
    // The counts as the status migration puts them, held on the counter item the start-up left.
    const before = await readStatusCounters(api.table, api.tenantId);
    await api.table.transact([countersSeededOp(api.tenantId, counts, before)]);
    await enableToolsets(api, api.adminKey);
  }, 600_000);
  afterAll(async () => {
    await api?.close();
  });

  it('answers the counts and pages problems first, each answer under 50 KB', async () => {
    const client = await connectSdkClient(api, api.adminKey);
    try {
      const seen = new Set<string>();
      const states: string[] = [];
      let cursor: string | undefined;
      // The 1,000 down entities and on into the degraded ones.
      while (!states.includes('degraded')) {
        const result = (await client.callTool({
          name: 'get_status_summary',
          arguments: { limit: 500, ...(cursor ? { cursor } : {}) },
        })) as CallToolResult;
        answerBytes.push(Buffer.byteLength(JSON.stringify(result)));
        expect(data(result)).toMatchObject({ total: 100_000, down: 1000, degraded: 3000, unknown: 2000 });
        for (const e of data(result).entities) {
          expect(seen.has(e.id)).toBe(false);
          seen.add(e.id);
          states.push(e.state);
        }
        cursor = data(result).next_cursor;
        expect(cursor).toEqual(expect.any(String));
      }
      // Problems first: every down entity before the first degraded one, none missing.
      expect(states.indexOf('degraded')).toBe(1000);
      expect(states.slice(0, 1000).every((s) => s === 'down')).toBe(true);
      expect(Math.max(...answerBytes)).toBeLessThan(50_000);
      // The bytes, not the limit of 500, ended each page.
      expect(answerBytes.length).toBeGreaterThan(2);
    } finally {
      await client.close();
    }
  }, 600_000);

  it('searches by name prefix without reading the fleet, under 50 KB', async () => {
    const client = await connectSdkClient(api, api.adminKey);
    try {
      const result = (await client.callTool({
        name: 'search_entities',
        arguments: { prefix: 'ENTITY 4242', limit: 200 },
      })) as CallToolResult;
      expect(Buffer.byteLength(JSON.stringify(result))).toBeLessThan(50_000);
      // Entity 4242 and 42420..42429 (by name), in name order.
      expect(data(result).entities.map((e: { slug: string }) => e.slug)).toEqual([
        'e-4242',
        ...Array.from({ length: 10 }, (_, i) => `e-4242${i}`),
      ]);
      const down = (await client.callTool({
        name: 'search_entities',
        arguments: { prefix: 'e-10', state: 'down', limit: 200 },
      })) as CallToolResult;
      expect(Buffer.byteLength(JSON.stringify(down))).toBeLessThan(50_000);
      expect(data(down).entities.every((e: { state: string }) => e.state === 'down')).toBe(true);
      expect(data(down).entities.length).toBeGreaterThan(0);
    } finally {
      await client.close();
    }
  }, 600_000);
});
