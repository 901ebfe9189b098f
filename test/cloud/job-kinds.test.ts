import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actionJobSchema } from '../../lib/actions/jobs.ts';
import type { ProbeJob } from '../../lib/checks/probe-job.ts';
import { workerJobSchema } from '../../lib/cloud/workers/worker.ts';
import { notifyQueueJobSchema as notifyJobSchema } from '../../lib/features/list.ts';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { purgeJobSchema } from '../../lib/purge/purge-job-items.ts';
import { join } from '../auth/team-helpers.ts';
import { type Receiver, startReceiver } from '../notify/channels/receiver.ts';
import { adminCall, type LambdaHarness, startLambdaHarness } from '../support/api-harness.ts';
import { entityWithPushCheck } from '../support/push-fixtures.ts';
import { type PagerDutyReceiver, pagerDutyEgress, startPagerDuty } from '../support/receivers/pagerduty.ts';
import { startStatusServer } from '../support/status-server.ts';
import { createTlsFixtures } from '../support/tls-fixtures.ts';
import { workerMessageBody } from './cell-support.ts';
import { dueJobRequeuer, handledKinds, kindOfMessage, kindsOf } from './queue-kinds.ts';

/**
 * Every job kind of every queue runs through the queue engine (fauxqs) and its Lambda consumer on
 * the Lambda harness, produced the way the product produces it: API calls and pushed results, the
 * stream function, the notifier, the action worker and the probe worker, on the app's fake clock.
 * A delayed job waits in real time on fauxqs, so once the clock has passed its due time the test
 * sends it again with no delay (what the queue does when the delay ends). Purge jobs are items the
 * stream function's purge consumer works off, not messages: they run through DynamoDB Local's stream.
 *
 * Each scenario asserts its effect (what a receiver got, an execution, a result, items gone). The
 * last tests read the kinds from the schemas (notifyJobSchema, actionJobSchema, workerJobSchema,
 * purgeJobSchema) and expect each to have been handled without failure by its consumer: a kind
 * added to a schema fails here until a scenario runs it.
 */

const T0 = Date.parse('2026-04-06T09:00:00.000Z');
const MINUTE = 60_000;
const ROUTING_KEY = 'R0ut1ngKeyOfTheVigilServ1ce00053';
const clock = createFakeClock(T0);

let h: LambdaHarness;
let receiver: Receiver;
let pd: PagerDutyReceiver;
let target: Awaited<ReturnType<typeof startStatusServer>>;
let requeuer: ReturnType<typeof dueJobRequeuer>;
/** The purge job kinds seen in the purge partition while the stream function worked it off. */
const purgedKinds = new Set<string>();

beforeAll(async () => {
  const tls = createTlsFixtures();
  receiver = await startReceiver(tls.valid, 'unused');
  pd = await startPagerDuty(tls.valid, [ROUTING_KEY]);
  target = await startStatusServer(200);
  h = await startLambdaHarness({
    clock,
    env: {
      VIGIL_EGRESS_ALLOW: '127.0.0.0/8',
      VIGIL_ALLOW_PRIVATE_TARGETS: 'true',
      // A new pull check's first probe goes to the probe queue at once (a cell or a located job).
      VIGIL_FIRST_PROBE: 'true',
    },
    egress: pagerDutyEgress(pd, tls.caCert),
  });
  requeuer = dueJobRequeuer(h, clock.now);
  await call('POST', '/v1/blueprints', { slug: 'svc', name: 'Service' });
}, 60_000);

afterAll(async () => {
  await h?.close();
  await receiver?.close();
  await pd?.close();
  await target?.close();
});

const call = (method: string, path: string, body?: unknown) => adminCall(h, method, path, body);

/**
 * Runs everything until nothing moves: the stream function, the notifier and the action worker
 * (drainChanges), the probe worker, and the delayed jobs whose due time the clock has passed.
 */
async function settle() {
  const sent = () => [h.notifySqs, h.actionSqs, h.probeSqs].reduce((n, q) => n + q.sentBodies().length, 0);
  for (let round = 0; round < 30; round += 1) {
    const before = sent();
    await h.drainChanges();
    await h.runProbeJobs();
    const requeued = await requeuer.requeueDue();
    if (requeued === 0 && sent() === before) return;
  }
  throw new Error('the queues did not settle after 30 rounds');
}

