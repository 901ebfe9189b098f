import type { CallToolResult, Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordPushStart } from '../../lib/checks/probing.ts';
import { createFakeClock, isoTime } from '../../lib/platform/clock.ts';
import { newPing, type PingRecord, pingRecordedOp } from '../../lib/push/log/ping-items.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';
import { enableToolsets } from '../support/toolsets.ts';
import { connectSdkClient } from './sdk-client.ts';

/**
 * list_heartbeats and get_ping_log through the official MCP SDK client on both runtimes: each push
 * check in its status word (failing, late, started, never pinged, up, paused) with its last ping and next
 * expected time, filtered and paged; a check's pings newest first, paged, bodies cut to their end
 * and redacted for read-only keys only.
 */

// biome-ignore lint/suspicious/noExplicitAny: tool results are inspected freely
const data = (result: CallToolResult): any => result.structuredContent;
const text = (result: CallToolResult) => (result.content[0] as { text: string }).text;
const summaryOf = (result: CallToolResult) => text(result).split('\n')[0] ?? '';

const NOW = Date.parse('2026-03-01T12:00:00.000Z');
const MIN = 60_000;

describe.each(runtimes)('MCP heartbeats ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  let admin: Client;
  let viewer: Client;
  const checks: Record<string, string> = {};
  let pullCheck = '';
  const clock = createFakeClock(NOW);

  const post = async (path: string, body: unknown) => {
    const res = await api.request('POST', path, { key: api.adminKey, body });
    expect([200, 201], res.text).toContain(res.status);
    return res.body;
  };
  const call = async (client: Client, name: string, args: Record<string, unknown> = {}) =>
    (await client.callTool({ name, arguments: args })) as CallToolResult;
  const report = async (check: string, success: boolean, atMs: number) => {
    const recorded = await api.app.recorder.record({
      tenantId: api.tenantId,
      checkId: checks[check] ?? '',
      success,
      status_code: success ? 200 : 503,
      latency_ms: 5,
      error_message: success ? '' : 'exit status 1',
      checkedAtMs: atMs,
    });
    expect(recorded.status).toBe('recorded');
  };
  const seed = async (check: string, pings: (Partial<PingRecord> & { atMs: number })[]) => {
    for (const { atMs, ...fields } of pings) {
      const ping = newPing(
        {
          check_id: checks[check] ?? '',
          kind: 'success',
          body: '',
          method: 'POST',
          source_ip: '127.0.0.1',
          user_agent: 'runitor/v1.3.0',
          ...fields,
        },
        atMs,
      );
      await api.table.transact([pingRecordedOp(ping, 30)]);
    }
  };

  beforeAll(async () => {
    api = await start({ clock });
    await post('/v1/blueprints', { slug: 'cron', name: 'Cron job' });
    const entity = await post('/v1/blueprints/cron/entities', { slug: 'backup', name: 'Backup host' });
    // Hourly jobs: expected an hour after the last success, failing after two hours of silence.
    for (const name of ['never', 'up', 'late', 'failing', 'started']) {
      checks[name] = (
        await post('/v1/checks', {
          entity_id: entity.id,
          check_type: 'push',
          interval_seconds: 3600,
          failure_threshold: 1,
          name: `Job ${name}`,
        })
      ).id;
    }
    checks.paused = (
      await post('/v1/checks', {
        entity_id: entity.id,
        check_type: 'push',
        interval_seconds: 3600,
        enabled: false,
        name: 'Job paused',
      })
    ).id;
    pullCheck = (
      await post('/v1/checks', {
        entity_id: entity.id,
        check_type: 'tcp',
        config: { host: '127.0.0.1', port: 9 },
        enabled: false,
        name: 'Port',
      })
    ).id;
    await report('up', true, NOW - 10 * MIN);
    await report('late', true, NOW - 90 * MIN);
    await report('failing', false, NOW - 5 * MIN);
    await report('started', true, NOW - 30 * MIN);
    const started = await recordPushStart(
      { table: api.table, checks: api.app.checks, dueShards: api.app.config.dueShards },
      { tenantId: api.tenantId, checkId: checks.started ?? '', startedAtMs: NOW - 2 * MIN },
    );
    expect(started.status).toBe('started');
    await seed('up', [
      { atMs: NOW - 11 * MIN, kind: 'start', rid: 'r1' },
      { atMs: NOW - 10 * MIN, kind: 'success', rid: 'r1', duration_ms: 60_000, body: 'backup done' },
      { atMs: NOW - 9 * MIN, kind: 'log', body: 'DB_PASSWORD=hunter2\nuploaded 3 files' },
    ]);
    await seed('failing', [{ atMs: NOW - 5 * MIN, kind: 'exit', exit_status: 1, body: 'x'.repeat(5000) }]);
    await api.drainChanges();
    await enableToolsets(api, api.adminKey);
    const viewerKey = (await post('/v1/auth/keys', { label: 'viewer', is_read_only: true })).key;
    admin = await connectSdkClient(api, api.adminKey);
    viewer = await connectSdkClient(api, viewerKey);
  });
  afterAll(async () => {
    await admin?.close();
    await viewer?.close();
    await api.close();
  });

  it('lists each push check with its status word, last ping and next expected time', async () => {
    const result = await call(viewer, 'list_heartbeats');

    expect(result.isError, text(result)).toBeFalsy();
    const byName = Object.fromEntries(
      // biome-ignore lint/suspicious/noExplicitAny: tool results are inspected freely
      data(result).heartbeats.map((h: any) => [h.name, h]),
    );
    expect(Object.keys(byName).sort()).toEqual(
      ['Job failing', 'Job late', 'Job never', 'Job paused', 'Job started', 'Job up'].sort(),
    );
    expect(byName['Job never']).toMatchObject({
      status: 'never_pinged',
      last_ping: null,
      next_expected_at: null,
      fails_at: null,
    });
    expect(byName['Job up']).toMatchObject({
      status: 'up',
      state: 'up',
      interval_seconds: 3600,
      grace_seconds: 7200,
      last_ping: { at: isoTime(NOW - 9 * MIN), kind: 'log' },
      last_report_at: isoTime(NOW - 10 * MIN),
      next_expected_at: isoTime(NOW + 50 * MIN),
      fails_at: isoTime(NOW + 110 * MIN),
    });
    expect(byName['Job late']).toMatchObject({
      status: 'late',
      next_expected_at: isoTime(NOW - 30 * MIN),
      fails_at: isoTime(NOW + 30 * MIN),
    });
    expect(byName['Job failing']).toMatchObject({ status: 'failing', state: 'down' });
    expect(byName['Job paused']).toMatchObject({ status: 'paused', enabled: false });
    expect(byName['Job started']).toMatchObject({
      status: 'started',
      run_started_at: isoTime(NOW - 2 * MIN),
    });
    expect(summaryOf(result)).toContain('Failing: "Job failing" of Backup host (cron/backup).');
    expect(summaryOf(result)).toContain('Late: "Job late" of Backup host (cron/backup).');
    expect(data(result).next_cursor).toBeNull();
  });

  it('filters by status and pages with next_cursor, every heartbeat once', async () => {
    const late = await call(admin, 'list_heartbeats', { status: 'late' });
    // biome-ignore lint/suspicious/noExplicitAny: tool results are inspected freely
    expect(data(late).heartbeats.map((h: any) => h.name)).toEqual(['Job late']);

    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: CallToolResult = await call(admin, 'list_heartbeats', {
        limit: 2,
        ...(cursor ? { cursor } : {}),
      });
      expect(page.isError, text(page)).toBeFalsy();
      expect(data(page).heartbeats.length).toBeLessThanOrEqual(2);
      // biome-ignore lint/suspicious/noExplicitAny: tool results are inspected freely
      seen.push(...data(page).heartbeats.map((h: any) => h.name));
      cursor = data(page).next_cursor;
      pages += 1;
    } while (cursor && pages < 10);
    expect(seen.sort()).toEqual([
      'Job failing',
      'Job late',
      'Job never',
      'Job paused',
      'Job started',
      'Job up',
    ]);

    const wrong = await call(admin, 'list_heartbeats', { cursor: 'bm90IGEgY3Vyc29y' });
    expect(wrong.isError).toBe(true);
  });

  it("reads a check's pings newest first, paged, redacted for read-only keys only", async () => {
    const full = await call(admin, 'get_ping_log', { check_id: checks.up });
    expect(full.isError, text(full)).toBeFalsy();
    expect(summaryOf(full)).toContain('Pings of "Job up" of Backup host (cron/backup): 3, newest first.');
    // biome-ignore lint/suspicious/noExplicitAny: tool results are inspected freely
    expect(data(full).pings.map((p: any) => p.kind)).toEqual(['log', 'success', 'start']);
    expect(data(full).pings[0].body).toBe('DB_PASSWORD=hunter2\nuploaded 3 files');
    expect(data(full).pings[1]).toMatchObject({ rid: 'r1', duration_ms: 60_000, body: 'backup done' });

    const redacted = await call(viewer, 'get_ping_log', { check_id: checks.up });
    expect(data(redacted).pings[0].body).toBe('DB_PASSWORD=********\nuploaded 3 files');
    expect(text(redacted)).not.toContain('hunter2');

    const first = await call(admin, 'get_ping_log', { check_id: checks.up, limit: 2 });
    expect(data(first).pings).toHaveLength(2);
    const rest = await call(admin, 'get_ping_log', {
      check_id: checks.up,
      limit: 2,
      cursor: data(first).next_cursor,
    });
    // biome-ignore lint/suspicious/noExplicitAny: tool results are inspected freely
    expect(data(rest).pings.map((p: any) => p.kind)).toEqual(['start']);
    expect(data(rest).next_cursor).toBeNull();
  });

  it('keeps the end of a long body, and refuses pull checks and other tenants', async () => {
    const failing = await call(admin, 'get_ping_log', { check_id: checks.failing });
    expect(data(failing).pings[0]).toMatchObject({ kind: 'exit', exit_status: 1, body_truncated: true });
    expect(data(failing).pings[0].body).toHaveLength(2000);
    expect(summaryOf(failing)).toContain('Newest: exit 1');

    const pull = await call(admin, 'get_ping_log', { check_id: pullCheck });
    expect(pull.isError).toBe(true);
    expect(text(pull)).toContain('CONFLICT');

    const other = await api.createTenant('Elsewhere');
    await enableToolsets(api, other.key);
    const intruder = await connectSdkClient(api, other.key);
    try {
      const foreign = await call(intruder, 'get_ping_log', { check_id: checks.up });
      expect(foreign.isError).toBe(true);
      expect(text(foreign)).toContain('NOT_FOUND');
      expect(text(foreign)).not.toContain('backup done');
      const theirs = await call(intruder, 'list_heartbeats');
      expect(data(theirs).heartbeats).toEqual([]);
    } finally {
      await intruder.close();
    }
  });
});
