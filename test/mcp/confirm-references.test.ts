import {
  type CallToolResult,
  Client as ClientV2,
  StreamableHTTPClientTransport as TransportV2,
} from '@modelcontextprotocol/client';
import { beforeAll, describe, expect, it } from 'vitest';
import { BUILTIN_TOOLSETS } from '../../lib/features/feature-routes.ts';
import { MCP_RUNTIMES, mcpRuntimeOf, rest } from './mcp-runtimes.ts';

// Issue 75: before the 2026-07-28 confirmation of a built-in write, every object the call names
// (entity either way, check, incident, status page, page incident) is looked up in the caller's
// tenant, so the user is never asked to confirm a call that would then fail with not-found
// (each write tool's `references` in its definition, lib/mcp/tool-catalog.ts `check`). Both runtimes; a 2025-11-25
// client, which is never asked, gets the same not-found answers.

const MODERN = '2026-07-28';
const CLIENT_INFO = { name: 'vigil-test', version: '1.0.0' };
const NO_ENTITY = 'ent_01JZZZZZZZZZZZZZZZZZZZZZZZ';
const TARGET = 'http://127.0.0.1:9/health';

/** Write calls, each naming one object the tenant lacks, and the start of the call's own answer. */
const MISSING: ReadonlyArray<[string, Record<string, unknown>, RegExp?]> = [
  ['create_check', { entity_id: NO_ENTITY, target_url: TARGET }],
  ['create_check', { blueprint_slug: 'service', entity_slug: 'nowhere', target_url: TARGET }],
  ['silence_check', { check_id: 'chk_01JZZZZZZZZZZZZZZZZZZZZZZZ' }],
  ['run_check', { check_id: 'chk_01JZZZZZZZZZZZZZZZZZZZZZZZ' }],
  ['resolve_incident', { incident_id: 'inc_01JZZZZZZZZZZZZZZZZZZZZZZZ' }],
  ['add_incident_note', { incident_id: 'inc_01JZZZZZZZZZZZZZZZZZZZZZZZ', text: 'looking' }],
  [
    'create_maintenance',
    {
      name: 'Deploy',
      entity_ids: [NO_ENTITY],
      starts_at: '2030-01-01T00:00:00Z',
      ends_at: '2030-01-01T01:00:00Z',
    },
    /^VALIDATION_ERROR: unknown entities \(entity_ids\.0: no entity /,
  ],
  [
    'start_maintenance',
    { entity_ids: [NO_ENTITY], duration_minutes: 30 },
    /^VALIDATION_ERROR: unknown entities \(entity_ids\.0: no entity /,
  ],
  [
    'start_maintenance',
    { entities: [{ blueprint_slug: 'service', entity_slug: 'nowhere' }], duration_minutes: 30 },
    /^VALIDATION_ERROR: unknown entities \(entities\.0: no entity service\/nowhere\)/,
  ],
  [
    'create_page_incident',
    {
      page: 'no-such-page',
      title: 'Slow checkout',
      body: 'Looking.',
    },
  ],
  [
    'update_page_incident',
    {
      page: 'no-such-page',
      incident_id: 'pin_01JZZZZZZZZZZZZZZZZZZZZZZZ',
      status: 'identified',
      body: 'Found.',
    },
  ],
];

const textOf = (result: { content?: unknown }) =>
  ((result.content ?? []) as Array<{ type: string; text?: string }>).map((c) => c.text ?? '').join('\n');

describe.each(MCP_RUNTIMES)('MCP check first: the objects a write names exist (%s)', (_name, start) => {
  const runtime = mcpRuntimeOf(start);
  let shop = '';
  let othersEntity = '';

  beforeAll(async () => {
    const { rt } = runtime;
    for (const toolset of BUILTIN_TOOLSETS) await rest(rt, `/v1/skills/builtin/${toolset.slug}`);
    await rest(rt, '/v1/blueprints', { slug: 'service', name: 'Service' });
    shop = (await rest(rt, '/v1/blueprints/service/entities', { slug: 'shop', name: 'Shop' })).id;
    const other = await rt.createTenant('Other');
    await rest(rt, '/v1/blueprints', { slug: 'service', name: 'Service' }, other.key);
    othersEntity = (
      await rest(rt, '/v1/blueprints/service/entities', { slug: 'theirs', name: 'Theirs' }, other.key)
    ).id;
  });

  /** A v2 client on 2026-07-28 (or 2025-11-25: `legacy`) whose user declines every confirmation; `asked` is what it was asked. */
  async function connect(options: { legacy?: boolean } = {}) {
    const asked: string[] = [];
    const client = new ClientV2(CLIENT_INFO, {
      versionNegotiation: { mode: options.legacy ? 'legacy' : { pin: MODERN } },
      capabilities: { elicitation: { form: {} } },
    });
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push(request.params.message);
      return { action: 'decline' };
    });
    runtime.keep(client);
    const headers = { authorization: `Bearer ${runtime.rt.key}` };
    await client.connect(new TransportV2(new URL(runtime.rt.url), { requestInit: { headers } }));
    const call = async (name: string, args: Record<string, unknown>) =>
      (await client.callTool({ name, arguments: args })) as CallToolResult;
    return { client, asked, call };
  }

  it('answers not found at once, never asking, for a write naming an object the tenant lacks (2026-07-28)', async () => {
    const user = await connect();
    for (const [name, args, answer = /^NOT_FOUND: /] of MISSING) {
      const result = await user.call(name, args);
      expect(user.asked, `${name} ${JSON.stringify(args)}`).toEqual([]);
      expect(result.isError, name).toBe(true);
      expect(textOf(result), name).toMatch(answer);
    }
    // Another tenant's entity is as unknown as a made-up one.
    const theirs = await user.call('create_check', { entity_id: othersEntity, target_url: TARGET });
    expect(user.asked).toEqual([]);
    expect(textOf(theirs)).toMatch(/^NOT_FOUND: entity/);
  });

  it('still asks for a write whose objects exist, named either way (2026-07-28)', async () => {
    const user = await connect();
    const byId = await user.call('create_check', { entity_id: shop, target_url: TARGET });
    const bySlugs = await user.call('create_check', {
      blueprint_slug: 'service',
      entity_slug: 'shop',
      target_url: TARGET,
    });
    expect(user.asked).toHaveLength(2);
    for (const declined of [byId, bySlugs])
      expect(textOf(declined)).toBe('create_check was not confirmed: nothing was changed.');
  });

  it('answers the same not-found errors on 2025-11-25, which is never asked', async () => {
    const user = await connect({ legacy: true });
    expect(user.client.getNegotiatedProtocolVersion()).toBe('2025-11-25');
    for (const [name, args, answer = /^NOT_FOUND: /] of MISSING) {
      const result = await user.call(name, args);
      expect(result.isError, name).toBe(true);
      expect(textOf(result), name).toMatch(answer);
    }
    expect(user.asked).toEqual([]);
  });
});
