import {
  Client as ClientV2,
  StreamableHTTPClientTransport as TransportV2,
} from '@modelcontextprotocol/client';
import { beforeAll, describe, expect, it } from 'vitest';
import { MCP_RUNTIMES, mcpRuntimeOf, rest } from './mcp-runtimes.ts';

// A connection's URL narrows it to some skills (?skills=) and says whether built-in writes are
// confirmed on 2026-07-28 (?confirm=off opts out): lib/mcp/protocol/connection.ts, both runtimes.

const MODERN = '2026-07-28';
const CLIENT_INFO = { name: 'vigil-test', version: '1.0.0' };
/**
 * A create_check of the tenant's entity (made before the tests) whose probe is refused: a dry run
 * answers what the probe saw, a confirmed call creates the check.
 */
const CREATE = { blueprint_slug: 'service', entity_slug: 'shop', target_url: 'http://127.0.0.1:9/health' };

type Answer = { action: 'accept'; content: { confirm: boolean } } | { action: 'decline' };

describe.each(MCP_RUNTIMES)('MCP connection options (%s)', (_name, start) => {
  const runtime = mcpRuntimeOf(start);
  beforeAll(async () => {
    await rest(runtime.rt, '/v1/blueprints', { slug: 'service', name: 'Service' });
    await rest(runtime.rt, '/v1/blueprints/service/entities', { slug: 'shop', name: 'Shop' });
  });

  /** A v2 client on 2026-07-28 (or 2025-11-25: `legacy`), connected to `query`'s URL; `answer` is its user's reply to a confirmation. */
  async function connect(query: string, options: { legacy?: boolean; answer?: Answer } = {}) {
    const asked: string[] = [];
    const client = new ClientV2(CLIENT_INFO, {
      versionNegotiation: { mode: options.legacy ? 'legacy' : { pin: MODERN } },
      ...(options.answer ? { capabilities: { elicitation: { form: {} } } } : {}),
    });
    const answer = options.answer;
    if (answer)
      client.setRequestHandler('elicitation/create', async (request) => {
        asked.push(request.params.message);
        return answer;
      });
    runtime.keep(client);
    const headers = { authorization: `Bearer ${runtime.rt.key}` };
    await client.connect(new TransportV2(new URL(`${runtime.rt.url}${query}`), { requestInit: { headers } }));
    return { client, asked };
  }

  const textOf = (result: { content?: unknown }) =>
    ((result.content ?? []) as Array<{ type: string; text?: string }>).map((c) => c.text ?? '').join('\n');

  it('lists and calls only the named skills’ tools, and find_tools', async () => {
    const all = await connect('');
    const everything = (await all.client.listTools()).tools.map((t) => t.name);
    expect(everything).toContain('get_status_summary');

    const narrowed = await connect('?skills=incident-ops');
    expect((await narrowed.client.listTools()).tools.map((t) => t.name)).toEqual(['find_tools']);
    await expect(narrowed.client.callTool({ name: 'get_status_summary', arguments: {} })).rejects.toThrow(
      /unknown tool: get_status_summary/,
    );

    const catalog = await connect('?skills=catalog-ops,incident-ops');
    expect((await catalog.client.listTools()).tools.map((t) => t.name).sort()).toEqual(everything.sort());
  });

  it('lists and gets only the prompts whose tools a narrowed connection can call', async () => {
    const all = await connect('');
    const prompts = (await all.client.listPrompts()).prompts.map((p) => p.name);
    expect(prompts).toContain('why_was_i_paged');

    const narrowed = await connect('?skills=incident-ops');
    expect((await narrowed.client.listPrompts()).prompts).toEqual([]);
    await expect(narrowed.client.getPrompt({ name: 'why_was_i_paged', arguments: {} })).rejects.toThrow(
      /unknown prompt: why_was_i_paged/,
    );

    const same = await connect('?skills=catalog-ops');
    expect((await same.client.listPrompts()).prompts.map((p) => p.name)).toEqual(prompts);
  });

  it('refuses a skills list that is not slugs, in words', async () => {
    const res = await fetch(`${runtime.rt.url}?skills=${encodeURIComponent('catalog-ops;DROP')}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${runtime.rt.key}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('skill slugs');
  });

  it('asks the client to confirm a built-in write on 2026-07-28 and runs it only when accepted', async () => {
    const yes = await connect('', { answer: { action: 'accept', content: { confirm: true } } });
    const ran = await yes.client.callTool({ name: 'create_check', arguments: CREATE });
    expect(yes.asked).toHaveLength(1);
    expect(yes.asked[0]).toContain('create_check');
    expect(yes.asked[0]).toContain(CREATE.target_url);
    // Confirmed, the tool ran: it created the check.
    expect(textOf(ran)).toMatch(/^Created http check /);

    const no = await connect('', { answer: { action: 'decline' } });
    const refused = await no.client.callTool({ name: 'create_check', arguments: CREATE });
    expect(no.asked).toHaveLength(1);
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toBe('create_check was not confirmed: nothing was changed.');

    const unsure = await connect('', { answer: { action: 'accept', content: { confirm: false } } });
    expect((await unsure.client.callTool({ name: 'create_check', arguments: CREATE })).isError).toBe(true);
  });

  it('checks a write’s arguments before asking: arguments its schema refuses are answered, never confirmed', async () => {
    const user = await connect('', { answer: { action: 'accept', content: { confirm: true } } });
    const bad = await user.client.callTool({
      name: 'create_check',
      arguments: { ...CREATE, target_url: 42, interval_seconds: 'often' },
    });
    expect(user.asked).toEqual([]);
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(/^invalid arguments for create_check: /);
  });

  it('asks nothing for reads, dry runs, an opted-out connection or a 2025-11-25 one', async () => {
    const reads = await connect('', { answer: { action: 'decline' } });
    await reads.client.callTool({ name: 'get_status_summary', arguments: {} });
    const dry = await reads.client.callTool({
      name: 'create_check',
      arguments: { ...CREATE, dry_run: true },
    });
    expect(textOf(dry)).toMatch(/Dry run: no check was created/);
    expect(reads.asked).toEqual([]);

    const optedOut = await connect('?confirm=off', { answer: { action: 'decline' } });
    expect(textOf(await optedOut.client.callTool({ name: 'create_check', arguments: CREATE }))).toMatch(
      /^Created http check /,
    );
    expect(optedOut.asked).toEqual([]);

    const older = await connect('', { legacy: true, answer: { action: 'decline' } });
    expect(older.client.getNegotiatedProtocolVersion()).toBe('2025-11-25');
    expect(textOf(await older.client.callTool({ name: 'create_check', arguments: CREATE }))).toMatch(
      /^Created http check /,
    );
    expect(older.asked).toEqual([]);
  });

  it('names the missing capability when a 2026-07-28 client cannot be asked', async () => {
    const { client } = await connect('');
    await expect(client.callTool({ name: 'create_check', arguments: CREATE })).rejects.toThrow(
      /declare elicitation, or connect with \?confirm=off/,
    );
  });
});