async function pushResult(checkId: string, success: boolean) {
  clock.advance(1000);
  await call('POST', `/v1/checks/${checkId}/results`, { success, latency_ms: 5 });
  await settle();
}

/** An entity of `svc` with a push check that goes down at its first failure. */
const pushChecked = (slug: string, blueprint = 'svc') =>
  entityWithPushCheck(call, { slug, name: `${slug} service` }, { blueprint, intervalSeconds: 3600 });

async function webhookPolicy(checkId: string, path: string, policy: Record<string, unknown>) {
  await call('POST', `/v1/checks/${checkId}/policy`, policy);
  await call('POST', `/v1/checks/${checkId}/policy/channels`, {
    channel_type: 'webhook',
    config: { url: `${receiver.origin}${path}` },
  });
}

// biome-ignore lint/suspicious/noExplicitAny: webhook bodies are inspected freely
const bodiesAt = (path: string): any[] =>
  receiver.received.filter((r) => r.path === path).map((r) => JSON.parse(r.body.toString('utf8')));
const hits = (path: string) => receiver.received.filter((r) => r.path === path);
const deliveryLog = async (checkId: string) =>
  ((await call('GET', `/v1/notify/logs?check_id=${checkId}`)).logs as Record<string, unknown>[]).map(
    (d) => `${d.kind}:${d.status}`,
  );
const resultsOf = async (checkId: string) =>
  (await call('GET', `/v1/checks/${checkId}/results`)).results as Record<string, unknown>[];

