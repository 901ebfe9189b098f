import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { type ApiHarness, bothRuntimes } from '../support/api-harness.ts';
import { pingKit } from '../support/ping-compat-kit.ts';

/**
 * Runs (issue 78 point 1, DECISIONS.md "Cron runs (wave 6)"): pings form runs, kept as stored items
 * and listed by GET /v1/checks/{id}/runs, newest first, on both runtimes and a fake clock. A
 * /start opens a run (matched to its end by ?rid=, else the open run without one), a success,
 * /fail or exit status ends it; a success with no start is a run of unknown duration; /log gives
 * a running run its excerpt; a run never ended shows hung once its allowance has passed.
 */
describe.each(bothRuntimes)('runs ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  const clock = createFakeClock(Date.parse('2026-03-02T03:00:00.000Z'));
  const kit = pingKit(() => api);
  const RID_A = '6f1c2b3a-1111-4aaa-8bbb-000000000001';
  const RID_B = '6f1c2b3a-2222-4aaa-8bbb-000000000002';
  // biome-ignore lint/suspicious/noExplicitAny: runs are inspected freely
  const runs = async (checkId: string, query = '', key = api.adminKey): Promise<any> => {
    const res = await api.request('GET', `/v1/checks/${checkId}/runs${query}`, { key });
    expect(res.status, res.text).toBe(200);
    return res.body;
  };

  beforeAll(async () => {
    api = await start({ clock });
  });
  afterAll(async () => {
    await api.close();
  });

  it('a start and its success is one run with its duration; a success with no start is a run of unknown duration', async () => {
    const { checkId, token } = await kit.pushCheck();
    await api.request('GET', `/ping/${token}/start`);
    const started = clock.now();
    expect((await runs(checkId)).runs).toEqual([
      {
        id: expect.stringMatching(/^run_/),
        started_at: new Date(started).toISOString(),
        ended_at: null,
        duration_ms: null,
        outcome: 'running',
        flags: [],
      },
    ]);
    clock.advance(95_000);
    await api.request('POST', `/ping/${token}`, { rawBody: 'backup done: 42 files' });
    clock.advance(60_000);
    await api.request('GET', `/ping/${token}`);

    const body = await runs(checkId);
    expect(body.next_cursor).toBeNull();
    expect(body.runs).toEqual([
      {
        id: expect.stringMatching(/^run_/),
        started_at: null,
        ended_at: new Date(started + 155_000).toISOString(),
        duration_ms: null,
        outcome: 'success',
        flags: [],
      },
      {
        id: expect.stringMatching(/^run_/),
        started_at: new Date(started).toISOString(),
        ended_at: new Date(started + 95_000).toISOString(),
        duration_ms: 95_000,
        outcome: 'success',
        log_excerpt: 'backup done: 42 files',
        flags: [],
      },
    ]);
  });

  it('/fail and exit statuses end runs as fail and exit; /0 is a success with its status', async () => {
    const { checkId, token } = await kit.pushCheck();
    await api.request('GET', `/ping/${token}/start`);
    clock.advance(4_000);
    await api.request('POST', `/ping/${token}/fail`, { rawBody: 'boom' });
    await api.request('GET', `/ping/${token}/start`);
    clock.advance(7_000);
    await api.request('GET', `/ping/${token}/2`);
    clock.advance(1_000);
    await api.request('GET', `/ping/${token}/0`);

    const { runs: list } = await runs(checkId);
    expect(list.map((r: Record<string, unknown>) => [r.outcome, r.duration_ms, r.exit_status])).toEqual([
      ['success', null, 0],
      ['exit', 7_000, 2],
      ['fail', 4_000, undefined],
    ]);
    expect(list[2].log_excerpt).toBe('boom');
  });

  it('pairs overlapping runs by ?rid=, and /log gives a running run its excerpt', async () => {
    const { checkId, token } = await kit.pushCheck();
    await api.request('GET', `/ping/${token}/start?rid=${RID_A}`);
    clock.advance(1_000);
    await api.request('GET', `/ping/${token}/start?rid=${RID_B}`);
    clock.advance(1_000);
    await api.request('POST', `/ping/${token}/log?rid=${RID_A}`, { rawBody: 'halfway through A' });
    clock.advance(3_000);
    await api.request('GET', `/ping/${token}?rid=${RID_B}`);

    const { runs: list } = await runs(checkId);
    expect(
      list.map((r: Record<string, unknown>) => [r.rid, r.outcome, r.duration_ms, r.log_excerpt]),
    ).toEqual([
      [RID_B, 'success', 4_000, undefined],
      [RID_A, 'running', null, 'halfway through A'],
    ]);
    clock.advance(5_000);
    await api.request('GET', `/ping/${token}/1?rid=${RID_A}`);
    expect((await runs(checkId)).runs[1]).toMatchObject({
      rid: RID_A,
      outcome: 'exit',
      exit_status: 1,
      duration_ms: 10_000,
      log_excerpt: 'halfway through A',
    });
  });

  it('keeps the tail of a long output as the excerpt', async () => {
    const { checkId, token } = await kit.pushCheck();
    const output = `${'x'.repeat(5_000)}\nERROR: disk full at the end`;
    await api.request('POST', `/ping/${token}/fail`, { rawBody: output });
    const [run] = (await runs(checkId)).runs;
    expect(run.log_excerpt).toHaveLength(1_000);
    expect(output.endsWith(run.log_excerpt)).toBe(true);
  });

  it('redacts secret-looking lines of an excerpt for read-only keys, as ping bodies', async () => {
    const { checkId, token } = await kit.pushCheck();
    await api.request('POST', `/ping/${token}/fail`, { rawBody: 'connecting\nDB_PASSWORD=hunter2\nrefused' });
    const viewer = await kit.call('POST', '/v1/auth/keys', { label: 'runs viewer', is_read_only: true });
    expect(viewer.status, viewer.text).toBe(201);
    const [seen] = (await runs(checkId, '', viewer.body.key)).runs;
    expect(seen.log_excerpt).toBe('connecting\nDB_PASSWORD=********\nrefused');
    const [kept] = (await runs(checkId)).runs;
    expect(kept.log_excerpt).toBe('connecting\nDB_PASSWORD=hunter2\nrefused');
  });

  it('shows a run never ended as hung once the time a run may take has passed', async () => {
    // interval 3600 s, grace 7200 s: a started run may take 3600 s.
    const { checkId, token } = await kit.pushCheck();
    await api.request('GET', `/ping/${token}/start`);
    clock.advance(3_599_000);
    expect((await runs(checkId)).runs[0]).toMatchObject({ outcome: 'running', flags: [] });
    clock.advance(1_000);
    expect((await runs(checkId)).runs[0]).toMatchObject({ outcome: 'hung', ended_at: null, flags: ['hung'] });
  });

  it('forms the run of a start stored before runs were kept (an open run naming no run item)', async () => {
    const { checkId, token } = await kit.pushCheck();
    await api.request('GET', `/ping/${token}/start`);
    const [running] = (await runs(checkId)).runs;
    // The previous release's start: its open run (docs/data-model.md `ping_run`) without run_id, and no run item.
    await api.table.transact([
      { type: 'update', key: { pk: `CHECK#${checkId}`, sk: 'PINGRUN#-' }, remove: ['run_id'] },
      { type: 'delete', key: { pk: `CHECK#${checkId}`, sk: `RUN#${running.id}` } },
    ]);
    expect((await runs(checkId)).runs).toEqual([]);
    clock.advance(30_000);
    await api.request('GET', `/ping/${token}/0`);
    expect((await runs(checkId)).runs).toEqual([
      expect.objectContaining({
        started_at: running.started_at,
        duration_ms: 30_000,
        outcome: 'success',
        exit_status: 0,
      }),
    ]);
  });

  it('pages newest first with a cursor', async () => {
    const { checkId, token } = await kit.pushCheck();
    for (let i = 0; i < 3; i += 1) {
      await api.request('GET', `/ping/${token}/${i}`);
      clock.advance(1_000);
    }
    const first = await runs(checkId, '?limit=2');
    expect(first.runs.map((r: { exit_status: number }) => r.exit_status)).toEqual([2, 1]);
    const second = await runs(checkId, `?limit=2&cursor=${encodeURIComponent(first.next_cursor)}`);
    expect(second).toMatchObject({ runs: [{ exit_status: 0 }], next_cursor: null });
  });

  it('deletes the runs with their check', async () => {
    const { checkId, token } = await kit.pushCheck();
    await api.request('GET', `/ping/${token}/start`);
    await api.request('GET', `/ping/${token}`);
    await api.request('GET', `/ping/${token}`);
    // The timed run has its run item; the plain success is its result (a run of unknown duration).
    const stored = async (prefix: string) =>
      (await api.table.query({ pk: `CHECK#${checkId}`, sk: { op: 'beginsWith', prefix } })).items.length;
    expect((await runs(checkId)).runs).toHaveLength(2);
    expect([await stored('RUN#'), await stored('RES#')]).toEqual([1, 2]);
    expect((await kit.call('DELETE', `/v1/checks/${checkId}`)).status).toBe(204);
    await api.drainChanges();
    await expect
      .poll(async () => (await stored('RUN#')) + (await stored('RES#')), { timeout: 10_000, interval: 100 })
      .toBe(0);
  });

  it("answers 404 for another tenant's check and 409 for a pull check", async () => {
    const { checkId } = await kit.pushCheck();
    const other = await api.createTenant('Other runs');
    const foreign = await api.request('GET', `/v1/checks/${checkId}/runs`, { key: other.key });
    expect(foreign.status).toBe(404);
    const pull = await kit.call('POST', '/v1/checks', {
      entity_id: (await kit.call('GET', `/v1/checks/${checkId}`)).body.entity_id,
      check_type: 'http',
      target_url: 'http://127.0.0.1:9/',
      interval_seconds: 60,
      enabled: false,
    });
    expect(pull.status, pull.text).toBe(201);
    const refused = await api.request('GET', `/v1/checks/${pull.body.id}/runs`, { key: api.adminKey });
    expect(refused.status).toBe(409);
  });
});
