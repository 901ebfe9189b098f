import type { CallToolResult, Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';
import { enableToolsets } from '../support/toolsets.ts';
import { connectSdkClient } from './sdk-client.ts';

/**
 * Issue 75: every built-in tool that takes an entity takes it either way, its id or its blueprint
 * and slug (lib/mcp/tool-kit/entity-ref.ts), through the official SDK client on both runtimes:
 * tools/list shows both ways, each tool answers the same for both, and naming it badly (both ways,
 * half a way, none, an unknown or another tenant's entity) is a tool error in words.
 */

const text = (result: CallToolResult) => (result.content[0] as { text: string }).text;

/** Each tool that takes an entity, with the other arguments a call needs. */
const TOOLS: ReadonlyArray<[string, Record<string, unknown>]> = [
  ['get_entity', {}],
  ['get_blast_radius', {}],
  ['explain_entity_state', {}],
  ['show_blast_radius', {}],
  ['list_incidents', {}],
  ['get_uptime', {}],
  ['explain_alerting', { to_state: 'down' }],
  ['who_is_on_call', { at: '2026-01-01T00:00:00Z' }],
  ['create_check', { check_type: 'push', dry_run: true }],
];

describe.each(runtimes)(
  'MCP tools name an entity by id or by blueprint and slug ($runtime runtime)',
  ({ start }) => {
    let api: ApiHarness;
    let client: Client;
    let shopId = '';
    let foreignId = '';
    const post = async (path: string, body: unknown, key = api.adminKey) => {
      const res = await api.request('POST', path, { key, body });
      expect([200, 201], res.text).toContain(res.status);
      return res.body;
    };
    const call = async (name: string, args: Record<string, unknown>) =>
      (await client.callTool({ name, arguments: args })) as CallToolResult;

    beforeAll(async () => {
      api = await start();
      client = await connectSdkClient(api, api.adminKey);
      await enableToolsets(api, api.adminKey);
      await post('/v1/blueprints', { slug: 'service', name: 'Service' });
      shopId = (await post('/v1/blueprints/service/entities', { slug: 'shop', name: 'Shop' })).id;
      const other = await api.createTenant('Elsewhere');
      await post('/v1/blueprints', { slug: 'service', name: 'Service' }, other.key);
      foreignId = (await post('/v1/blueprints/service/entities', { slug: 'shop', name: 'Shop' }, other.key))
        .id;
    });
    afterAll(async () => {
      await client?.close();
      await api?.close();
    });

    it('shows both ways in each tool’s input schema, neither required', async () => {
      const listed = new Map((await client.listTools()).tools.map((t) => [t.name, t.inputSchema]));
      for (const [name] of TOOLS) {
        const schema = listed.get(name) as { properties: Record<string, unknown>; required?: string[] };
        expect(Object.keys(schema.properties), name).toEqual(
          expect.arrayContaining(['entity_id', 'blueprint_slug', 'entity_slug']),
        );
        expect(schema.required ?? [], name).not.toContain('entity_id');
        expect(schema.required ?? [], name).not.toContain('entity_slug');
      }
    });

    it('answers the same for the id and for the blueprint and slug', async () => {
      for (const [name, rest] of TOOLS) {
        const byId = await call(name, { ...rest, entity_id: shopId });
        const bySlugs = await call(name, { ...rest, blueprint_slug: 'service', entity_slug: 'shop' });
        expect(byId.isError, `${name}: ${text(byId)}`).toBeFalsy();
        expect(bySlugs.isError, `${name}: ${text(bySlugs)}`).toBeFalsy();
        // The text names the entity either way (a time or a probe may differ between two answers).
        expect(text(byId).split('\n')[0], name).toBe(text(bySlugs).split('\n')[0]);
        expect(text(bySlugs), name).toMatch(/Shop|shop/);
      }
    });

    it('takes a list’s entities by blueprint and slug too: a window’s entities, an impact’s entity', async () => {
      const window = await call('start_maintenance', {
        duration_minutes: 5,
        entities: [{ blueprint_slug: 'service', entity_slug: 'shop' }],
      });
      expect(window.isError, text(window)).toBeFalsy();
      expect((window.structuredContent as { window: { entity_ids: string[] } }).window.entity_ids).toEqual([
        shopId,
      ]);
      await post('/v1/status-pages', { slug: 'acme', title: 'Acme', entity_ids: [shopId] });
      const written = await call('create_page_incident', {
        page: 'acme',
        title: 'Slow checkout',
        body: 'Looking.',
        impact: [{ blueprint_slug: 'service', entity_slug: 'shop', level: 'degraded_performance' }],
      });
      expect(written.isError, text(written)).toBeFalsy();
      expect((written.structuredContent as { incident: { impact: unknown[] } }).incident.impact).toEqual([
        expect.objectContaining({ entity_id: shopId }),
      ]);
    });

    it('refuses both ways at once, half a way, an unknown entity and another tenant’s, in words', async () => {
      for (const [name, rest] of TOOLS) {
        const both = await call(name, {
          ...rest,
          entity_id: shopId,
          blueprint_slug: 'service',
          entity_slug: 'shop',
        });
        expect(text(both), name).toMatch(
          /^VALIDATION_ERROR: entity_id: Give entity_id, or blueprint_slug and entity_slug\. Not both\./,
        );
        const half = await call(name, { ...rest, blueprint_slug: 'service' });
        expect(text(half), name).toMatch(
          /^VALIDATION_ERROR: entity_slug: Give blueprint_slug and entity_slug together\./,
        );
        const unknown = await call(name, { ...rest, blueprint_slug: 'service', entity_slug: 'nowhere' });
        expect(text(unknown), name).toBe('NOT_FOUND: entity service/nowhere not found');
        const foreign = await call(name, { ...rest, entity_id: foreignId });
        expect(text(foreign), name).toBe(`NOT_FOUND: entity ${foreignId} not found`);
      }
      const unknownKey = await call('start_maintenance', {
        duration_minutes: 5,
        entities: [{ blueprint_slug: 'service', entity_slug: 'nowhere' }],
      });
      expect(text(unknownKey)).toBe(
        'VALIDATION_ERROR: unknown entities (entities.0: no entity service/nowhere)',
      );
      const none = await call('get_entity', {});
      expect(text(none)).toMatch(
        /^VALIDATION_ERROR: entity_id: Give entity_id, or blueprint_slug and entity_slug\./,
      );
    });
  },
);