describe('notify jobs through the notifier Lambda', () => {
  it('tells a down (event, deliver), escalates it, repeats it and acknowledges it at PagerDuty', async () => {
    const { entityId, checkId } = await pushChecked('api');
    await webhookPolicy(checkId, '/alert/api', { cooldown_seconds: 0, repeat_interval_seconds: 600 });
    await call('POST', `/v1/checks/${checkId}/policy/channels`, {
      channel_type: 'pagerduty',
      config: { routing_key: ROUTING_KEY },
    });
    const pager = await call('POST', '/v1/notify/channels', {
      name: 'pager',
      channel_type: 'webhook',
      config: { url: `${receiver.origin}/esc/api` },
    });
    await call('POST', '/v1/notify/routes', {
      match: { entity_ids: [entityId] },
      escalate_after_seconds: 60,
      escalate_channel_ids: [pager.id],
    });
    await pushResult(checkId, true);
    await pushResult(checkId, false);
    expect(bodiesAt('/alert/api').map((b) => `${b.kind}:${b.to_state}`)).toEqual(['alert:down']);
    const [incident] = (await call('GET', `/v1/incidents?entity_id=${entityId}&state=open`)).incidents;
    const incidentId = String(incident?.id);
    expect(pd.alerts.get(incidentId)?.status).toBe('triggered');

    clock.advance(MINUTE + 1000);
    await settle();
    expect(bodiesAt('/esc/api').map((b) => b.kind)).toEqual(['escalation']);

    clock.advance(10 * MINUTE);
    await settle();
    expect(bodiesAt('/alert/api')).toHaveLength(2);
    expect(await deliveryLog(checkId)).toContain('repeat:sent');

    await call('POST', `/v1/incidents/${incidentId}/acknowledge`);
    await settle();
    expect(pd.alerts.get(incidentId)?.status).toBe('acknowledged');
  });

  it('climbs an escalation policy: a channel at once, then a person by their plan, told when it is over (climb, page_contact, page_resolved)', async () => {
    const { entityId, checkId } = await pushChecked('pay');
    await webhookPolicy(checkId, '/alert/pay', { cooldown_seconds: 0 });
    const me = (await call('GET', '/v1/me')).user.id;
    // An ntfy topic on the receiver, verified with the code it was sent; paged at once and after 2 minutes.
    const method = await call('POST', '/v1/me/contact-methods', {
      kind: 'ntfy',
      address: `${receiver.origin}/ntfy/me`,
    });
    const code = /(\d{6})/.exec(hits('/ntfy/me').at(-1)?.body.toString('utf8') ?? '')?.[1];
    expect((await call('POST', `/v1/me/contact-methods/${method.id}/verify`, { code })).verified).toBe(true);
    await call('PUT', '/v1/me/notification-rules', {
      rules: [
        { after_seconds: 0, contact_method_id: method.id },
        { after_seconds: 120, contact_method_id: method.id },
      ],
    });
    const pager = await call('POST', '/v1/notify/channels', {
      name: 'pay pager',
      channel_type: 'webhook',
      config: { url: `${receiver.origin}/page/pay` },
    });
    const policy = await call('POST', '/v1/escalation-policies', {
      name: 'Pay ladder',
      steps: [
        { delay_seconds: 60, targets: [{ type: 'channel', id: pager.id }] },
        { delay_seconds: 60, targets: [{ type: 'user', id: me }] },
      ],
    });
    await call('POST', '/v1/notify/routes', {
      match: { entity_ids: [entityId] },
      escalation_policy_id: policy.id,
    });
    const codes = hits('/ntfy/me').length;
    await pushResult(checkId, true);
    await pushResult(checkId, false);
    expect(bodiesAt('/page/pay').map((b) => b.kind)).toEqual(['escalation']);
    clock.advance(MINUTE + 1000);
    await settle();
    expect(hits('/ntfy/me')).toHaveLength(codes + 1);
    expect(hits('/ntfy/me').at(-1)?.body.toString('utf8')).toContain(
      'escalation policy "Pay ladder", step 2',
    );
    clock.advance(2 * MINUTE);
    await settle();
    expect(hits('/ntfy/me')).toHaveLength(codes + 2);
    const [incident] = (await call('GET', `/v1/incidents?entity_id=${entityId}&state=open`)).incidents;
    const { timeline } = await call('GET', `/v1/incidents/${incident?.id}`);
    expect(
      timeline
        .filter((e: { type: string }) => e.type === 'page')
        .map(
          (e: { step: number; contact_kind: string; outcome: string }) =>
            `${e.step}:${e.contact_kind}:${e.outcome}`,
        ),
    ).toEqual(['0:webhook:queued', '1:ntfy:sent', '1:ntfy:sent']);
    // The recovery resolves the incident: the person is told once by the method the pages reached.
    await pushResult(checkId, true);
    await settle();
    expect(hits('/ntfy/me')).toHaveLength(codes + 3);
    expect(hits('/ntfy/me').at(-1)?.body.toString('utf8')).toContain('incident is resolved since');
  });

  it('tells a second failing check of an entity already down as also failing', async () => {
    const first = await pushChecked('shop');
    const second = await call('POST', '/v1/checks', {
      entity_id: first.entityId,
      check_type: 'push',
      interval_seconds: 3600,
      failure_threshold: 1,
    });
    await webhookPolicy(String(second.id), '/also/shop', { cooldown_seconds: 0 });
    await pushResult(first.checkId, true);
    await pushResult(String(second.id), true);
    await pushResult(first.checkId, false);
    await pushResult(String(second.id), false);
    expect(bodiesAt('/also/shop').map((b) => b.kind)).toEqual(['also_failing']);
  });

  it('defers a recovery inside the cooldown and sends it when the cooldown ends (recovery_due)', async () => {
    const { checkId } = await pushChecked('web');
    await webhookPolicy(checkId, '/cool/web', { cooldown_seconds: 300 });
    await pushResult(checkId, false);
    clock.advance(100_000);
    await pushResult(checkId, true);
    expect(bodiesAt('/cool/web').map((b) => b.kind)).toEqual(['alert']);

    clock.advance(5 * MINUTE);
    await settle();
    expect(bodiesAt('/cool/web').map((b) => `${b.kind}:${b.to_state}`)).toEqual([
      'alert:down',
      'recovery:up',
    ]);
  });

  it('sends a down skipped in a maintenance window when the window ends (maintenance_end, rejudge)', async () => {
    const { entityId, checkId } = await pushChecked('db');
    await webhookPolicy(checkId, '/maint/db', { cooldown_seconds: 0 });
    await pushResult(checkId, true);
    const endsMs = clock.now() + 30 * MINUTE;
    await call('POST', '/v1/maintenance', {
      name: 'Deploy',
      entity_ids: [entityId],
      starts_at: new Date(clock.now() - MINUTE).toISOString(),
      ends_at: new Date(endsMs).toISOString(),
    });
    await pushResult(checkId, false);
    expect(bodiesAt('/maint/db')).toEqual([]);

    clock.set(endsMs + 1000);
    await settle();
    expect(bodiesAt('/maint/db').map((b) => `${b.kind}:${b.to_state}`)).toEqual(['alert:down']);
  });

  it('holds a flapping check’s alerts and sends the state it settled in (flap_settle)', async () => {
    const { checkId } = await pushChecked('queue');
    await webhookPolicy(checkId, '/flap/queue', {
      cooldown_seconds: 0,
      flap_changes: 2,
      flap_window_seconds: 600,
    });
    await pushResult(checkId, false);
    await pushResult(checkId, true);
    await pushResult(checkId, false);
    await pushResult(checkId, true);
    expect(bodiesAt('/flap/queue').map((b) => `${b.kind}:${b.to_state}`)).toEqual([
      'alert:down',
      'recovery:up',
      'flapping:down',
    ]);

    clock.advance(11 * MINUTE);
    await settle();
    expect(bodiesAt('/flap/queue').map((b) => `${b.kind}:${b.to_state}`)).toEqual([
      'alert:down',
      'recovery:up',
      'flapping:down',
      'recovery:up',
    ]);
  });

  it('sends a group’s alerts as one digest when its wait ends (digest)', async () => {
    await call('POST', '/v1/blueprints', { slug: 'grp', name: 'Group' });
    const channel = await call('POST', '/v1/notify/channels', {
      name: 'group',
      channel_type: 'webhook',
      config: { url: `${receiver.origin}/digest/grp` },
    });
    await call('POST', '/v1/notify/routes', {
      match: { blueprint_slugs: ['grp'] },
      channel_ids: [channel.id],
      group_by: 'blueprint',
      group_wait_seconds: 10,
      group_interval_seconds: 60,
    });
    const nodes = [await pushChecked('n1', 'grp'), await pushChecked('n2', 'grp')];
    for (const node of nodes) {
      await call('POST', `/v1/checks/${node.checkId}/policy`, { cooldown_seconds: 0 });
      await pushResult(node.checkId, true);
    }
    for (const node of nodes) await pushResult(node.checkId, false);
    expect(bodiesAt('/digest/grp')).toEqual([]);

    clock.advance(11_000);
    await settle();
    const [digest] = bodiesAt('/digest/grp');
    expect(digest).toMatchObject({ kind: 'digest', counts: { down: 2 } });
  });

  it('publishes a draft from the dependency graph after its page’s minutes (page_draft_publish)', async () => {
    const root = await pushChecked('pdp-root');
    const dependent = await pushChecked('pdp-dep');
    await call('POST', '/v1/relations', {
      from_entity_id: dependent.entityId,
      to_entity_id: root.entityId,
      relation_type: 'depends_on',
    });
    await call('POST', '/v1/status-pages', {
      slug: 'pdp-page',
      title: 'Drafted',
      entity_ids: [root.entityId],
      auto_publish_drafts_after_minutes: 20,
    });
    await pushResult(root.checkId, true);
    await pushResult(root.checkId, false);
    const drafted = async () => (await call('GET', '/v1/status-pages/pdp-page/incidents')).incidents[0];
    expect(await drafted()).toMatchObject({ draft: true, drafted_from: { entity_id: root.entityId } });

    // Twenty minutes: one hop of fifteen (the longest queue delay), then the publish.
    clock.advance(16 * MINUTE);
    await settle();
    expect((await drafted()).draft).toBe(true);
    clock.advance(5 * MINUTE);
    await settle();
    expect(await drafted()).toMatchObject({ draft: false, status: 'investigating' });
  });
});

