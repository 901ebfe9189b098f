import type { CallToolResult, Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { connectSdkClient } from '../mcp/sdk-client.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';
import { pingKit } from '../support/ping-compat-kit.ts';
import { enableToolsets } from '../support/toolsets.ts';

/**
 * get_check_runs (issue 78) through the official MCP SDK client on both runtimes: a push check's
 * runs newest first, paged, with their flags and the learned normal, a log excerpt redacted for
 * read-only keys only; a pull check is a conflict and another tenant's check is not found.
 */

// biome-ignore lint/suspicious/noExplicitAny: tool results are inspected freely
const data = (result: CallToolResult): any => result.structuredContent;
const text = (result: CallToolResult) => (result.content[0] as { text: string }).text;
const summaryOf = (result: CallToolResult) => text(result).split('\n')[0] ?? '';

describe.each(runtimes)('MCP get_check_runs ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  let admin: Client;
  let viewer: Client;
  const clock = createFakeClock(Date.parse('2026-03-01T02:00:00.000Z'));
  const kit = pingKit(() => api);
  let checkId = '';
  const call = async (client: Client, name: string, args: Record<string, unknown> = {}) =>
    (await client.callTool({ name, arguments: args })) as CallToolResult;

  beforeAll(async () => {
    api = await start({ clock });
    const check = await kit.pushCheck({ name: 'Nightly backup', config: { min_duration_seconds: 600 } });
    checkId = check.checkId;
    const ping = (suffix = '', body?: string) =>
      api.request(body === undefined ? 'GET' : 'POST', `/ping/${check.token}${suffix}`, {
        ...(body === undefined ? {} : { rawBody: body }),
      });
    await ping('/start');
    clock.advance(900_000);
    await ping('', 'DB_PASSWORD=hunter2\nbackup done');
    clock.advance(3_600_000);
    await ping('/start');
    clock.advance(4_000);
    await ping();
    await enableToolsets(api, api.adminKey);
    const viewerKey = (await kit.call('POST', '/v1/auth/keys', { label: 'viewer', is_read_only: true })).body
      .key;
    admin = await connectSdkClient(api, api.adminKey);
    viewer = await connectSdkClient(api, viewerKey);
  });
  afterAll(async () => {
    await admin?.close();
    await viewer?.close();
    await api.close();
  });

  it("reads a check's runs newest first with their flags and normal, and says so in words", async () => {
    const result = await call(admin, 'get_check_runs', { check_id: checkId });
    expect(result.isError, text(result)).toBeFalsy();
    expect(
      // biome-ignore lint/suspicious/noExplicitAny: tool results are inspected freely
      data(result).runs.map((r: any) => [r.outcome, r.duration_ms, r.flags]),
    ).toEqual([
      ['success', 4_000, ['too_short']],
      ['success', 900_000, []],
    ]);
    expect(data(result).runs[1].log_excerpt).toBe('DB_PASSWORD=hunter2\nbackup done');
    expect(data(result).normal).toMatchObject({ runs_seen: 2, active: false });
    expect(summaryOf(result)).toBe(
      'Runs of "Nightly backup" of Nightly (cron/nightly): 2, newest first. Newest: success in 4 s, started 2026-03-01T03:15:00.000Z (too_short). 1 flagged on this page. Normal: 49 s–14 min 15 s over 2 runs (learning: not flagging yet).',
    );

    const first = await call(viewer, 'get_check_runs', { check_id: checkId, limit: 1 });
    expect(data(first).runs).toHaveLength(1);
    expect(data(first).next_cursor).toEqual(expect.any(String));
    const second = await call(viewer, 'get_check_runs', {
      check_id: checkId,
      cursor: data(first).next_cursor,
    });
    expect(second.isError, text(second)).toBeFalsy();
    expect(data(second).runs[0].log_excerpt).toBe('DB_PASSWORD=********\nbackup done');
    expect(text(second)).not.toContain('hunter2');
  });

  it('refuses a pull check and another tenant’s check', async () => {
    const entityId = (await kit.call('GET', `/v1/checks/${checkId}`)).body.entity_id;
    const pull = await kit.call('POST', '/v1/checks', {
      entity_id: entityId,
      check_type: 'tcp',
      config: { host: '127.0.0.1', port: 9 },
      enabled: false,
    });
    const conflict = await call(admin, 'get_check_runs', { check_id: pull.body.id });
    expect(conflict.isError).toBe(true);
    expect(text(conflict)).toContain('CONFLICT');

    const other = await api.createTenant('Elsewhere');
    await enableToolsets(api, other.key);
    const intruder = await connectSdkClient(api, other.key);
    try {
      const foreign = await call(intruder, 'get_check_runs', { check_id: checkId });
      expect(foreign.isError).toBe(true);
      expect(text(foreign)).toContain('NOT_FOUND');
      expect(text(foreign)).not.toContain('backup done');
    } finally {
      await intruder.close();
    }
  });
});
