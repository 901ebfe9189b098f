import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { getCredential } from '../../lib/people/credential-items.ts';
import { RESET_TTL_MS } from '../../lib/people/reset/password-reset.ts';
import { uniqueEmail } from '../auth/team-helpers.ts';
import type { ApiHarness } from '../support/api-harness.ts';
import { memberWithPassword, PUBLIC_URL, type ResetRig, resetRigs, tokensIn } from './reset-rig.ts';
import { GOOD_PASSWORD, signedIn, signIn, withCookie } from './session-helpers.ts';

/**
 * Password reset by e-mail (issue 41): a request for an address with a password gets one e-mail
 * with a link per team; a link sets a new password once, within 30 minutes, for a member still
 * there; an unknown address gets the same 202 and no mail. Both runtimes.
 */

const NEW_PASSWORD = 'purple-otter-carries-31-lanterns';

describe.each(resetRigs)('password reset ($runtime runtime)', { timeout: 60_000 }, ({ start }) => {
  let rig: ResetRig;
  let api: ApiHarness;

  beforeAll(async () => {
    rig = await start();
    api = rig.api;
  });
  afterAll(async () => {
    await rig.close();
  });
  // Each test starts with full rate-limit buckets.
  beforeEach(() => {
    rig.clock.advance(2 * 3_600_000);
  });

  const request = (email: string) => api.request('POST', '/v1/password-reset', { body: { email } });
  const confirm = (token: string, password = NEW_PASSWORD) =>
    api.request('POST', '/v1/password-reset/confirm', { body: { token, password } });
  const mailsTo = (email: string) => rig.mails().filter((m) => m.to.includes(email));

  it('e-mails one message with a link per team, each link working once', async () => {
    const email = uniqueEmail('reset');
    const first = await memberWithPassword(api, rig.clock, email, 'Alpha');
    const second = await memberWithPassword(api, rig.clock, email, 'Beta');

    const res = await request(email.toUpperCase());
    expect(res.status).toBe(202);
    expect(res.text).toBe('');
    const mails = mailsTo(email);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toBe('Reset your Vigil password');
    expect(mails[0]?.text).toContain('30 minutes');
    expect(mails[0]?.text).toContain(`Alpha: ${PUBLIC_URL}/reset?token=vpr_`);
    expect(mails[0]?.text).toContain(`Beta: ${PUBLIC_URL}/reset?token=vpr_`);
    const [alpha, beta] = tokensIn(mails[0]);
    expect(alpha).toBeDefined();
    expect(beta).toBeDefined();
    expect(api.logs.join('\n')).not.toContain(alpha);

    const done = await confirm(alpha ?? '');
    expect(done.status, done.text).toBe(204);
    const changed = await getCredential(api.table, first.tenantId, first.userId);
    expect(changed?.password_hash).not.toBe('stand-in');
    expect(changed?.password_hash).not.toContain(NEW_PASSWORD);
    expect(changed?.password_changed_at).toBe(new Date(rig.clock.now()).toISOString());

    // The team's audit log names the person, by their own hand.
    const log = await api.request('GET', `/v1/audit?target=${first.userId}`, { key: first.adminKey });
    expect(log.status, log.text).toBe(200);
    const reset = log.body.entries.find((e: { action: string }) => e.action === 'password_reset.confirm');
    expect(reset?.actor).toEqual({ type: 'user', id: first.userId, label: email });
    expect(log.text).not.toContain(alpha);
    expect(log.text).not.toContain(NEW_PASSWORD);

    const again = await confirm(alpha ?? '');
    expect(again.status).toBe(400);
    expect(again.body.details).toEqual([{ path: 'token', message: expect.stringContaining('already used') }]);
    // The other team's link is its own.
    expect((await getCredential(api.table, second.tenantId, second.userId))?.password_hash).toBe('stand-in');
    expect((await confirm(beta ?? '')).status).toBe(204);
  });

  it('signs in with the new password only, and ends every session of the person', async () => {
    const email = uniqueEmail('cycle');
    await memberWithPassword(api, rig.clock, email, undefined, GOOD_PASSWORD);
    const session = await signedIn(api, email);
    expect((await withCookie(api, 'GET', '/v1/me', session)).status).toBe(200);

    await request(email);
    const [token] = tokensIn(mailsTo(email)[0]);
    expect((await confirm(token ?? '')).status).toBe(204);

    expect((await withCookie(api, 'GET', '/v1/me', session)).status).toBe(401);
    expect((await signIn(api, { email, password: GOOD_PASSWORD })).status).not.toBe(204);
    const fresh = await signedIn(api, email, NEW_PASSWORD);
    expect((await withCookie(api, 'GET', '/v1/me', fresh)).status).toBe(200);
  });

  it('answers an unknown address the same 202 and sends nothing', async () => {
    const before = rig.mails().length;
    const known = uniqueEmail('known');
    await memberWithPassword(api, rig.clock, known);
    const unknownRes = await request(uniqueEmail('nobody'));
    const knownRes = await request(known);
    expect(unknownRes.status).toBe(202);
    expect(unknownRes.text).toBe(knownRes.text);
    expect(rig.mails()).toHaveLength(before + 1);
    expect(mailsTo(known)).toHaveLength(1);
  });

  it('refuses a link 30 minutes after it was sent', async () => {
    const email = uniqueEmail('late');
    await memberWithPassword(api, rig.clock, email);
    await request(email);
    const [token] = tokensIn(mailsTo(email)[0]);
    rig.clock.advance(RESET_TTL_MS);
    const res = await confirm(token ?? '');
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([{ path: 'token', message: expect.stringContaining('expired') }]);
  });

  it('refuses the link of a member removed since', async () => {
    const email = uniqueEmail('gone');
    const member = await memberWithPassword(api, rig.clock, email);
    await request(email);
    const [token] = tokensIn(mailsTo(email)[0]);
    const removed = await api.request('DELETE', `/v1/settings/users/${member.userId}`, {
      key: member.adminKey,
    });
    expect(removed.status).toBe(204);
    expect((await confirm(token ?? '')).status).toBe(400);
  });

  it('refuses an older link once the password was reset by a newer one', async () => {
    const email = uniqueEmail('twice');
    await memberWithPassword(api, rig.clock, email);
    await request(email);
    await request(email);
    const [older] = tokensIn(mailsTo(email)[0]);
    const [newer] = tokensIn(mailsTo(email)[1]);
    expect((await confirm(newer ?? '')).status).toBe(204);
    expect((await confirm(older ?? '')).status).toBe(400);
  });

  it('refuses a password the policy refuses, keeping the link usable', async () => {
    const email = uniqueEmail('weak');
    await memberWithPassword(api, rig.clock, email);
    await request(email);
    const [token] = tokensIn(mailsTo(email)[0]);
    const weak = await confirm(token ?? '', 'short');
    expect(weak.status).toBe(400);
    expect(weak.body.details).toEqual([{ path: 'password', message: expect.any(String) }]);
    expect((await confirm(token ?? '')).status).toBe(204);
  });

  it('sends at most three e-mails an hour to an address, answering 202 all the same', async () => {
    const email = uniqueEmail('often');
    await memberWithPassword(api, rig.clock, email);
    for (let i = 0; i < 5; i += 1) expect((await request(email)).status).toBe(202);
    expect(mailsTo(email)).toHaveLength(3);
    rig.clock.advance(3_600_000);
    expect((await request(email)).status).toBe(202);
    expect(mailsTo(email)).toHaveLength(4);
  });

  it('answers 429 past ten requests an hour from one address', async () => {
    const answers: number[] = [];
    for (let i = 0; i < 11; i += 1) answers.push((await request(uniqueEmail('flood'))).status);
    expect(answers.slice(0, 10)).toEqual(Array(10).fill(202));
    expect(answers[10]).toBe(429);
  });

  it('refuses malformed and unknown tokens alike', async () => {
    expect((await confirm('vpr_nothing')).status).toBe(400);
    const unknown = await confirm(`vpr_${'A'.repeat(43)}`);
    expect(unknown.status).toBe(400);
    expect(unknown.body.details).toEqual([{ path: 'token', message: expect.stringContaining('invalid') }]);
  });
});
