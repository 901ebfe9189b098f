import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';
import { join } from './team-helpers.ts';

/** The viewer role: a read-only person (docs/auth.md "Roles"); every key of a viewer reads only. */
describe.each(runtimes)('the viewer role ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;

  beforeAll(async () => {
    api = await start();
  });
  afterAll(async () => {
    await api.close();
  });

  it('lets a viewer read and refuses every write with 403 READ_ONLY, even with a key created read-write', async () => {
    const viewer = await join(api, api.adminKey, { role: 'viewer' });
    const me = await api.request('GET', '/v1/me', { key: viewer.key });
    expect(me.status).toBe(200);
    expect(me.body.user).toMatchObject({ id: viewer.userId, role: 'viewer' });

    expect((await api.request('GET', '/v1/blueprints', { key: viewer.key })).status).toBe(200);
    const write = await api.request('POST', '/v1/blueprints', {
      key: viewer.key,
      body: { slug: 'viewer-made', name: 'Viewer made' },
    });
    expect(write.status).toBe(403);
    expect(write.body.code).toBe('READ_ONLY');
    expect((await api.request('GET', '/v1/blueprints/viewer-made', { key: api.adminKey })).status).toBe(404);

    // Creating a key is a write: a viewer cannot mint a key that writes.
    const made = await api.request('POST', '/v1/auth/keys', { key: viewer.key, body: { label: 'rw' } });
    expect(made.status).toBe(403);
    expect(made.body.code).toBe('READ_ONLY');
  });

  it('lists the viewer with its role among the members', async () => {
    const viewer = await join(api, api.adminKey, { role: 'viewer' });
    const list = await api.request('GET', '/v1/settings/users', { key: api.adminKey });
    expect(list.body.find((entry: { id: string }) => entry.id === viewer.userId)).toMatchObject({
      role: 'viewer',
    });
  });
});