describe('status page subscriber jobs through the notifier Lambda', () => {
  it('subscribes, emails a subscriber’s confirmation and tells a webhook subscriber of an update, signed (page_subscribe, page_confirm, page_notice)', async () => {
    const { entityId } = await pushChecked('statuspage');
    await call('POST', '/v1/status-pages', { slug: 'kinds', title: 'Kinds', entity_ids: [entityId] });
    // The keyless form's request as its route queues it (this deployment has no sender, so the
    // route itself refuses): pending, and its confirmation email job runs (skipped, said so).
    const request = {
      kind: 'email' as const,
      address: 'kinds@example.com',
      url: null,
      components: 'all' as const,
    };
    const queued = await h.app.notifyQueue.enqueue([
      { id: 'psr:kinds', body: { kind: 'page_subscribe', tenant_id: h.tenantId, page: 'kinds', request } },
    ]);
    expect(queued.failed).toEqual([]);
    const hook = await call('POST', '/v1/status-pages/kinds/subscribers', {
      url: `${receiver.origin}/page/kinds`,
    });
    const incident = await call('POST', '/v1/status-pages/kinds/incidents', {
      title: 'Slow',
      body: 'Looking.',
      impact: [{ entity_id: entityId, level: 'degraded_performance' }],
      notify: true,
    });
    await settle();
    expect(h.logs.some((l) => l.includes('status page confirmation email not sent'))).toBe(true);
    const told = hits('/page/kinds');
    expect(told).toHaveLength(1);
    const body = told[0]?.body ?? Buffer.alloc(0);
    const expected = `sha256=${createHmac('sha256', hook.secret).update(body).digest('hex')}`;
    expect(told[0]?.headers['x-service-signature']).toBe(expected);
    expect(JSON.parse(body.toString('utf8'))).toMatchObject({
      kind: 'page_incident_update',
      incident: { id: incident.id, title: 'Slow' },
    });
  });
  it('tells a webhook subscriber of a maintenance window’s announcement and start, waiting in hops (page_maint, page_maint_notice)', async () => {
    const { entityId } = await pushChecked('maintained');
    await call('POST', '/v1/status-pages', { slug: 'maint', title: 'Maint', entity_ids: [entityId] });
    await call('POST', '/v1/status-pages/maint/subscribers', { url: `${receiver.origin}/page/maint` });
    await call('POST', '/v1/maintenance', {
      name: 'Swap disks',
      entity_ids: [entityId],
      starts_at: new Date(clock.now() + 20 * MINUTE).toISOString(),
      ends_at: new Date(clock.now() + 30 * MINUTE).toISOString(),
      announce: true,
    });
    await settle();
    const moments = () =>
      hits('/page/maint').map((hit) => JSON.parse(hit.body.toString('utf8')).maintenance.moment);
    expect(moments()).toEqual(['announced']);
    // Twenty minutes: one hop of fifteen (the longest queue delay), then the start.
    clock.advance(16 * MINUTE);
    await settle();
    expect(moments()).toEqual(['announced']);
    clock.advance(5 * MINUTE);
    await settle();
    expect(moments()).toEqual(['announced', 'started']);
  });
  it('tells the outgoing and incoming person of a schedule’s handoff by their first contact method, waiting in hops (handover)', async () => {
    const me = (await call('GET', '/v1/me')).user.id;
    const other = await join(h, h.adminKey, { role: 'member' });
    const made = await call('POST', '/v1/me/contact-methods', {
      kind: 'ntfy',
      address: `${receiver.origin}/ntfy/handover`,
    });
    const code = /code is (\d{6})\b/.exec(hits('/ntfy/handover').at(-1)?.body.toString('utf8') ?? '')?.[1];
    await call('POST', `/v1/me/contact-methods/${made.id}/verify`, { code });
    // A daily rotation whose handoff is 20 minutes from now (UTC): Vigil's admin hands over to the member.
    const at = new Date(clock.now() + 20 * MINUTE);
    const hhmm = at.toISOString().slice(11, 16);
    const start = new Date(clock.now() - 24 * 60 * MINUTE).toISOString().slice(0, 10);
    await call('POST', '/v1/schedules', {
      name: 'Kinds rota',
      time_zone: 'UTC',
      layers: [
        { name: 'Daily', members: [me, other.userId], rotation: { type: 'daily', handoff: hhmm, start } },
      ],
    });
    await settle();
    // By the admin's first verified method: /ntfy/me when an earlier scenario of this file added it.
    const summaries = () =>
      receiver.received
        .filter((hit) => hit.path.startsWith('/ntfy/'))
        .map((hit) => hit.body.toString('utf8'))
        .filter((text) => text.includes('Kinds rota'));
    // Twenty minutes: one hop of fifteen (the longest queue delay), then the handoff.
    clock.advance(16 * MINUTE);
    await settle();
    expect(summaries()).toEqual([]);
    clock.advance(5 * MINUTE);
    await settle();
    expect(summaries()).toHaveLength(1);
    expect(summaries()[0]).toMatch(
      /^(Your on-call shift of Kinds rota ended|You are on call for Kinds rota)/,
    );
  });
});

