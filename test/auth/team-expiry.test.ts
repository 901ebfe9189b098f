import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVITATION_TTL_MS } from '../../lib/auth/team/team-invite.ts';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';
import { accept, invite, listedIds, uniqueEmail } from './team-helpers.ts';

describe.each(runtimes)('invitation expiry ($runtime runtime)', ({ start }) => {
  const clock = createFakeClock();
  let api: ApiHarness;

  beforeAll(async () => {
    api = await start({ clock });
  });
  afterAll(async () => {
    await api.close();
  });

  it('sets expires_at seven days ahead and a storage ttl at that moment', async () => {
    const invited = await invite(api, api.adminKey, { email: uniqueEmail() });
    expect(invited.body.created_at).toBe(new Date(clock.now()).toISOString());
    expect(Date.parse(invited.body.expires_at)).toBe(clock.now() + INVITATION_TTL_MS);
  });

  it('accepts a token until the last millisecond before expiry', async () => {
    const invited = await invite(api, api.adminKey, { email: uniqueEmail() });
    clock.advance(INVITATION_TTL_MS - 1);
    expect((await accept(api, invited.body.token)).status).toBe(201);
  });

  it('rejects an expired token with 400 VALIDATION_ERROR and stops listing the invitation', async () => {
    const invited = await invite(api, api.adminKey, { email: uniqueEmail() });
    expect(await listedIds(api, api.adminKey)).toContain(invited.body.id);
    clock.advance(INVITATION_TTL_MS);
    const res = await accept(api, invited.body.token);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    expect(res.body.details).toEqual([{ path: 'token', message: expect.stringContaining('expired') }]);
    expect(await listedIds(api, api.adminKey)).not.toContain(invited.body.id);
  });

  it('replaces an expired invitation for the same e-mail; only the new token works', async () => {
    const email = uniqueEmail('again');
    const first = await invite(api, api.adminKey, { email });
    clock.advance(INVITATION_TTL_MS + 1000);
    const second = await invite(api, api.adminKey, { email });
    expect(second.status).toBe(201);
    expect(second.body.id).not.toBe(first.body.id);
    expect((await accept(api, first.body.token)).status).toBe(400);
    const accepted = await accept(api, second.body.token);
    expect(accepted.status).toBe(201);
    expect(accepted.body.user.email).toBe(email);
  });

  it('lets an admin cancel an expired invitation that was never replaced', async () => {
    const invited = await invite(api, api.adminKey, { email: uniqueEmail() });
    clock.advance(INVITATION_TTL_MS + 1000);
    const res = await api.request('DELETE', `/v1/settings/users/${invited.body.id}`, { key: api.adminKey });
    expect(res.status).toBe(204);
  });
});
