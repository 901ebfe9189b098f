import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StateChangeEvent } from '../../lib/domain/states/state-change-event.ts';
import { statusPagesShowing } from '../../lib/features/list.ts';
import type { ChannelDefinition, ChannelSendDeps } from '../../lib/notify/channels/definition.ts';
import {
  CHANNEL_DEFINITIONS,
  CHANNEL_TYPES,
  type ChannelConfigOf,
  type ChannelType,
} from '../../lib/notify/channels/registry.ts';
import type { DeliveryKind, DeliveryRecord } from '../../lib/notify/items/delivery-items.ts';
import type { Alert } from '../../lib/notify/items/ports.ts';
import { alertFor } from '../../lib/notify/pipeline/alert-context.ts';
import { digestReasons, MAX_REASON } from '../../lib/notify/pipeline/alert-reason.ts';
import { createFakeClock } from '../../lib/platform/clock.ts';
import type { Table } from '../../lib/store/table.ts';
import { type LocalHarness, startLocalHarness } from '../support/api-harness.ts';
import { runCellSlot } from '../support/cell-fixtures.ts';

/** What an alert is read over: the table, and the status pages feature's read the app hands notify. */
const alertReads = (table: Table) => ({ table, statusPagesShowing: statusPagesShowing(table) });

/**
 * Every alert, repeat, escalation and digest event says why (DECISIONS.md "Alert truth (wave 5)",
 * Reason), read from the store as the notifier reads it: an alert the failing result's error at
 * its change (or the rule when the result says nothing), a repeat and an escalation the checks
 * failing now, a recovery the rule that moved it up. Results are pushed through the API, so the
 * transitions and the entity's check states are the recorder's own.
 */

let api: LocalHarness;
let entityId: string;
let entityName: string;

beforeAll(async () => {
  api = await startLocalHarness({ scheduler: false });
  await call('POST', '/v1/blueprints', { slug: 'svc', name: 'Service' });
  const entity = await call('POST', '/v1/blueprints/svc/entities', { slug: 'backup', name: 'Backups' });
  entityId = entity.id;
  entityName = entity.name;
});

afterAll(async () => {
  await api?.close();
});

async function call(method: string, path: string, body?: unknown) {
  const res = await api.request(method, path, { key: api.adminKey, body });
  expect(res.status, `${method} ${path}: ${res.text}`).toBeLessThan(300);
  return res.body;
}

async function pushCheck(name: string): Promise<string> {
  const check = await call('POST', '/v1/checks', {
    entity_id: entityId,
    check_type: 'push',
    name,
    interval_seconds: 3600,
    failure_threshold: 1,
  });
  return check.id;
}

const push = (checkId: string, body: Record<string, unknown>) =>
  call('POST', `/v1/checks/${checkId}/results`, { latency_ms: 5, ...body });

/** The entity's newest transition as the event the notifier carries. */
async function lastEvent(entity = entityId): Promise<StateChangeEvent> {
  const page = await call('GET', `/v1/status/transitions?entity_id=${entity}&limit=1`);
  const t = page.transitions[0];
  return {
    entity_id: t.entity_id,
    entity_name: t.entity_name,
    check_id: t.check_id,
    tenant_id: api.tenantId,
    from_state: t.from_state,
    to_state: t.to_state,
    transition_id: t.id,
    timestamp: t.created_at,
  };
}

function record(kind: DeliveryKind, event: StateChangeEvent): DeliveryRecord {
  return {
    id: `dlv_${kind}`,
    tenant_id: api.tenantId,
    channel_id: 'chn_x',
    check_id: event.check_id,
    entity_id: event.entity_id,
    transition_id: event.transition_id,
    channel_type: 'webhook',
    kind,
    status: 'pending',
    reason: null,
    attempts: 0,
    attempt_log: [],
    sent_at: null,
    error: null,
    created_at: event.timestamp,
    updated_at: event.timestamp,
    event,
  };
}

