import type { CallToolResult, Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { newCheck, newEntity, quietTcpCheck } from '../checks/check-fixtures.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';
import { enableToolsets } from '../support/toolsets.ts';
import { connectSdkClient } from './sdk-client.ts';

/**
 * MCP shows a check probed from several locations per location (issue 40): get_check_results each
 * result's locations, the newest slot by location in words, and inconclusive slots counted apart;
 * get_entity each check's last slot by location; create_check takes locations and a quorum.
 */

// biome-ignore lint/suspicious/noExplicitAny: tool results are inspected freely
const data = (result: CallToolResult): any => result.structuredContent;
const text = (result: CallToolResult) => (result.content[0]?.type === 'text' ? result.content[0].text : '');

const NOW = Date.parse('2026-03-01T12:00:00.000Z');
const SLOT = 60_000;

describe.each(runtimes)('MCP and located checks ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  let client: Client;
  let entityId = '';
  let checkId = '';
  const clock = createFakeClock(NOW);
  const down = [
    { location: 'default', outcome: 'up', status_code: 200, latency_ms: 12, error_message: '' },
    {
      location: 'office',
      outcome: 'down',
      status_code: 0,
      latency_ms: 30,
      error_message: 'connection refused',
    },
    { location: 'eu-west-1', outcome: 'down', status_code: 503, latency_ms: 41, error_message: '' },
  ] as const;
  const undecided = [
    { location: 'default', outcome: 'up', status_code: 200, latency_ms: 900, error_message: '' },
    { location: 'office', outcome: 'unknown', status_code: null, latency_ms: null, error_message: '' },
    { location: 'eu-west-1', outcome: 'unknown', status_code: null, latency_ms: null, error_message: '' },
  ] as const;

  beforeAll(async () => {
    api = await start({ clock, scheduler: false });
    for (const name of ['office', 'eu-west-1']) {
      const res = await api.request('POST', '/v1/locations', {
        key: api.adminKey,
        body: { name, kind: 'agent' },
      });
      expect(res.status, res.text).toBe(201);
    }
    entityId = await newEntity(api, { name: 'Checkout' });
    checkId = await newCheck(
      api,
      quietTcpCheck(entityId, {
        name: 'Checkout port',
        failure_threshold: 1,
        locations: ['default', 'office', 'eu-west-1'],
      }),
    );
    const record = (slotMs: number, extra: Record<string, unknown>) =>
      api.app.recorder.record({
        tenantId: api.tenantId,
        checkId,
        status_code: 0,
        latency_ms: 30,
        checkedAtMs: slotMs,
        slotMs,
        success: false,
        error_message: '',
        ...extra,
      });
    expect((await record(NOW - 3 * SLOT, { locations: [...down] })).status).toBe('recorded');
    expect(
      (
        await record(NOW - 2 * SLOT, {
          locations: [...undecided],
          inconclusive: true,
          latency_ms: 900,
          error_message: 'inconclusive: 1 of 3 locations reported',
        })
      ).status,
    ).toBe('recorded');
    await enableToolsets(api, api.adminKey);
    client = await connectSdkClient(api, api.adminKey);
  }, 120_000);
  afterAll(async () => {
    await client?.close();
    await api?.close();
  });

  it('get_check_results shows each result by location and counts inconclusive slots apart', async () => {
    const res = (await client.callTool({
      name: 'get_check_results',
      arguments: { check_id: checkId },
    })) as CallToolResult;

    expect(res.isError).toBeFalsy();
    expect(data(res).results.map((r: { outcome: string }) => r.outcome)).toEqual(['inconclusive', 'down']);
    expect(data(res).results[0]).toMatchObject({ inconclusive: true, locations: undecided });
    expect(data(res).results[1].locations).toEqual(down);
    // The inconclusive slot's 900 ms is no latency of the check.
    expect(data(res).summary).toMatchObject({
      results: 2,
      up: 0,
      down: 1,
      inconclusive: 1,
      latency_p50_ms: 30,
      latency_p95_ms: 30,
    });
    expect(text(res)).toContain('0 up, 0 degraded, 1 down, 1 inconclusive');
    expect(text(res)).toContain(
      'by location: default up 900 ms, office unknown (no report), eu-west-1 unknown (no report).',
    );
  });

  it('get_entity shows each location of a located check in its last slot', async () => {
    const res = (await client.callTool({
      name: 'get_entity',
      arguments: { blueprint_slug: 'service', entity_slug: (await entitySlug()) ?? '' },
    })) as CallToolResult;

    expect(res.isError).toBeFalsy();
    expect(data(res).checks).toEqual([
      expect.objectContaining({ id: checkId, locations: ['default', 'office', 'eu-west-1'], quorum: 2 }),
    ]);
    expect(data(res).checks[0].last_locations).toEqual(down);
    expect(text(res)).toContain('1 down ("Checkout port" (default up, office down, eu-west-1 down))');
  });

  it('create_check takes locations and a quorum, and refuses a location the tenant lacks', async () => {
    const args = {
      entity_id: entityId,
      check_type: 'tcp',
      config: { host: '127.0.0.1', port: 9 },
      interval_seconds: 86_400,
    };
    const created = (await client.callTool({
      name: 'create_check',
      arguments: { ...args, locations: ['office', 'eu-west-1'], quorum: 1 },
    })) as CallToolResult;
    const refused = (await client.callTool({
      name: 'create_check',
      arguments: { ...args, locations: ['mars'] },
    })) as CallToolResult;

    expect(created.isError, text(created)).toBeFalsy();
    expect(data(created).check).toMatchObject({ locations: ['office', 'eu-west-1'], quorum: 1 });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toContain('mars');
  });

  const entitySlug = async () => {
    const res = await api.request('GET', `/v1/checks/${checkId}`, { key: api.adminKey });
    return res.body.entity_slug as string | undefined;
  };
});
