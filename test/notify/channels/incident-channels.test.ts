import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ChannelOf, ChannelSendDeps } from '../../../lib/notify/channels/definition.ts';
import { opsgenieChannel as opsgenie } from '../../../lib/notify/channels/opsgenie.ts';
import { pagerdutyChannel as pagerduty } from '../../../lib/notify/channels/pagerduty.ts';
import type { Digest } from '../../../lib/notify/items/ports.ts';
import { createFakeClock } from '../../../lib/platform/clock.ts';
import { mapResolver } from '../../support/egress-names.ts';
import { type OpsgenieReceiver, startOpsgenie } from '../../support/receivers/opsgenie.ts';
import { type PagerDutyReceiver, startPagerDuty } from '../../support/receivers/pagerduty.ts';
import { createTlsFixtures, type TlsFixtures } from '../../support/tls-fixtures.ts';
import { sampleAlert, sampleEvent } from './alert-fixture.ts';

/**
 * The PagerDuty and Opsgenie definitions against stand-ins that check the documented requests:
 * the incident as dedup_key / alias from the alert through repeats and escalation to the recovery,
 * the acknowledgement, the test, a digest, a refused key and a rate limit.
 */

const ROUTING_KEY = 'R0ut1ngKeyOfTheVigilServ1ce00042';
const OTHER_KEY = 'UnknownKeyUnknownKeyUnknownKey00';
const GENIE_KEY = '6f1c2a3b-1111-4222-8333-944455556666';
const INCIDENT = 'inc_01JTESTINCIDENT0000000000';

let tls: TlsFixtures;
let pd: PagerDutyReceiver;
let og: OpsgenieReceiver;

const hosts = mapResolver(
  new Map([
    ['events.pagerduty.com', '127.0.0.1'],
    ['events.eu.pagerduty.com', '127.0.0.1'],
    ['api.opsgenie.com', '127.0.0.1'],
    ['api.eu.opsgenie.com', '127.0.0.1'],
  ]),
);

function depsFor(receiver: { transport: ChannelSendDeps['http']['transport'] }): ChannelSendDeps {
  return {
    http: { egressAllow: ['127.0.0.0/8'], ca: [tls.caCert], resolve: hosts, transport: receiver.transport },
    publicUrl: 'https://vigil.example.com',
    email: {} as ChannelSendDeps['email'],
    nats: {} as ChannelSendDeps['nats'],
    natsPrefix: 'vigil',
    runtime: 'local',
    clock: createFakeClock(),
  };
}

function channelOf<C>(config: C): ChannelOf<C> {
  return { id: 'chn_01JTEST', tenant_id: 'tnt_01JTEST', check_id: 'chk_01JTEST', config };
}

const down = sampleAlert({ incidentId: INCIDENT });
const repeat = sampleAlert(
  { kind: 'repeat', incidentId: INCIDENT, downForSeconds: 600 },
  { transition_id: 'trn_01JTEST' },
);
const escalation = sampleAlert({ kind: 'escalation', incidentId: INCIDENT, unacknowledgedMinutes: 15 });
const recovery = sampleAlert(
  { incidentId: INCIDENT, lastError: null },
  { from_state: 'down', to_state: 'up', transition_id: 'trn_01JTESTRECOVERY' },
);
const ack = {
  deliveryId: 'dlv_01JACK',
  incidentId: INCIDENT,
  entity: { id: 'ent_01JTEST', name: 'Payments API' },
  by: 'ana@example.com',
  at: '2026-03-01T12:40:00.000Z',
};

function digestOf(count: number): Digest {
  const events = Array.from({ length: count }, (_, i) => ({
    event: sampleEvent({ entity_id: `ent_${i}`, entity_name: `Web node ${i}`, transition_id: `trn_${i}` }),
    kind: 'alert' as const,
  }));
  return {
    deliveryId: 'dlv_01JDIGEST',
    group: { by: 'blueprint', key: 'bp_web', name: 'Web nodes' },
    counts: { down: count, degraded: 0, up: 0 },
    events,
    part: 1,
    parts: 1,
  };
}