describe('the reason of each kind of message', () => {
  let backup: string;
  let disk: string;
  let down: StateChangeEvent;

  it('gives an alert the failing result’s error at its change', async () => {
    backup = await pushCheck('Nightly backup');
    await push(backup, { success: true });
    await push(backup, {
      success: false,
      error_message: 'expected at 03:00 Europe/Berlin (+1 h grace): no success received',
    });
    down = await lastEvent();
    expect(down.to_state).toBe('down');

    const alert = await alertFor(alertReads(api.table), record('alert', down));

    expect(alert.reason).toBe('expected at 03:00 Europe/Berlin (+1 h grace): no success received');
    expect(alert.event.entity_name).toBe(entityName);
  });

  it('keeps the alert’s reason at its change, while a repeat and an escalation say what fails now', async () => {
    await new Promise((resolve) => setTimeout(resolve, 5));
    await push(backup, { success: false, error_message: 'exit status 2: disk full' });

    const alert = await alertFor(alertReads(api.table), record('alert', down));
    const repeat = await alertFor(alertReads(api.table), record('repeat', down));
    const escalation = await alertFor(alertReads(api.table), record('escalation', down));

    expect(alert.reason).toBe('expected at 03:00 Europe/Berlin (+1 h grace): no success received');
    expect(repeat.reason).toBe('exit status 2: disk full');
    expect(escalation.reason).toBe('exit status 2: disk full');
  });

  it('keeps the alert’s reason at its change when newer results fill the newest few read first', async () => {
    for (let i = 0; i < 3; i++) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      await push(backup, { success: false, error_message: 'exit status 2: disk full' });
    }

    const alert = await alertFor(alertReads(api.table), record('alert', down));

    expect(alert.reason).toBe('expected at 03:00 Europe/Berlin (+1 h grace): no success received');
    expect(alert.lastError).toBe('exit status 2: disk full');
  });

  it('names each check failing now in a repeat, down ones first', async () => {
    disk = await pushCheck('Disk space');
    await push(disk, { success: true });
    await push(disk, { success: false, error_message: 'volume /data 97% full' });

    const repeat = await alertFor(alertReads(api.table), record('repeat', down));

    expect(repeat.reason?.split('; ').sort()).toEqual(
      ['Disk space: volume /data 97% full', 'Nightly backup: exit status 2: disk full'].sort(),
    );
  });

  it('gives the rule when the failing result says nothing', async () => {
    await push(disk, { success: true });
    await push(backup, { success: true });
    await push(backup, { success: false });
    const silent = await lastEvent();
    expect(silent.to_state).toBe('down');

    const alert = await alertFor(alertReads(api.table), record('alert', silent));

    expect(alert.reason).toBe('1 consecutive failure (threshold 1)');
  });

  it('gives a recovery the rule that moved it up, and keeps what it recovered from as the last error', async () => {
    await push(backup, { success: false, error_message: 'exit status 3' });
    await push(backup, { success: true });
    const up = await lastEvent();
    expect(up.to_state).toBe('up');

    const recovery = await alertFor(alertReads(api.table), record('alert', up));

    expect(recovery.reason).toBe('check succeeded');
    expect(recovery.lastError).toBe('exit status 3');
  });

  it('cuts a long error to one line of at most 300 characters, with an ellipsis', async () => {
    await push(backup, { success: false, error_message: `assertion failed:\n${'x'.repeat(4000)}` });
    const event = await lastEvent();

    const alert = await alertFor(alertReads(api.table), record('alert', event));

    expect(MAX_REASON).toBe(300);
    expect(alert.reason).toHaveLength(300);
    expect(alert.reason?.startsWith('assertion failed: xxx')).toBe(true);
    expect(alert.reason?.endsWith('…')).toBe(true);
  });

  it('gives a test none', async () => {
    const test = await alertFor(alertReads(api.table), record('test', down));
    expect(test.reason).toBeNull();
  });

  it('gives each digest event the reason its alert alone would have', async () => {
    const event = await lastEvent();
    const events = await digestReasons(api.table, api.tenantId, [
      { event, kind: 'alert' },
      { event, kind: 'repeat' },
    ]);
    expect(events.map((e) => e.reason?.slice(0, 18))).toEqual(['assertion failed: ', 'assertion failed: ']);
  });
});

