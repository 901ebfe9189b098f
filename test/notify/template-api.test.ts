import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';

/**
 * Message templates through the API in both runtimes (docs/notifications.md "Message templates"):
 * the preview renders a made-up event and refuses what saving refuses, with sentences.
 */

describe.each(runtimes)('message templates API ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  let viewer: string;
  const call = (method: string, path: string, body?: unknown, key = api.adminKey) =>
    api.request(method, path, { key, body });

  beforeAll(async () => {
    api = await start({
      env: { VIGIL_EGRESS_ALLOW: '127.0.0.0/8', VIGIL_PUBLIC_URL: 'https://vigil.example.com' },
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
});