beforeAll(async () => {
  tls = createTlsFixtures();
  pd = await startPagerDuty(tls.valid, [ROUTING_KEY]);
  og = await startOpsgenie(tls.valid, [GENIE_KEY]);
});

afterAll(async () => {
  await pd?.close();
  await og?.close();
});

describe('PagerDuty (Events API v2)', () => {
  const config = { routing_key: ROUTING_KEY };
  beforeEach(() => {
    pd.events.length = 0;
    pd.hosts.length = 0;
    pd.alerts.clear();
  });

  it('triggers the incident on down, folds repeats and escalations into it, and resolves it on recovery', async () => {
    const deps = depsFor(pd);
    for (const alert of [down, repeat, escalation]) {
      expect(await pagerduty.send(deps, channelOf(config), alert)).toMatchObject({
        ok: true,
        status_code: 202,
      });
    }
    expect(pd.alerts.get(INCIDENT)).toEqual({ status: 'triggered', triggers: 3 });
    const first = pd.events[0];
    expect(first).toMatchObject({
      event_action: 'trigger',
      dedup_key: INCIDENT,
      client: 'Vigil',
      client_url: 'https://vigil.example.com',
      links: [{ href: 'https://vigil.example.com/entities/service/payments-api', text: 'Open in Vigil' }],
      payload: {
        summary: 'Payments API is down',
        source: 'GET https://payments.example.com/health',
        severity: 'critical',
        timestamp: '2026-03-01T12:34:56.789Z',
        component: 'Payments API',
        group: 'service',
        class: 'alert',
        custom_details: {
          check: 'Payments health',
          last_error: 'the endpoint answered 503',
          incident_id: INCIDENT,
        },
      },
    });
    expect(pd.events[2]?.payload.summary).toBe('Escalation: Payments API is down and unacknowledged');
    expect(await pagerduty.send(deps, channelOf(config), recovery)).toMatchObject({ ok: true });
    expect(pd.events.at(-1)).toEqual({
      routing_key: ROUTING_KEY,
      event_action: 'resolve',
      dedup_key: INCIDENT,
    });
    expect(pd.alerts.get(INCIDENT)?.status).toBe('resolved');
    expect(new Set(pd.hosts)).toEqual(new Set(['events.pagerduty.com']));
  });

  it('acknowledges the incident when it is acknowledged in Vigil', async () => {
    const deps = depsFor(pd);
    await pagerduty.send(deps, channelOf(config), down);
    const outcome = await pagerduty.acknowledge?.(deps, channelOf(config), ack);
    expect(outcome).toMatchObject({ ok: true, status_code: 202 });
    expect(pd.events.at(-1)).toEqual({
      routing_key: ROUTING_KEY,
      event_action: 'acknowledge',
      dedup_key: INCIDENT,
    });
    expect(pd.alerts.get(INCIDENT)?.status).toBe('acknowledged');
  });

  it("sends to the EU service region's host when the channel says eu", async () => {
    await pagerduty.send(depsFor(pd), channelOf({ ...config, region: 'eu' as const }), down);
    expect(pd.hosts).toEqual(['events.eu.pagerduty.com']);
  });

  it('sends a test as an info alert of its own key, resolved at once', async () => {
    const test = sampleAlert({ kind: 'test', incidentId: undefined });
    expect(await pagerduty.send(depsFor(pd), channelOf(config), test)).toMatchObject({ ok: true });
    expect(pd.events.map((e) => [e.event_action, e.dedup_key, e.payload?.severity])).toEqual([
      ['trigger', 'vigil-test-dlv_01JTESTDELIVERY', 'info'],
      ['resolve', 'vigil-test-dlv_01JTESTDELIVERY', undefined],
    ]);
    expect(pd.events[0]?.payload.summary).toBe('Test: Payments API is down');
  });

  it("sends a digest as one trigger keyed by the group, within PagerDuty's limits", async () => {
    expect(await pagerduty.sendDigest(depsFor(pd), channelOf(config), digestOf(1000))).toMatchObject({
      ok: true,
    });
    expect(pd.events).toHaveLength(1);
    const event = pd.events[0];
    expect(event).toMatchObject({
      event_action: 'trigger',
      dedup_key: 'vigil-digest-blueprint-bp_web',
      payload: { summary: 'Digest: Web nodes: 1000 down', severity: 'critical', class: 'digest' },
    });
    expect(event?.payload.custom_details.events).toContain('… and ');
  });

  it('says why a refused key failed, without the key', async () => {
    const outcome = await pagerduty.send(depsFor(pd), channelOf({ routing_key: OTHER_KEY }), down);
    expect(outcome.ok).toBe(false);
    expect(outcome.status_code).toBe(400);
    expect(outcome.error).toContain('Invalid routing key');
    expect(outcome.error).not.toContain(OTHER_KEY);
  });

  it('answers a rate limit as a failed attempt (the delivery retries it)', async () => {
    pd.rateLimit(1);
    const outcome = await pagerduty.send(depsFor(pd), channelOf(config), down);
    expect(outcome).toMatchObject({ ok: false, status_code: 429 });
    expect(outcome.error).toContain('arriving too quickly');
    expect(await pagerduty.send(depsFor(pd), channelOf(config), down)).toMatchObject({ ok: true });
  });

  it('takes a 32-character routing key, shows it redacted and guards the region host', () => {
    expect(pagerduty.input.safeParse({ routing_key: 'short' }).success).toBe(false);
    expect(pagerduty.input.safeParse({ routing_key: ROUTING_KEY, region: 'ap' }).success).toBe(false);
    const parsed = pagerduty.input.parse({ routing_key: ROUTING_KEY, region: 'eu' });
    const view = pagerduty.present(parsed, 'tnt_01JTEST', { readOnly: false, natsPrefix: 'vigil' });
    expect(view).toEqual({ config: { routing_key: '********', region: 'eu' } });
    expect(pagerduty.view.parse(view.config)).toEqual(view.config);
    expect(pagerduty.destinations(parsed)).toEqual([
      { path: 'config.region', url: 'https://events.eu.pagerduty.com/v2/enqueue' },
    ]);
  });
});