describe('secrets in a failing result’s error', () => {
  // Letters and digits only: no channel's escaping (MarkdownV2, form encoding) could hide one from the search.
  const TOKEN = 'skliveVIGILsecretHeaderValue42';
  const PASSWORD = 'hunter2verysecret';
  const QUERY = 'tokabc123456789';
  const OTHER = 'otherpass4242';

  it('are hidden in the reason and the last error as results hide them', async () => {
    // An entity of its own: the one above is down already.
    const orders = await call('POST', '/v1/blueprints/svc/entities', { slug: 'orders', name: 'Orders' });
    const check = await call('POST', '/v1/checks', {
      entity_id: orders.id,
      check_type: 'http',
      name: 'Orders API',
      target_url: `https://ops:${PASSWORD}@orders.example.com/health?token=${QUERY}&region=eu`,
      headers: { Authorization: `Bearer ${TOKEN}` },
      interval_seconds: 60,
      failure_threshold: 1,
    });
    // The slot's error as an echoing target wrote it, stored unredacted (the fixture's prober is
    // not runProbe, which hides a check's secrets): what an item written before redaction holds.
    const error = `GET https://ops:${PASSWORD}@orders.example.com/health?token=${QUERY} answered 401: {"authorization":"Bearer ${TOKEN}"}; see https://admin:${OTHER}@login.example.com/`;
    await runCellSlot(api, {
      slotMs: Date.now() - 1000,
      answers: { [check.id]: { success: false, status_code: 401, error_message: error } },
    });
    const event = await lastEvent(orders.id);
    expect(event).toMatchObject({ check_id: check.id, to_state: 'down' });

    const alert = await alertFor(alertReads(api.table), record('alert', event));

    for (const text of [alert.reason ?? '', alert.lastError ?? '']) {
      expect(text).toContain('orders.example.com/health');
      expect(text).toContain('********');
      for (const secret of [TOKEN, PASSWORD, QUERY, OTHER]) expect(text).not.toContain(secret);
    }

    // What every channel type sends for this alert: none of it holds a secret, each says why.
    for (const type of CHANNEL_TYPES) {
      const sent = await sentBy(type, alert);
      expect(sent.length, `${type} sent nothing`).toBeGreaterThan(0);
      const text = sent.join('\n');
      expect(text, type).toMatch(/answered(\s|\+|%20)401/);
      for (const secret of [TOKEN, PASSWORD, QUERY, OTHER]) expect(text, type).not.toContain(secret);
    }
  });
});

/** A valid stored config of every channel type (the compiler names a type left out). */
const CONFIGS: { [T in ChannelType]: ChannelConfigOf<T> } = {
  slack: { url: 'https://hooks.slack.test/services/T0/B0/x' },
  discord: { url: 'https://discord.test/api/webhooks/1/x' },
  webhook: { url: 'https://hooks.test/vigil' },
  nats: { subject: 'alerts' },
  ntfy: { url: 'https://ntfy.test/alerts' },
  email: { to: ['ops@example.com'] },
  teams: { url: 'https://teams.test/workflows/1' },
  google_chat: { url: 'https://chat.test/v1/spaces/AAA/messages?key=k&token=t' },
  mattermost: { url: 'https://mattermost.test/hooks/abc' },
  matrix: { homeserver: 'https://matrix.test', room_id: '!room:matrix.test', access_token: 'syt_matrix' },
  pagerduty: { routing_key: 'R0ut1ngKeyOfTheVigilServ1ce00042' },
  opsgenie: { api_key: '6f1c2a3b-1111-4222-8333-944455556666' },
  telegram: { bot_token: '123456:ABCdef', chat_id: '42' },
  pushover: { app_token: 'azGDORePK8gMaC0QOYAMyEEuzJnyUi', user_key: 'uQiRzpo4DXghDmr9QzzfQu27cmVRsG' },
  gotify: { url: 'https://gotify.test', token: 'AbCdEf123456' },
  sms: { provider: 'sns', to: ['+15555550100'] },
};

/**
 * What `type`'s definition sends for `alert`: each HTTP body (a transport that answers 200 to
 * anything and reaches no network), the email's text and HTML, the NATS payload, the SMS text.
 */
async function sentBy(type: ChannelType, alert: Alert): Promise<string[]> {
  const sent: string[] = [];
  const ok = { ok: true, status_code: 200, error: null };
  const deps: ChannelSendDeps = {
    http: {
      egressAllow: ['127.0.0.0/8'],
      resolve: async () => [{ address: '127.0.0.1', family: 4 }],
      transport: async (req) => {
        sent.push(`${req.url} ${String(req.body ?? '')}`);
        return {
          status: 200,
          headers: { 'content-type': 'application/json' },
          bodyPrefix: Buffer.from('{}'),
        };
      },
    },
    publicUrl: 'https://vigil.example.com',
    email: {
      transport: {
        send: async (email) => {
          sent.push(email.subject, email.text, email.html);
          return ok;
        },
      },
      from: { address: 'alerts@example.com', name: 'Vigil' },
    },
    nats: {
      publish: async (_subject, data) => {
        sent.push(Buffer.from(data).toString('utf8'));
        return ok;
      },
      close: async () => {},
    },
    natsPrefix: 'vigil',
    runtime: 'local',
    clock: createFakeClock(),
    sms: {
      send: async (message) => {
        sent.push(message.text);
        return ok;
      },
    },
  };
  const channel = { id: 'chn_01J', tenant_id: alert.event.tenant_id, check_id: alert.event.check_id };
  // Each definition takes its own config: CONFIGS pairs them by type.
  const definition = CHANNEL_DEFINITIONS[type] as unknown as ChannelDefinition<object>;
  await definition.send(deps, { ...channel, config: CONFIGS[type] }, alert);
  return sent;
}
