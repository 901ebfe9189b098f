import { describe, expect, it } from 'vitest';
import { runtimes } from '../support/api-harness.ts';
import { useNotifyApi } from './support/notify-api.ts';

const POLICY_KEYS = [
  'channels',
  'check_id',
  'cooldown_seconds',
  'created_at',
  'flap_changes',
  'flap_settle_seconds',
  'flap_window_seconds',
  'id',
  'notify_on_recovery',
  'repeat_interval_seconds',
  'routes',
  'silenced',
  'suppress_when_upstream_down',
  'updated_at',
];

describe.each(runtimes)('notification policy API ($runtime runtime)', ({ start }) => {
  const t = useNotifyApi(start);
  const { call } = t;

  it('answers the defaults with no channels for a check without a policy', async () => {
    const checkId = await t.quietCheck();
    const res = await call('GET', `/v1/checks/${checkId}/policy`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      id: null,
      check_id: checkId,
      cooldown_seconds: 300,
      notify_on_recovery: true,
      silenced: false,
      repeat_interval_seconds: 0,
      suppress_when_upstream_down: true,
      flap_changes: 6,
      flap_window_seconds: 1800,
      flap_settle_seconds: 300,
      channels: [],
      routes: [],
      created_at: null,
      updated_at: null,
    });
  });

  it('creates the policy with 201, keeping defaults for absent fields, then updates it with 200', async () => {
    const checkId = await t.quietCheck();
    const first = await call('POST', `/v1/checks/${checkId}/policy`, {
      cooldown_seconds: 60,
      silenced: true,
    });
    expect(first.status, first.text).toBe(201);
    expect(Object.keys(first.body).sort()).toEqual(POLICY_KEYS);
    expect(first.body).toMatchObject({
      check_id: checkId,
      cooldown_seconds: 60,
      silenced: true,
      notify_on_recovery: true,
      repeat_interval_seconds: 0,
      suppress_when_upstream_down: true,
      channels: [],
    });
    expect(first.body.id).toMatch(/^pol_[0-9A-Z]{26}$/);

    const second = await call('POST', `/v1/checks/${checkId}/policy`, {
      repeat_interval_seconds: 600,
      notify_on_recovery: false,
    });
    expect(second.status, second.text).toBe(200);
    expect(second.body).toMatchObject({
      id: first.body.id,
      cooldown_seconds: 60,
      silenced: true,
      notify_on_recovery: false,
      repeat_interval_seconds: 600,
      created_at: first.body.created_at,
    });
    expect((await call('GET', `/v1/checks/${checkId}/policy`)).body).toEqual(second.body);
  });

  it('bumps the stored revision on every write', async () => {
    const checkId = await t.quietCheck();
    await call('POST', `/v1/checks/${checkId}/policy`, {});
    expect((await t.api.app.policies.get(checkId))?.revision).toBe(1);
    await call('POST', `/v1/checks/${checkId}/policy`, { silenced: false });
    expect((await t.api.app.policies.get(checkId))?.revision).toBe(2);
  });

  it('lets one of two writes based on the same revision win', async () => {
    const checkId = await t.quietCheck();
    await call('POST', `/v1/checks/${checkId}/policy`, {});
    const read = await t.api.app.policies.get(checkId);
    if (!read) throw new Error('policy missing');
    const outcomes = await Promise.all([
      t.api.app.policies.put({ ...read, cooldown_seconds: 1 }),
      t.api.app.policies.put({ ...read, cooldown_seconds: 2 }),
    ]);
    expect(outcomes.filter((o) => o !== undefined)).toHaveLength(1);
    expect((await t.api.app.policies.get(checkId))?.revision).toBe(2);
  });

  it('settles concurrent API writes without losing either', async () => {
    const checkId = await t.quietCheck();
    const [a, b] = await Promise.all([
      call('POST', `/v1/checks/${checkId}/policy`, { cooldown_seconds: 10 }),
      call('POST', `/v1/checks/${checkId}/policy`, { silenced: true }),
    ]);
    expect([a?.status, b?.status].sort()).toEqual([200, 201]);
    const read = await call('GET', `/v1/checks/${checkId}/policy`);
    expect(read.body).toMatchObject({ cooldown_seconds: 10, silenced: true });
  });

  it.each([
    [{ cooldown_seconds: -1 }, 'cooldown_seconds'],
    [{ cooldown_seconds: 86_401 }, 'cooldown_seconds'],
    [{ cooldown_seconds: 1.5 }, 'cooldown_seconds'],
    [{ repeat_interval_seconds: 30 }, 'repeat_interval_seconds'],
    [{ repeat_interval_seconds: 86_401 }, 'repeat_interval_seconds'],
    [{ silenced: 'yes' }, 'silenced'],
    [{ silence: true }, ''],
  ])('refuses the body %j with 400 naming the field', async (body, field) => {
    const checkId = await t.quietCheck();
    const res = await call('POST', `/v1/checks/${checkId}/policy`, body);
    expect(res.status, res.text).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    if (field) expect(res.body.details.map((d: { path: string }) => d.path)).toContain(field);
    expect((await call('GET', `/v1/checks/${checkId}/policy`)).body.id).toBeNull();
  });

  it('accepts the bounds: cooldown 0 and 86400, repeat 0, 60 and 86400', async () => {
    const checkId = await t.quietCheck();
    for (const body of [
      { cooldown_seconds: 0, repeat_interval_seconds: 60 },
      { cooldown_seconds: 86_400, repeat_interval_seconds: 86_400 },
      { repeat_interval_seconds: 0 },
    ]) {
      const res = await call('POST', `/v1/checks/${checkId}/policy`, body);
      expect([200, 201], res.text).toContain(res.status);
    }
  });

  it('includes the channels, redacting URLs for read-only keys and secrets for everyone', async () => {
    const checkId = await t.quietCheck();
    const hook = await call('POST', `/v1/checks/${checkId}/policy/channels`, {
      channel_type: 'webhook',
      config: { url: 'https://127.0.0.1:9/hook', secret: 's3cret-value' },
    });
    expect(hook.status, hook.text).toBe(201);
    // The write's answer adds its setup warnings (none for a webhook); the policy lists the channel.
    const { warnings, ...created } = hook.body;
    expect(warnings).toEqual([]);
    const admin = await call('GET', `/v1/checks/${checkId}/policy`);
    expect(admin.body.channels).toEqual([created]);
    expect(admin.body.channels[0].config).toEqual({ url: 'https://127.0.0.1:9/hook', secret: '********' });
    const readOnly = await call('GET', `/v1/checks/${checkId}/policy`, undefined, t.viewer);
    expect(readOnly.status).toBe(200);
    expect(readOnly.body.channels[0].config).toEqual({ url: '********', secret: '********' });
    expect(readOnly.text).not.toContain('s3cret');
    expect(readOnly.text).not.toContain('127.0.0.1:9');
  });

  it('answers 403 READ_ONLY to a read-only key writing the policy', async () => {
    const checkId = await t.quietCheck();
    const res = await call('POST', `/v1/checks/${checkId}/policy`, { silenced: true }, t.viewer);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('READ_ONLY');
    expect((await call('GET', `/v1/checks/${checkId}/policy`)).body.silenced).toBe(false);
  });

  it('answers 404 for another tenant’s check, a deleted check, and a malformed id', async () => {
    const checkId = await t.quietCheck();
    const other = await t.api.createTenant('PolicyOther');
    for (const res of [
      await call('GET', `/v1/checks/${checkId}/policy`, undefined, other.key),
      await call('POST', `/v1/checks/${checkId}/policy`, { silenced: true }, other.key),
    ]) {
      expect(res.status, res.text).toBe(404);
      expect(res.body).toEqual({ error: 'check not found', code: 'NOT_FOUND' });
    }
    expect((await call('GET', `/v1/checks/${checkId}/policy`)).body.silenced).toBe(false);
    expect((await call('GET', '/v1/checks/chk_nope/policy')).status).toBe(404);
    const gone = await t.quietCheck();
    expect((await call('DELETE', `/v1/checks/${gone}`)).status).toBe(204);
    expect((await call('POST', `/v1/checks/${gone}/policy`, {})).status).toBe(404);
  });
});
