import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newCheck, quietTcpCheck } from '../checks/check-fixtures.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';
import { runCellSlot } from '../support/cell-fixtures.ts';
import { enableToolsets } from '../support/toolsets.ts';
import { connectSdkClient } from './sdk-client.ts';

/**
 * get_status_summary's paging, search_entities and get_action_run on both runtimes, through the
 * MCP SDK client with a read-only key: problems first across pages, prefix/state/blueprint
 * searches, an execution's pipeline status and log lines, and another tenant's objects unknown.
 */

// biome-ignore lint/suspicious/noExplicitAny: tool results are inspected freely
const data = (result: unknown): any => (result as CallToolResult).structuredContent;
const slugs = (result: unknown) => data(result).entities.map((e: { slug: string }) => e.slug);

describe.each(runtimes)('MCP agent tools ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  let server: Server;
  let viewerKey = '';
  let executionId = '';
  const post = async (path: string, body: unknown, key = api.adminKey) => {
    const res = await api.request('POST', path, { key, body });
    expect([200, 201], res.text).toContain(res.status);
    return res.body;
  };
  const call = async (name: string, args: Record<string, unknown>, key = viewerKey) => {
    const client = await connectSdkClient(api, key);
    try {
      return (await client.callTool({ name, arguments: args })) as CallToolResult;
    } finally {
      await client.close();
    }
  };

  beforeAll(async () => {
    server = createServer((_req, res) => res.writeHead(200).end('ok'));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    api = await start({ env: { VIGIL_EGRESS_ALLOW: '127.0.0.0/8', VIGIL_ALLOW_PRIVATE_TARGETS: 'true' } });
    viewerKey = (await post('/v1/auth/keys', { label: 'viewer', is_read_only: true })).key;
    await post('/v1/blueprints', { slug: 'service', name: 'Service' });
    await post('/v1/blueprints', { slug: 'queue', name: 'Queue' });
    const ids: Record<string, string> = {};
    for (const [bp, slug, name] of [
      ['service', 'payments-api', 'Payments API'],
      ['service', 'pay-gateway', 'Gateway'],
      ['service', 'search', 'Search'],
      ['queue', 'payouts', 'Payout queue'],
    ] as const) {
      ids[slug] = (await post(`/v1/blueprints/${bp}/entities`, { slug, name })).id;
    }
    // search goes down (a failing check); payments-api up; the others stay unknown.
    const down = await newCheck(api, quietTcpCheck(ids.search ?? '', { failure_threshold: 1 }));
    // The up check has another interval: a cell of its own (cells probe one target once).
    const up = await newCheck(
      api,
      quietTcpCheck(ids['payments-api'] ?? '', { failure_threshold: 1, interval_seconds: 43_200 }),
    );
    await runCellSlot(api, { slotMs: Date.now() - 60_000, answers: { [down]: false } });
    await runCellSlot(api, { slotMs: Date.now() - 60_000, answers: { [up]: true } });
    await enableToolsets(api, api.adminKey);
    const action = await post('/v1/actions', {
      name: 'Deploy',
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/deploy`,
    });
    executionId = (await post(`/v1/actions/${action.id}/run`, {})).id;
    await post(`/v1/actions/executions/${executionId}/events`, {
      status: 'running',
      logs: ['building', 'deploying'],
    });
  }, 120_000);
  afterAll(async () => {
    await api?.close();
    server?.closeAllConnections();
    server?.close();
  });

  it('pages the summary problems first with a cursor, for a read-only key', async () => {
    const first = await call('get_status_summary', { limit: 2 });
    expect(data(first)).toMatchObject({ total: 4, up: 1, down: 1, unknown: 2 });
    expect(data(first).entities.map((e: { state: string }) => e.state)).toEqual(['down', 'unknown']);
    const rest = await call('get_status_summary', { limit: 2, cursor: data(first).next_cursor });
    expect(data(rest).entities.map((e: { state: string }) => e.state)).toEqual(['unknown', 'up']);
    expect(data(rest).next_cursor).toBeNull();
    expect(new Set([...slugs(first), ...slugs(rest)]).size).toBe(4);
    const forged = await call('get_status_summary', { cursor: 'not-a-cursor' });
    expect(forged.isError).toBe(true);
  });

  it('searches by name or slug prefix, case-insensitively, with state and blueprint', async () => {
    await expect
      .poll(async () => slugs(await call('search_entities', { prefix: 'PAY' })))
      .toEqual(['payments-api', 'payouts', 'pay-gateway']);
    expect(slugs(await call('search_entities', { prefix: 'pay', blueprint_slug: 'service' }))).toEqual([
      'payments-api',
      'pay-gateway',
    ]);
    expect(slugs(await call('search_entities', { prefix: 'pay', state: 'up' }))).toEqual(['payments-api']);
    expect(slugs(await call('search_entities', { state: 'down' }))).toEqual(['search']);
    const paged = await call('search_entities', { prefix: 'pay', limit: 2 });
    expect(slugs(paged)).toEqual(['payments-api', 'payouts']);
    expect(slugs(await call('search_entities', { prefix: 'pay', cursor: data(paged).next_cursor }))).toEqual([
      'pay-gateway',
    ]);
  });

  it('answers an action run with its pipeline status and log lines', async () => {
    const run = await call('get_action_run', { execution_id: executionId });
    expect(run.isError).toBeFalsy();
    expect(data(run).execution).toMatchObject({ id: executionId, pipeline_status: 'running' });
    expect(data(run).execution).not.toHaveProperty('callback_token_hash');
    expect(data(run).logs.map((l: { line: string }) => l.line)).toEqual(['building', 'deploying']);
    expect(data(run).action).toEqual({ id: expect.any(String), name: 'Deploy', trigger_type: 'manual' });
    const after = await call('get_action_run', { execution_id: executionId, after_seq: 1 });
    expect(data(after).logs.map((l: { seq: number }) => l.seq)).toEqual([2]);
  });

  it('knows nothing of another tenant', async () => {
    const other = await api.createTenant('Other');
    await enableToolsets(api, other.key);
    const run = await call('get_action_run', { execution_id: executionId }, other.key);
    expect(run.isError).toBe(true);
    expect(JSON.stringify(run.content)).toContain('NOT_FOUND');
    expect(data(await call('search_entities', { prefix: 'pay' }, other.key)).entities).toEqual([]);
    expect(data(await call('get_status_summary', {}, other.key))).toMatchObject({ total: 0, entities: [] });
  });
});