describe('action jobs through the action worker Lambda', () => {
  it('runs a state_change action and fails its pipeline at its deadline (state_change, run, deadline)', async () => {
    const { checkId } = await pushChecked('billing');
    const action = await call('POST', '/v1/actions', {
      name: 'restart billing',
      url: `${receiver.origin}/action/billing`,
      trigger_type: 'state_change',
      check_id: checkId,
      trigger_to_state: 'down',
      pipeline_timeout_seconds: 60,
    });
    await pushResult(checkId, true);
    await pushResult(checkId, false);
    expect(hits('/action/billing')).toHaveLength(1);
    const executions = async () =>
      (await call('GET', `/v1/actions/${action.id}/executions`)).executions as Record<string, unknown>[];
    expect(await executions()).toEqual([
      expect.objectContaining({ dispatch_status: 'success', pipeline_status: null }),
    ]);

    clock.advance(2 * MINUTE);
    await settle();
    expect(await executions()).toEqual([expect.objectContaining({ pipeline_status: 'failed' })]);
  });
});

describe('probe jobs through the worker Lambda', () => {
  it('probes a new pull check in its cell (cell)', async () => {
    const entity = await call('POST', '/v1/blueprints/svc/entities', { slug: 'edge', name: 'Edge' });
    const check = await call('POST', '/v1/checks', {
      entity_id: entity.id,
      check_type: 'http',
      target_url: target.url,
      interval_seconds: 3600,
    });
    await settle();
    expect(await resultsOf(String(check.id))).toEqual([
      expect.objectContaining({ success: true, status_code: 200 }),
    ]);
  });

  it('fans a located check’s slot out to its location and decides it at its deadline (probe, decide)', async () => {
    const location = await call('POST', '/v1/locations', { name: 'office', kind: 'agent' });
    const entity = await call('POST', '/v1/blueprints/svc/entities', { slug: 'intranet', name: 'Intranet' });
    const check = await call('POST', '/v1/checks', {
      entity_id: entity.id,
      check_type: 'http',
      target_url: target.url,
      interval_seconds: 86_400,
      locations: ['office'],
    });
    const checkId = String(check.id);
    await settle();
    const lease = await h.request('POST', '/v1/agent/lease', {
      key: location.key,
      body: { max: 10, wait_seconds: 0 },
    });
    expect(lease.status, lease.text).toBe(200);
    expect(lease.body.jobs.map((j: { job_id: string }) => j.job_id.split(':')[0])).toEqual([checkId]);

    // The office never reports: at the slot's deadline the decide job decides it without it.
    clock.advance(15 * MINUTE);
    for (const body of h.probeSqs.sentBodies()) {
      if (kindOfMessage(body) === 'decide') await requeuer.send(h.probeSqs, body);
    }
    await settle();
    expect(await resultsOf(checkId)).toEqual([
      expect.objectContaining({
        locations: [expect.objectContaining({ location: 'office', outcome: 'unknown' })],
      }),
    ]);
  });

  it('hands a browser check’s slot to the browser queue and records the result the browser function sends back (probed)', async () => {
    const entity = await call('POST', '/v1/blueprints/svc/entities', {
      slug: 'storefront',
      name: 'Storefront',
    });
    const check = await call('POST', '/v1/checks', {
      entity_id: entity.id,
      check_type: 'browser',
      interval_seconds: 3600,
      config: { steps: [{ action: 'goto', url: target.url }] },
    });
    const checkId = String(check.id);
    await settle();
    // The worker ran no browser: it sent the slot to the browser queue, with the check to run.
    const sent = h.browserSqs.sentBodies().map((b) => JSON.parse(b).body);
    const handed = sent.find((b) => b.job?.check_id === checkId);
    expect(handed).toMatchObject({ job: { check_id: checkId }, check: { check_type: 'browser' } });
    expect(await resultsOf(checkId)).toEqual([]);

    // What the browser function sends back (test/cloud/browser-flow.test.ts runs it with Chromium).
    const probed = {
      kind: 'probed',
      job: handed.job,
      result: {
        success: false,
        status_code: 0,
        latency_ms: 1200,
        error_message: 'step 1 (goto): the page answered 503',
        checked_at: new Date(clock.now()).toISOString(),
        details: { steps: [{ action: 'goto', outcome: 'failed', ms: 1200, error: 'the page answered 503' }] },
      },
    };
    await requeuer.send(h.probeSqs, JSON.stringify({ id: `probed:${checkId}`, body: probed }));
    await settle();
    expect(await resultsOf(checkId)).toEqual([
      expect.objectContaining({ success: false, error_message: 'step 1 (goto): the page answered 503' }),
    ]);
  });

  it('records a silent push check’s missed deadline (deadman)', async () => {
    const { checkId } = await pushChecked('cron');
    // The message the generator sends for the check's deadline once it has passed (push-flow.test.ts
    // runs the generator for it); here, the check never reported.
    const job: ProbeJob = {
      tenant_id: h.tenantId,
      check_id: checkId,
      kind: 'deadman',
      slot_ms: clock.now(),
      last_result_at: null,
    };
    await requeuer.send(h.probeSqs, workerMessageBody(job));
    await settle();
    expect(await resultsOf(checkId)).toEqual([expect.objectContaining({ success: false })]);
  });
});

