import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { getSchedule } from '../../lib/oncall/schedule-items.ts';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { join } from '../auth/team-helpers.ts';
import { dueJobRequeuer, settleNotify } from '../cloud/queue-kinds.ts';
import {
  addVerifiedMethod,
  personInboxes,
  sixDigits,
  twilioSmsChannel,
} from '../contacts/support/person-inboxes.ts';
import { type ApiHarness, adminCall, bothRuntimes, type LambdaHarness } from '../support/api-harness.ts';
import { providerEgress } from '../support/receivers/provider-host.ts';

/**
 * Handover summaries (issue 55 item 6, docs/on-call.md "Handover") on both runtimes, on a fake
 * clock through two handoffs of a daily rotation of two people: at each handoff the outgoing and
 * the incoming person get exactly one summary by their first verified contact method (Ana by
 * e-mail: SMTP locally, SES in the cloud; Ben by SMS through a Twilio account on 127.0.0.1), naming
 * the incidents open then and those opened in the outgoing shift with their state, of the entities
 * the schedule's team owns only. The chain waits on the notify queue in hops of 15 minutes; a
 * handover job delivered again tells nobody twice; a deleted schedule ends its chain.
 */

const T0 = Date.parse('2026-04-06T10:00:00.000Z');
const H1 = Date.parse('2026-04-07T09:00:00.000Z');
const H2 = Date.parse('2026-04-08T09:00:00.000Z');
const MINUTE = 60_000;
const ACCOUNT = `AC${'d4'.repeat(16)}`;
const AUTH = 'c9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4';

const inbox = personInboxes(ACCOUNT, AUTH);

