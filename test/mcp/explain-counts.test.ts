import type { CallToolResult, Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';
import { enableToolsets } from '../support/toolsets.ts';
import { pushCheck } from './agent.ts';
import { connectSdkClient } from './sdk-client.ts';

/**
 * The counts in the explain tools' headlines agree with what the answers list, through the SDK
 * client on both runtimes: explain_alerting counts each channel once and says "sent" only of
 * decisions that send; explain_entity_state counts the entity's changes its data lists.
 */

// biome-ignore lint/suspicious/noExplicitAny: tool results are inspected freely
const data = (result: CallToolResult): any => result.structuredContent;
const headOf = (result: CallToolResult) =>
  (result.content[0]?.type === 'text' ? result.content[0].text : '').split('\n')[0] ?? '';
const linesOf = (result: CallToolResult) =>
  (result.content[0]?.type === 'text' ? result.content[0].text : '').split('\n');

describe.each(runtimes)('MCP explain counts ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  let client: Client;
  const ids: Record<string, string> = {};
  const checks: Record<string, string> = {};

  const post = async (path: string, body: unknown) => {
    const res = await api.request('POST', path, { key: api.adminKey, body });
    expect([200, 201], res.text).toContain(res.status);
    return res.body;
  };
  const call = async (name: string, args: Record<string, unknown>) => {
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    return result;
  };
  const record = async (check: string, success: boolean) => {
    const recorded = await api.app.recorder.record({
      tenantId: api.tenantId,
      checkId: checks[check] ?? '',
      status_code: success ? 200 : 503,
      latency_ms: 20,
      error_message: success ? '' : 'refused',
      checkedAtMs: Date.now(),
      success,
    });
    expect(recorded.status).toBe('recorded');
    await api.drainChanges();
  };

  beforeAll(async () => {
    api = await start({ env: { VIGIL_EGRESS_ALLOW: '127.0.0.0/8' } });
    client = await connectSdkClient(api, api.adminKey);
    await enableToolsets(api, api.adminKey);
    await post('/v1/blueprints', { slug: 'service', name: 'Service' });
    for (const slug of ['shop', 'mail']) {
      ids[slug] = (await post('/v1/blueprints/service/entities', { slug, name: slug })).id;
    }
    for (const [check, entity] of [
      ['home', 'shop'],
      ['cart', 'shop'],
      ['mail', 'mail'],
    ] as const) {
      checks[check] = await pushCheck(post, ids[entity], check);
      await record(check, true);
    }
    const pager = await post('/v1/notify/channels', {
      name: 'pager',
      channel_type: 'webhook',
      config: { url: 'http://127.0.0.1:9/pager' },
    });
    for (const check of ['home', 'cart']) {
      await post(`/v1/checks/${checks[check]}/policy/channels`, { channel_id: pager.id });
    }
    await post(`/v1/checks/${checks.mail}/policy/channels`, {
      channel_type: 'email',
      config: { to: ['new-user@example.com'] },
    });
  });
  afterAll(async () => {
    await client?.close();
    await api?.close();
  });

  it('explain_alerting counts a channel two checks of the entity reach once', async () => {
    const result = await call('explain_alerting', { entity_id: ids.shop, to_state: 'down' });
    const sends = data(result).decisions.filter((d: { outcome: string }) => d.outcome === 'send');
    expect(sends.map((d: { channel_name: string }) => d.channel_name)).toEqual(['pager', 'pager']);
    expect(headOf(result)).toContain('1 channel(s) would be alerted at once');
  });

  it('explain_alerting says "sent" only of a decision that sends', async () => {
    const result = await call('explain_alerting', { check_id: checks.mail, to_state: 'down' });
    expect(data(result).decisions).toEqual([
      expect.objectContaining({
        outcome: 'skip',
        path: 'own',
        reason: expect.stringContaining('no confirmed'),
      }),
    ]);
    expect(headOf(result)).toContain('0 channel(s) would be alerted at once');
    const decision = linesOf(result).find((line) => line.startsWith('- email'));
    expect(decision).toContain("skip — the check's own channel; no confirmed recipient");
    expect(decision).not.toContain('sent:');
  });

  it('explain_entity_state counts every change its data lists', async () => {
    await record('home', false);
    await record('home', true);
    const result = await call('explain_entity_state', { blueprint_slug: 'service', entity_slug: 'shop' });
    const listed = data(result).recent_transitions.map((t: { to_state: string }) => t.to_state);
    expect(listed).toEqual(['up', 'down', 'up']);
    expect(headOf(result)).toContain(`${listed.length} state changes in the last 24 h.`);
  });

  it('explain_entity_state counts changes past the ten it lists', async () => {
    for (let i = 0; i < 6; i += 1) {
      await record('mail', false);
      await record('mail', true);
    }
    const result = await call('explain_entity_state', { blueprint_slug: 'service', entity_slug: 'mail' });
    // unknown → up, then six downs and six recoveries.
    expect(data(result).transitions_total).toBe(13);
    expect(data(result).recent_transitions).toHaveLength(10);
    expect(headOf(result)).toContain('13 state changes in the last 24 h (the newest 10 listed).');
  });
});