describe('purge jobs through the stream function', () => {
  it('purges a deleted entity’s checks and a deleted action’s executions (entity, partition, action)', async () => {
    const { checkId } = await pushChecked('legacy');
    const action = await call('POST', '/v1/actions', {
      name: 'legacy hook',
      url: `${receiver.origin}/action/legacy`,
      trigger_type: 'state_change',
      check_id: checkId,
      trigger_to_state: 'down',
    });
    await pushResult(checkId, true);
    await pushResult(checkId, false);
    expect(hits('/action/legacy')).toHaveLength(1);

    await call('DELETE', `/v1/actions/${action.id}`);
    await call('DELETE', '/v1/blueprints/svc/entities/legacy');
    const purgeJobs = async () => (await h.table.query({ pk: `PURGE#${h.tenantId}` })).items;
    for (let round = 0; round < 100; round += 1) {
      for (const item of await purgeJobs()) purgedKinds.add(purgeJobSchema.parse(item).kind);
      if ((await h.runStreamOnce()) === 0) break;
    }
    expect(await purgeJobs()).toEqual([]);
    expect((await h.table.query({ pk: `CHECK#${checkId}` })).items).toEqual([]);
    expect((await h.request('GET', `/v1/checks/${checkId}`, { key: h.adminKey })).status).toBe(404);
  });
});

describe('every job kind of every queue', () => {
  const queues = [
    { queue: 'notify', schema: notifyJobSchema, source: () => h.eventSources.notify },
    { queue: 'action', schema: actionJobSchema, source: () => h.eventSources.action },
    { queue: 'probe', schema: workerJobSchema, source: () => h.eventSources.probe },
  ];
  describe.each(queues)('the $queue queue', ({ schema, source }) => {
    it.each(kindsOf(schema))('ran a %s job through its Lambda consumer without failing it', (kind) => {
      expect([...handledKinds(source())]).toContain(kind);
    });
  });

  it.each(kindsOf(purgeJobSchema))('purged a %s job through the stream function', (kind) => {
    expect([...purgedKinds]).toContain(kind);
  });

  it('moved nothing to a dead-letter queue', () => {
    expect(h.notifySqs.deadLetterBodies()).toEqual([]);
    expect(h.actionSqs.deadLetterBodies()).toEqual([]);
    expect(h.probeSqs.deadLetterBodies()).toEqual([]);
  });
});