describe.each(bothRuntimes)('handover summaries ($runtime runtime)', ({ runtime, start }) => {
  // Each runtime's own addresses: the receivers are shared by both.
  const ANA_MAIL = `ana-${runtime}@example.com`;
  const ANA_PHONE = runtime === 'local' ? '+14155550161' : '+14155550171';
  const BEN_PHONE = runtime === 'local' ? '+14155550162' : '+14155550172';
  let api: ApiHarness;
  let requeuer: ReturnType<typeof dueJobRequeuer> | undefined;
  const clock = createFakeClock(T0);
  const ben = { key: '', userId: '' };
  let scheduleId = '';
  const call = (method: string, path: string, body?: unknown) => adminCall(api, method, path, body);

  /** The texts each person received, oldest first: Ana's e-mails, Ben's SMS. */
  const mailTexts = (): string[] =>
    runtime === 'local'
      ? inbox.smtp.received.filter((m) => m.to.includes(ANA_MAIL)).map((m) => m.message.text ?? '')
      : inbox.ses
          .mails()
          .filter((m) => m.to.includes(ANA_MAIL))
          .map((m) => m.text);
  const smsTo = (to: string) => inbox.twilio.messages.filter((m) => m.To === to).map((m) => m.Body ?? '');
  const summaries = () => ({
    ana: mailTexts().filter((t) => t.includes('Shop rota')),
    anaBySms: smsTo(ANA_PHONE).filter((t) => t.includes('Shop rota')),
    ben: smsTo(BEN_PHONE).filter((t) => t.includes('Shop rota')),
  });

  /** Runs the change feed and the notify jobs due by the clock until nothing moves. */
  const settle = () => settleNotify(api, requeuer);
  /** Time passes in steps of 15 minutes (one queue delay: the chain's hops), up to `until`. */
  const advanceTo = async (until: number) => {
    while (clock.now() < until) {
      const step = Math.min(until - clock.now(), 15 * MINUTE);
      clock.advance(step);
      if (runtime === 'local') await vi.advanceTimersByTimeAsync(step);
      await settle();
    }
  };
  /** A push-checked entity of the team (or not), its check's id. */
  const entity = async (slug: string, name: string) => {
    const made = await call('POST', '/v1/blueprints/svc/entities', { slug, name });
    const check = await call('POST', '/v1/checks', {
      entity_id: made.id,
      check_type: 'push',
      interval_seconds: 3600,
      failure_threshold: 1,
    });
    return { entityId: String(made.id), checkId: String(check.id) };
  };
  const result = async (checkId: string, success: boolean) => {
    await call('POST', `/v1/checks/${checkId}/results`, { success, latency_ms: 5 });
    await settle();
  };

  beforeAll(async () => {
    if (runtime === 'local')
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'], shouldAdvanceTime: true });
    api = await start({
      clock,
      // One tick of the scheduled actions per step of the fake timers (15 minutes), not 900.
      actionScheduleTickMs: 15 * MINUTE,
      egress: providerEgress(new Map([['api.twilio.com', inbox.twilio.port]])),
      env: {
        VIGIL_EGRESS_ALLOW: '127.0.0.0/8',
        VIGIL_EMAIL_FROM: 'Vigil <pages@vigil.example.com>',
        ...(runtime === 'local' ? { VIGIL_SMTP_URL: inbox.smtp.url } : {}),
      },
    });
    if (api.runtime === 'lambda') requeuer = dueJobRequeuer(api as LambdaHarness, clock.now);
    await call('POST', '/v1/notify/channels', twilioSmsChannel(ACCOUNT, AUTH));
    const joined = await join(api, api.adminKey, { role: 'member' });
    Object.assign(ben, { key: joined.key, userId: joined.userId });
    // Ana (the admin key's person): e-mail first, then SMS; Ben: SMS only.
    await addVerifiedMethod(api, api.adminKey, { kind: 'email', address: ANA_MAIL }, () =>
      sixDigits(inbox.lastMail(runtime)),
    );
    clock.advance(1000);
    await addVerifiedMethod(api, api.adminKey, { kind: 'sms', address: ANA_PHONE }, () =>
      sixDigits(smsTo(ANA_PHONE).at(-1)),
    );
    await addVerifiedMethod(api, ben.key, { kind: 'sms', address: BEN_PHONE }, () =>
      sixDigits(smsTo(BEN_PHONE).at(-1)),
    );
  }, 60_000);
  afterAll(async () => {
    await api?.close();
    vi.useRealTimers();
  });

  it('tells the outgoing and the incoming person once at each of two handoffs, with the incidents of the team’s entities', async () => {
    const ana = (await call('GET', '/v1/me')).user.id;
    const schedule = await call('POST', '/v1/schedules', {
      name: 'Shop rota',
      time_zone: 'UTC',
      layers: [
        {
          name: 'Daily',
          members: [ana, ben.userId],
          rotation: { type: 'daily', handoff: '09:00', start: '2026-04-06' },
        },
      ],
    });
    scheduleId = String(schedule.id);
    await call('POST', '/v1/blueprints', { slug: 'svc', name: 'Service' });
    const shop = await entity('shop', 'Shop API');
    const stock = await entity('stock', 'Stock service');
    const other = await entity('other', 'Other team thing');
    const team = await call('POST', '/v1/teams', { name: 'Shop', schedule_id: scheduleId });
    await call('POST', `/v1/teams/${team.id}/entities`, { entity_id: shop.entityId });
    await call('POST', `/v1/teams/${team.id}/entities`, { entity_id: stock.entityId });
    await settle();

    // Ana's shift: Shop API and the other team's entity go down.
    await advanceTo(T0 + 2 * 60 * MINUTE);
    await result(shop.checkId, true);
    await result(shop.checkId, false);
    await result(other.checkId, true);
    await result(other.checkId, false);
    expect(summaries()).toEqual({ ana: [], anaBySms: [], ben: [] });

    await advanceTo(H1 + MINUTE);
    const first = summaries();
    expect(first.ana).toHaveLength(1);
    expect(first.ben).toHaveLength(1);
    expect(first.anaBySms).toEqual([]);
    expect(first.ana[0]).toContain('Your on-call shift of Shop rota ended at 2026-04-07 09:00 (UTC)');
    expect(first.ben[0]).toContain('You are on call for Shop rota from 2026-04-07 09:00 (UTC)');
    for (const text of [first.ana[0], first.ben[0]]) {
      expect(text).toContain('Open incidents now of the entities whose teams this schedule covers (1):');
      expect(text).toContain('- Shop API: open, not acknowledged');
      expect(text).toContain('Opened during the outgoing shift, since 2026-04-06 09:00 (1):');
      expect(text).not.toContain('Other team thing');
    }

    // Ben's shift: he acknowledges Shop API; the stock service goes down and recovers.
    await advanceTo(H1 + 60 * MINUTE);
    const [shopIncident] = (await call('GET', `/v1/incidents?entity_id=${shop.entityId}`)).incidents;
    const ack = await api.request('POST', `/v1/incidents/${shopIncident.id}/acknowledge`, { key: ben.key });
    expect(ack.status, ack.text).toBe(200);
    await result(stock.checkId, true);
    await result(stock.checkId, false);
    clock.advance(10 * MINUTE);
    await result(stock.checkId, true);

    await advanceTo(H2 + MINUTE);
    const second = summaries();
    expect(second.ana).toHaveLength(2);
    expect(second.ben).toHaveLength(2);
    expect(second.anaBySms).toEqual([]);
    expect(second.ben[1]).toContain('Your on-call shift of Shop rota ended at 2026-04-08 09:00 (UTC)');
    expect(second.ana[1]).toContain('You are on call for Shop rota from 2026-04-08 09:00 (UTC)');
    for (const text of [second.ana[1], second.ben[1]]) {
      expect(text).toMatch(
        /now of the entities whose teams this schedule covers \(1\):\s+- Shop API: acknowledged by /,
      );
      expect(text).toContain('Opened during the outgoing shift, since 2026-04-07 09:00 (1):');
      expect(text).toMatch(/- Stock service: opened at 2026-04-07 1\d:\d\d, resolved at /);
      expect(text).not.toContain('Other team thing');
    }
  });

  it('tells nobody twice when a handover job is delivered again, and ends the chain of a deleted schedule', async () => {
    const before = summaries();
    const schedule = await getSchedule(api.table, api.tenantId, scheduleId);
    // The first handoff's job, delivered again under another id (a redelivery or a second chain).
    const again = {
      kind: 'handover',
      tenant_id: api.tenantId,
      schedule_id: scheduleId,
      version: schedule?.version ?? 0,
    };
    const { failed } = await api.app.notifyQueue.enqueue([
      { id: 'hov-again-1', body: { ...again, due_ms: H1 } as never },
      { id: 'hov-again-2', body: { ...again, due_ms: H2 } as never },
    ]);
    expect(failed).toEqual([]);
    await settle();
    expect(summaries()).toEqual(before);

    await call('DELETE', `/v1/schedules/${scheduleId}`);
    await settle();
    await advanceTo(H2 + 24 * 60 * MINUTE + MINUTE);
    expect(summaries()).toEqual(before);
  });
});
