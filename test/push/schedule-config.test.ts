import type { CallToolResult } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { newEntity } from '../checks/check-fixtures.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';
import { enableToolsets } from '../support/toolsets.ts';

/**
 * A push check's schedule as the API takes it, in both runtimes: a 5-field cron read in an IANA
 * zone, the schedule's grace (default an hour, at least 60 s), interval_seconds derived from the
 * schedule (refused when sent with one: on create, on update and through MCP create_check), and
 * an update of the schedule or the grace re-arming the deadline.
 */
describe.each(runtimes)('push check schedules ($runtime runtime)', ({ start }) => {
  const clock = createFakeClock(Date.parse('2026-03-02T12:00:00.000Z'));
  let api: ApiHarness;
  let entityId: string;
  const call = (method: string, path: string, body?: unknown) =>
    api.request(method, path, { key: api.adminKey, body });
  const createPush = (body: Record<string, unknown>) =>
    call('POST', '/v1/checks', { entity_id: entityId, check_type: 'push', ...body });
  const nightly = { cron: '30 2 * * *', timezone: 'Europe/Berlin' };

  beforeAll(async () => {
    api = await start({ clock });
    entityId = await newEntity(api, { blueprint: 'job', name: 'Nightly' });
  });
  afterAll(async () => {
    await api.close();
  });

  it('takes a cron schedule in a timezone, derives interval_seconds from it and keeps max_duration_seconds', async () => {
    const res = await createPush({ config: { schedule: nightly, max_duration_seconds: 1800 } });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      interval_seconds: 86_400,
      config: { schedule: nightly, max_duration_seconds: 1800 },
      next_run_at: null,
    });
    const hourly = await createPush({ config: { schedule: { cron: '15 * * * *' } } });
    expect(hourly.status, hourly.text).toBe(201);
    expect(hourly.body).toMatchObject({
      interval_seconds: 3600,
      config: { schedule: { cron: '15 * * * *', timezone: 'UTC' } },
    });
  });

  it('refuses a cron that is not 5 fields or never matches, an unknown zone, and a grace under a minute', async () => {
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ schedule: { cron: '0 30 2 * * *', timezone: 'UTC' } }, 'config.schedule.cron', /5 fields/],
      [{ schedule: { cron: '0 0 30 2 *', timezone: 'UTC' } }, 'config.schedule.cron', /never matches/],
      [{ schedule: { cron: '61 * * * *', timezone: 'UTC' } }, 'config.schedule.cron', /^Enter a cron/],
      [
        { schedule: { cron: '0 3 * * *', timezone: 'Europe/Atlantis' } },
        'config.schedule.timezone',
        /Europe\/Berlin/,
      ],
      [{ schedule: nightly, grace_seconds: 30 }, 'config.grace_seconds', /^Enter 60 or more/],
    ];
    for (const [config, path, message] of cases) {
      const res = await createPush({ config });
      expect(res.status, JSON.stringify(config)).toBe(400);
      expect(res.body.details).toEqual([{ path, message: expect.stringMatching(message) }]);
    }
    // A schedule's grace counts from each expected time: shorter than the derived interval is fine.
    expect((await createPush({ config: { schedule: nightly, grace_seconds: 60 } })).status).toBe(201);
  });

  it('refuses interval_seconds sent with a schedule, on create and on update, and switches back to an interval', async () => {
    const both = await createPush({ interval_seconds: 3600, config: { schedule: nightly } });
    expect(both.status).toBe(400);
    expect(both.body.details).toEqual([
      { path: 'interval_seconds', message: expect.stringMatching(/^Leave interval_seconds out/) },
    ]);

    const id = (await createPush({ config: { schedule: nightly } })).body.id;
    const interval = await call('PUT', `/v1/checks/${id}`, { interval_seconds: 3600 });
    expect(interval.status).toBe(400);
    expect(interval.body.details[0].path).toBe('interval_seconds');
    // Sending the config without a schedule makes it an interval check again.
    const back = await call('PUT', `/v1/checks/${id}`, { interval_seconds: 3600, config: {} });
    expect(back.status, back.text).toBe(200);
    expect(back.body).toMatchObject({ interval_seconds: 3600, config: {} });
  });

  it('re-arms the deadline when an update changes the schedule or the grace', async () => {
    const id = (await createPush({ config: { schedule: nightly } })).body.id;
    expect((await call('POST', `/v1/checks/${id}/heartbeat`)).status).toBe(201);
    // 2 March 12:00 UTC: next 02:30 CET is 3 March 01:30 UTC, + 1 h.
    expect((await call('GET', `/v1/checks/${id}`)).body.next_run_at).toBe('2026-03-03T02:30:00.000Z');

    const later = await call('PUT', `/v1/checks/${id}`, {
      config: { schedule: { ...nightly, cron: '0 4 * * *' } },
    });
    expect(later.status, later.text).toBe(200);
    expect(later.body.next_run_at).toBe('2026-03-03T04:00:00.000Z');
    expect((await call('GET', `/v1/checks/${id}`)).body.next_run_at).toBe('2026-03-03T04:00:00.000Z');

    const graced = await call('PUT', `/v1/checks/${id}`, {
      config: { schedule: { ...nightly, cron: '0 4 * * *' }, grace_seconds: 600 },
    });
    expect(graced.body.next_run_at).toBe('2026-03-03T03:10:00.000Z');
    // A name change leaves the deadline alone.
    expect((await call('PUT', `/v1/checks/${id}`, { name: 'Nightly dump' })).body.next_run_at).toBe(
      '2026-03-03T03:10:00.000Z',
    );
  });

  it('MCP create_check takes a schedule and refuses one with interval_seconds, as the API does', async () => {
    await enableToolsets(api, api.adminKey);
    const admin = {
      tenantId: api.tenantId,
      userId: 'usr_agent',
      keyId: 'key_agent',
      role: 'admin' as const,
      readOnly: false,
    };
    const tool = (args: Record<string, unknown>) =>
      api.app.tools.call(admin, 'create_check', {
        entity_id: entityId,
        check_type: 'push',
        ...args,
      }) as Promise<CallToolResult | undefined>;
    const text = (r: CallToolResult | undefined) =>
      r?.content.map((block) => (block.type === 'text' ? block.text : '')).join('\n') ?? '';
    const created = await tool({ config: { schedule: nightly } });
    expect(created?.isError, text(created)).toBeFalsy();
    expect(created?.structuredContent).toMatchObject({
      check: { interval_seconds: 86_400, config: { schedule: nightly } },
    });
    const refused = await tool({ interval_seconds: 3600, config: { schedule: nightly } });
    expect(refused?.isError).toBe(true);
    expect(text(refused)).toContain('interval_seconds: Leave interval_seconds out');
  });
});
