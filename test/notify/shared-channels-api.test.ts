import { describe, expect, it } from 'vitest';
import { runtimes } from '../support/api-harness.ts';
import { useNotifyApi } from './support/notify-api.ts';

/**
 * Tenant channels through the API in both runtimes: create once, attach to many checks by id,
 * detach, delete (detached everywhere), the same validation, SSRF guard and redaction as a
 * check's channels, and another tenant's channel answering 404 wherever its id is given.
 */

const hook = (path: string, secret?: string) => ({
  channel_type: 'webhook',
  config: { url: `https://127.0.0.1:9/${path}`, ...(secret ? { secret } : {}) },
});

describe.each(runtimes)('tenant channels API ($runtime runtime)', ({ start }) => {
  const t = useNotifyApi(start);
  const { call } = t;
  const createShared = async (name: string, body: object = hook(name)) => {
    const res = await call('POST', '/v1/notify/channels', { name, ...body });
    expect(res.status, res.text).toBe(201);
    return res.body as { id: string; name: string; check_id: null; config: Record<string, string> };
  };
  const policyChannels = async (checkId: string, key = t.api.adminKey) =>
    (await call('GET', `/v1/checks/${checkId}/policy`, undefined, key)).body.channels as {
      id: string;
      check_id: string | null;
      name?: string;
      config: Record<string, string>;
    }[];

  it('creates, reads, renames, re-points and deletes a tenant channel; secrets are write-only', async () => {
    const made = await createShared('On-call', hook('oncall', 'whsec-shared'));
    expect(Object.keys(made).sort()).toEqual([
      'channel_type',
      'check_id',
      'config',
      'created_at',
      'id',
      'name',
      'updated_at',
      'warnings',
    ]);
    expect(made).toMatchObject({ name: 'On-call', check_id: null, channel_type: 'webhook', warnings: [] });
    expect(made.config).toEqual({ url: 'https://127.0.0.1:9/oncall', secret: '********' });

    const read = await call('GET', `/v1/notify/channels/${made.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id: made.id, name: 'On-call', attached_check_ids: [] });
    const listed = await call('GET', '/v1/notify/channels?limit=200');
    expect(listed.body.channels.map((c: { id: string }) => c.id)).toContain(made.id);

    const renamed = await call('PUT', `/v1/notify/channels/${made.id}`, { name: 'Pager' });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'Pager', config: made.config });
    const moved = await call('PUT', `/v1/notify/channels/${made.id}`, {
      channel_type: 'slack',
      config: { url: 'https://127.0.0.1:9/slack/T/B/X' },
    });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body).toMatchObject({ name: 'Pager', channel_type: 'slack' });
    const half = await call('PUT', `/v1/notify/channels/${made.id}`, { channel_type: 'slack' });
    expect(half.status).toBe(400);
    expect(half.body.details[0].path).toBe('config');
    const bad = await call('PUT', `/v1/notify/channels/${made.id}`, {
      channel_type: 'webhook',
      config: { url: 'ftp://127.0.0.1/x' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.details[0].path).toBe('config.url');

    expect((await call('DELETE', `/v1/notify/channels/${made.id}`)).status).toBe(204);
    expect((await call('GET', `/v1/notify/channels/${made.id}`)).status).toBe(404);
    expect((await call('DELETE', `/v1/notify/channels/${made.id}`)).status).toBe(404);
  });

  it.each([
    [{ channel_type: 'webhook', config: { url: 'https://127.0.0.1:9/x' } }, 'name'],
    [{ name: '', ...hook('x') }, 'name'],
    [{ name: 'x'.repeat(101), ...hook('x') }, 'name'],
    [{ name: 'x', channel_type: 'carrier_pigeon', config: {} }, 'channel_type'],
    [{ name: 'x', channel_type: 'nats', config: { subject: 'a.>' } }, 'config.subject'],
    [{ name: 'x', channel_type: 'webhook', config: { url: 'https://10.1.2.3/hook' } }, 'config.url'],
  ])('refuses the tenant channel %j with 400', async (body, field) => {
    const res = await call('POST', '/v1/notify/channels', body);
    expect(res.status, res.text).toBe(400);
    expect(res.body.details.map((d: { path: string }) => d.path).join(' ')).toContain(field);
  });

  it('attaches one channel to many checks, detaches it, and its delete detaches it everywhere', async () => {
    const shared = await createShared('Shared');
    const a = await t.quietCheck();
    const b = await t.quietCheck();
    await call('POST', `/v1/checks/${a}/policy/channels`, hook('own-a'));
    for (const checkId of [a, b]) {
      const res = await call('POST', `/v1/checks/${checkId}/policy/channels`, { channel_id: shared.id });
      expect(res.status, res.text).toBe(201);
      expect(res.body).toMatchObject({ id: shared.id, check_id: null, name: 'Shared' });
    }
    expect((await policyChannels(a)).map((c) => [c.check_id, c.name ?? null])).toEqual([
      [a, null],
      [null, 'Shared'],
    ]);
    const again = await call('POST', `/v1/checks/${a}/policy/channels`, { channel_id: shared.id });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('CONFLICT');
    const read = await call('GET', `/v1/notify/channels/${shared.id}`);
    expect([...read.body.attached_check_ids].sort()).toEqual([a, b].sort());

    expect((await call('DELETE', `/v1/checks/${b}/policy/channels/${shared.id}`)).status).toBe(204);
    expect(await policyChannels(b)).toEqual([]);
    expect((await call('GET', `/v1/notify/channels/${shared.id}`)).body.attached_check_ids).toEqual([a]);
    expect((await call('DELETE', `/v1/checks/${b}/policy/channels/${shared.id}`)).status).toBe(404);

    await call('POST', `/v1/checks/${b}/policy/channels`, { channel_id: shared.id });
    expect((await call('DELETE', `/v1/notify/channels/${shared.id}`)).status).toBe(204);
    expect((await policyChannels(a)).map((c) => c.id)).not.toContain(shared.id);
    expect(await policyChannels(b)).toEqual([]);
    expect(await t.api.app.channels.listForCheck(b)).toEqual([]);
    // The attachments are gone, not only hidden: the checks' limits count them no more.
    for (let i = 0; i < 10; i += 1) {
      const res = await call('POST', `/v1/checks/${b}/policy/channels`, hook(`fill-${i}`));
      expect(res.status, res.text).toBe(201);
    }
  });

  it('counts attachments toward the 10 channels of a check', async () => {
    const checkId = await t.quietCheck();
    for (let i = 0; i < 9; i += 1) await call('POST', `/v1/checks/${checkId}/policy/channels`, hook(`c${i}`));
    const first = await createShared('Tenth');
    const second = await createShared('Eleventh');
    expect(
      (await call('POST', `/v1/checks/${checkId}/policy/channels`, { channel_id: first.id })).status,
    ).toBe(201);
    const over = await call('POST', `/v1/checks/${checkId}/policy/channels`, { channel_id: second.id });
    expect(over.status).toBe(403);
    expect(over.body.code).toBe('LIMIT_EXCEEDED');
  });

  it('redacts URLs and secrets of tenant channels for a read-only key, and refuses its writes', async () => {
    const shared = await createShared('Viewer sees', hook('viewer', 'whsec-viewer'));
    const checkId = await t.quietCheck();
    await call('POST', `/v1/checks/${checkId}/policy/channels`, { channel_id: shared.id });
    const read = await call('GET', `/v1/notify/channels/${shared.id}`, undefined, t.viewer);
    expect(read.body.config).toEqual({ url: '********', secret: '********' });
    expect((await policyChannels(checkId, t.viewer))[0]?.config).toEqual({
      url: '********',
      secret: '********',
    });
    const listed = await call('GET', '/v1/notify/channels?limit=200', undefined, t.viewer);
    // The channel URL (https://127.0.0.1:9/…) is redacted; the check's name ("tcp 127.0.0.1:9", its
    // target, which read-only keys read on the check) may name the same address.
    for (const secret of ['whsec-viewer', 'https://127.0.0.1:9']) expect(listed.text).not.toContain(secret);
    for (const [method, path, body] of [
      ['POST', '/v1/notify/channels', { name: 'x', ...hook('x') }],
      ['PUT', `/v1/notify/channels/${shared.id}`, { name: 'y' }],
      ['DELETE', `/v1/notify/channels/${shared.id}`, undefined],
      ['POST', `/v1/checks/${checkId}/policy/channels`, { channel_id: shared.id }],
    ] as const) {
      const res = await call(method, path, body, t.viewer);
      expect(res.status, `${method} ${path}`).toBe(403);
    }
  });

  it("answers 404 for another tenant's channel however its id is given", async () => {
    const other = await t.api.createTenant('Neighbour');
    const theirs = (
      await call('POST', '/v1/notify/channels', { name: 'Theirs', ...hook('theirs') }, other.key)
    ).body;
    const mine = await t.quietCheck();
    const attach = await call('POST', `/v1/checks/${mine}/policy/channels`, { channel_id: theirs.id });
    expect(attach.status).toBe(404);
    expect((await call('GET', `/v1/notify/channels/${theirs.id}`)).status).toBe(404);
    expect((await call('POST', `/v1/notify/channels/${theirs.id}/test`, { check_id: mine })).status).toBe(
      404,
    );
    const route = await call('POST', '/v1/notify/routes', { channel_ids: [theirs.id] });
    expect(route.status).toBe(400);
    expect(route.body.details[0].path).toBe('channel_ids');
    const listed = await call('GET', '/v1/notify/channels?limit=200');
    expect(listed.body.channels.map((c: { id: string }) => c.id)).not.toContain(theirs.id);
  });
});