describe('Opsgenie (Alert API v2)', () => {
  const config = { api_key: GENIE_KEY };
  beforeEach(() => {
    og.calls.length = 0;
    og.hosts.length = 0;
    og.alerts.clear();
  });

  it('creates the incident alert by alias, de-duplicates repeats and escalations, and closes it on recovery', async () => {
    const deps = depsFor(og);
    for (const alert of [down, repeat, escalation]) {
      expect(await opsgenie.send(deps, channelOf(config), alert)).toMatchObject({
        ok: true,
        status_code: 202,
      });
    }
    expect(og.alerts.get(INCIDENT)).toEqual({
      status: 'open',
      acknowledged: false,
      count: 3,
      priority: 'P1',
    });
    expect(og.calls[0]).toMatchObject({
      action: 'create',
      alias: INCIDENT,
      body: {
        message: 'Payments API is down',
        priority: 'P1',
        source: 'Vigil',
        entity: 'Payments API',
        tags: ['vigil', 'down'],
        details: { Check: 'Payments health', Incident: INCIDENT },
      },
    });
    expect(og.calls[0]?.body.description).toContain('Last error: the endpoint answered 503');
    expect(await opsgenie.send(deps, channelOf(config), recovery)).toMatchObject({ ok: true });
    expect(og.calls.at(-1)).toMatchObject({ action: 'close', alias: INCIDENT, body: { source: 'Vigil' } });
    expect(og.alerts.get(INCIDENT)?.status).toBe('closed');
    expect(new Set(og.hosts)).toEqual(new Set(['api.opsgenie.com']));
  });

  it('acknowledges the alert by alias when the incident is acknowledged in Vigil', async () => {
    const deps = depsFor(og);
    await opsgenie.send(deps, channelOf(config), down);
    expect(await opsgenie.acknowledge?.(deps, channelOf(config), ack)).toMatchObject({ ok: true });
    expect(og.calls.at(-1)).toMatchObject({
      action: 'acknowledge',
      alias: INCIDENT,
      body: { user: 'ana@example.com', source: 'Vigil' },
    });
    expect(og.alerts.get(INCIDENT)?.acknowledged).toBe(true);
  });

  it("uses the EU instance and the channel's priorities", async () => {
    const eu = {
      ...config,
      region: 'eu' as const,
      priorities: { down: 'P2' as const, degraded: 'P4' as const },
    };
    await opsgenie.send(
      depsFor(og),
      channelOf(eu),
      sampleAlert({ incidentId: 'inc_x' }, { to_state: 'degraded' }),
    );
    expect(og.hosts).toEqual(['api.eu.opsgenie.com']);
    expect(og.calls[0]?.body.priority).toBe('P4');
  });

  it('sends a test as a P5 alert of its own alias, closed at once', async () => {
    expect(await opsgenie.send(depsFor(og), channelOf(config), sampleAlert({ kind: 'test' }))).toMatchObject({
      ok: true,
    });
    expect(og.calls.map((c) => [c.action, c.alias])).toEqual([
      ['create', 'vigil-test-dlv_01JTESTDELIVERY'],
      ['close', 'vigil-test-dlv_01JTESTDELIVERY'],
    ]);
    expect(og.calls[0]?.body.priority).toBe('P5');
  });

  it("sends a digest as one alert aliased by the group, within Opsgenie's limits", async () => {
    expect(await opsgenie.sendDigest(depsFor(og), channelOf(config), digestOf(1000))).toMatchObject({
      ok: true,
    });
    expect(og.calls).toHaveLength(1);
    expect(og.calls[0]).toMatchObject({
      action: 'create',
      alias: 'vigil-digest-blueprint-bp_web',
      body: { priority: 'P1' },
    });
    expect(og.calls[0]?.body.description.length).toBeLessThanOrEqual(15000);
  });

  it('clips a long entity name to the 130-character message', async () => {
    const long = sampleAlert({ incidentId: INCIDENT, entity: { ...down.entity, name: 'N'.repeat(190) } });
    expect(await opsgenie.send(depsFor(og), channelOf(config), long)).toMatchObject({ ok: true });
    expect(og.calls[0]?.body.message).toHaveLength(130);
  });

  it('says why a refused key failed, without the key', async () => {
    const other = 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee';
    const outcome = await opsgenie.send(depsFor(og), channelOf({ api_key: other }), down);
    expect(outcome).toMatchObject({ ok: false, status_code: 401 });
    expect(outcome.error).toContain('Could not authenticate');
    expect(outcome.error).not.toContain(other);
  });

  it('answers a rate limit as a failed attempt (the delivery retries it)', async () => {
    og.rateLimit(1);
    const outcome = await opsgenie.send(depsFor(og), channelOf(config), down);
    expect(outcome).toMatchObject({ ok: false, status_code: 429 });
    expect(outcome.error).toContain('too many requests');
  });

  it('takes an API key, shows it redacted with the default priorities', () => {
    expect(opsgenie.input.safeParse({ api_key: 'has space' }).success).toBe(false);
    expect(opsgenie.input.safeParse({ api_key: GENIE_KEY, priorities: { down: 'P9' } }).success).toBe(false);
    const parsed = opsgenie.input.parse({ api_key: GENIE_KEY });
    const view = opsgenie.present(parsed, 'tnt_01JTEST', { readOnly: false, natsPrefix: 'vigil' });
    expect(view).toEqual({
      config: { api_key: '********', region: 'us', priorities: { down: 'P1', degraded: 'P3' } },
    });
    expect(opsgenie.view.parse(view.config)).toEqual(view.config);
    expect(opsgenie.destinations(parsed)).toEqual([
      { path: 'config.region', url: 'https://api.opsgenie.com/v2/alerts' },
    ]);
  });
});
