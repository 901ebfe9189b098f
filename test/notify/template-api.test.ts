import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newCheck, newEntity, quietTcpCheck } from '../checks/check-fixtures.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';
import { createTlsFixtures } from '../support/tls-fixtures.ts';
import { type Receiver, startReceiver } from './channels/receiver.ts';

/**
 * Message templates through the API in both runtimes (docs/notifications.md "Message templates"):
 * a channel saved with a template sends its rendered title and body (an HTTPS receiver standing in
 * for ntfy), a bad template or one on a raw-event type is a 400 naming the problem and changes
 * nothing, PUT replaces and removes it, and the preview renders a made-up event and refuses what
 * saving refuses, with sentences.
 */

const tls = createTlsFixtures();
let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver(tls.valid, 'unused');
});
afterAll(async () => {
  await receiver?.close();
});

const TEMPLATE = {
  title: '[{{to_state}}] {{entity_name}}',
  body: '{{check_name}} went {{from_state}} → {{to_state}}.{{#last_error}} Error: {{last_error}}{{/last_error}}',
};

describe.each(runtimes)('message templates API ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  let viewer: string;
  const call = (method: string, path: string, body?: unknown, key = api.adminKey) =>
    api.request(method, path, { key, body });

  beforeAll(async () => {
    api = await start({
      env: { VIGIL_EGRESS_ALLOW: '127.0.0.0/8', VIGIL_PUBLIC_URL: 'https://vigil.example.com' },
      egress: { ca: [tls.caCert] },
    });
    viewer = (await call('POST', '/v1/auth/keys', { label: 'viewer', is_read_only: true })).body.key;
  });
  afterAll(async () => {
    await api?.close();
  });

  it('previews a template with the made-up event, for read-only keys too', async () => {
    const res = await call(
      'POST',
      '/v1/notify/template-preview',
      {
        channel_type: 'ntfy',
        template: {
          title: '[{{to_state}}] {{entity_name}}',
          body: '{{check_name}}: {{check_label}}{{#last_error}}\nError: {{last_error}}{{/last_error}}\n{{link}}',
        },
      },
      viewer,
    );
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      title: '[down] Checkout API',
      body: 'Health endpoint: GET https://api.example.com/health\nError: connect ECONNREFUSED 203.0.113.10:443\nhttps://vigil.example.com/entities/service/checkout-api',
      link: 'https://vigil.example.com/entities/service/checkout-api',
    });
    const recovery = await call('POST', '/v1/notify/template-preview', {
      channel_type: 'email',
      template: { title: '{{kind}}: {{from_state}} → {{to_state}}{{^last_error}} (no error){{/last_error}}' },
      kind: 'recovery',
    });
    expect(recovery.body.title).toBe('recovery: down → up (no error)');
    // Vigil's own body stands when the template has none.
    expect(recovery.body.body).toContain('Check: Health endpoint');
  });

  it('refuses unknown fields, broken sections and raw-event types with sentences', async () => {
    const unknown = await call('POST', '/v1/notify/template-preview', {
      channel_type: 'slack',
      template: { title: 'ok', body: 'Hello {{entity}} {{#oops}}x{{/oops}}' },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.details).toEqual([
      {
        path: 'template.body',
        message:
          '{{entity}}, {{oops}} are not fields: use entity_name, check_name, to_state, from_state, last_error, link, time, kind, check_label, headline, note, down_for, unacknowledged_for, also_failing, …',
      },
    ]);
    const open = await call('POST', '/v1/notify/template-preview', {
      channel_type: 'slack',
      template: { title: '{{#last_error}}x' },
    });
    expect(open.body.details).toEqual([
      { path: 'template.title', message: '{{#last_error}} is never closed: end it with {{/last_error}}.' },
    ]);
    for (const type of ['webhook', 'nats']) {
      const raw = await call('POST', '/v1/notify/template-preview', {
        channel_type: type,
        template: { title: '{{entity_name}}' },
      });
      expect(raw.status).toBe(400);
      expect(raw.body.details[0]).toMatchObject({ path: 'channel_type' });
      expect(raw.body.details[0].message).toMatch(new RegExp(`^A ${type} channel sends the event as JSON`));
    }
  });

  const ntfy = (path: string) => ({ channel_type: 'ntfy', config: { url: `${receiver.origin}/${path}` } });
  const at = (path: string) => receiver.received.filter((r) => r.path === `/${path}`);

  it('sends a tenant channel’s rendered title and body, about a check and about the made-up event', async () => {
    const topic = `tpl-${api.runtime}`;
    const made = await call('POST', '/v1/notify/channels', {
      name: 'Templated',
      ...ntfy(topic),
      template: TEMPLATE,
    });
    expect(made.status, made.text).toBe(201);
    expect(made.body.template).toEqual(TEMPLATE);
    expect((await call('GET', `/v1/notify/channels/${made.body.id}`)).body.template).toEqual(TEMPLATE);

    // Attached to no check: the test renders the made-up event and says so.
    const lone = await call('POST', `/v1/notify/channels/${made.body.id}/test`, {});
    expect(lone.status, lone.text).toBe(200);
    expect(lone.body.status, lone.text).toBe('sent');
    const [first] = at(topic);
    expect(first?.headers.title).toBe('Test: [down] Checkout API');
    expect(first?.body.toString()).toBe(
      'This is a test message from Vigil, rendered with a made-up event (Checkout API): nothing changed.\n\n' +
        'Health endpoint went up → down. Error: connect ECONNREFUSED 203.0.113.10:443',
    );

    // About a real check: its own names.
    const entityId = await newEntity(api, { name: 'Orders DB' });
    const checkId = await newCheck(api, quietTcpCheck(entityId, { name: 'Orders port' }));
    const about = await call('POST', `/v1/notify/channels/${made.body.id}/test`, { check_id: checkId });
    expect(about.body.status, about.text).toBe('sent');
    const second = at(topic)[1];
    expect(second?.headers.title).toBe('Test: [unknown] Orders DB');
    // ntfy keeps its console link line under the rendered body.
    expect(second?.body.toString()).toMatch(
      /^This is a test message from Vigil: nothing changed\.\n\nOrders port went unknown → unknown\.\nOpen in Vigil: https:\/\/vigil\.example\.com\/entities\/service\/svc-/,
    );
    expect(second?.headers.click).toMatch(/^https:\/\/vigil\.example\.com\/entities\/service\//);
  });

  it('refuses a bad template or one on a raw-event type with a 400, changing nothing', async () => {
    const before = (await call('GET', '/v1/notify/channels?limit=200')).body.channels.length;
    const bad = await call('POST', '/v1/notify/channels', {
      name: 'Bad',
      ...ntfy('bad'),
      template: { title: 'ok', body: 'Hi {{entity}}' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.details).toEqual([
      {
        path: 'template.body',
        message: expect.stringMatching(/^\{\{entity\}\} is not a field: use entity_name, /),
      },
    ]);
    for (const channel_type of ['webhook', 'nats']) {
      const config = channel_type === 'nats' ? { subject: 'a.b' } : { url: `${receiver.origin}/hook` };
      const raw = await call('POST', '/v1/notify/channels', {
        name: 'Raw',
        channel_type,
        config,
        template: { title: '{{entity_name}}' },
      });
      expect(raw.status, raw.text).toBe(400);
      expect(raw.body.details[0]).toMatchObject({ path: 'template' });
      expect(raw.body.details[0].message).toMatch(
        new RegExp(`^A ${channel_type} channel sends the event as JSON`),
      );
    }
    const entityId = await newEntity(api);
    const checkId = await newCheck(api, quietTcpCheck(entityId));
    const own = await call('POST', `/v1/checks/${checkId}/policy/channels`, {
      ...ntfy('own'),
      template: { title: '{{#link}}x' },
    });
    expect(own.status).toBe(400);
    expect(own.body.details[0].path).toBe('template.title');
    expect((await call('GET', '/v1/notify/channels?limit=200')).body.channels.length).toBe(before);
    expect((await call('GET', `/v1/checks/${checkId}/policy`)).body.channels).toEqual([]);
  });

  it('stores a check’s own channel’s template and replaces or removes a tenant channel’s with PUT', async () => {
    const entityId = await newEntity(api);
    const checkId = await newCheck(api, quietTcpCheck(entityId));
    const own = await call('POST', `/v1/checks/${checkId}/policy/channels`, {
      ...ntfy('own'),
      template: { body: 'B' },
    });
    expect(own.status, own.text).toBe(201);
    expect(own.body.template).toEqual({ body: 'B' });
    expect((await call('GET', `/v1/checks/${checkId}/policy`)).body.channels[0].template).toEqual({
      body: 'B',
    });

    const made = await call('POST', '/v1/notify/channels', { name: 'Editable', ...ntfy('edit') });
    expect(made.body.template).toBeUndefined();
    const path = `/v1/notify/channels/${made.body.id}`;
    const set = await call('PUT', path, { template: { title: 'T {{kind}}' } });
    expect(set.status, set.text).toBe(200);
    expect(set.body.template).toEqual({ title: 'T {{kind}}' });
    // A rename keeps it; a bad one is refused and changes nothing.
    expect((await call('PUT', path, { name: 'Renamed' })).body.template).toEqual({ title: 'T {{kind}}' });
    const bad = await call('PUT', path, { name: 'Other', template: { title: '{{nope}}' } });
    expect(bad.status).toBe(400);
    expect(bad.body.details[0].path).toBe('template.title');
    const read = await call('GET', path);
    expect(read.body).toMatchObject({ name: 'Renamed', template: { title: 'T {{kind}}' } });
    // To a raw-event type only without it.
    const toHook = { channel_type: 'webhook', config: { url: `${receiver.origin}/hook` } };
    const kept = await call('PUT', path, toHook);
    expect(kept.status).toBe(400);
    expect(kept.body.details[0]).toMatchObject({ path: 'template' });
    expect((await call('GET', path)).body.channel_type).toBe('ntfy');
    const removed = await call('PUT', path, { template: null });
    expect(removed.status, removed.text).toBe(200);
    expect(removed.body.template).toBeUndefined();
    expect((await call('PUT', path, toHook)).status).toBe(200);
  });
});
