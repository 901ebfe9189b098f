import { createServer, type Server } from 'node:http';
import type { CallToolResult } from '@modelcontextprotocol/client';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inProcessProber } from '../../lib/check-types/run-probe.ts';
import type { Principal } from '../../lib/domain/principal.ts';
import { systemClock } from '../../lib/platform/clock.ts';
import { type Receiver, startReceiver } from '../notify/channels/receiver.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';
import { listenOnLoopback, probeCellSlot } from '../support/cell-fixtures.ts';
import {
  assertionsFor,
  ENCODINGS,
  filler,
  headerValue,
  leakOf,
  PLACES,
  type Reflection,
  reflectingEndpoint,
} from '../support/secret-leaks.ts';
import { createTlsFixtures } from '../support/tls-fixtures.ts';
import { enableToolsets } from '../support/toolsets.ts';
import { newEntity } from './check-fixtures.ts';

/**
 * A check's secrets never reach its results (docs/api.md "Secrets in results"), in both runtimes:
 * the fourth audit's scenario (a member points an admin's check with a write-only header at a
 * same-origin path that echoes request headers and asserts on the echo; a read-only key then reads
 * the result), a target that echoes the header in other encodings and places, and a target's own
 * Set-Cookie. Real targets on 127.0.0.1, probed by the real prober in the real cell runner; the
 * results read back over the API with a read-only key, over MCP as a read-only caller, and in the
 * transition and the alert sent.
 */

const SECRET = 'sk_live_7Qm2Vx9LpR4tZ8wK3nB6';
const COOKIE = 'sess_4f9a8b7c6d5e4f3a2b1c';
/** Every form of SECRET an echo below can carry. */
const LEAKS = [
  SECRET,
  Buffer.from(SECRET).toString('base64').replace(/=+$/, ''),
  Buffer.from(SECRET).toString('hex'),
  SECRET.slice(0, 12),
  SECRET.slice(-12),
];

let target: Server;
let origin: string;
/** The x-api-key each request to the target carried, by path. */
const seen: { path: string; key: string | undefined }[] = [];
/** What /reflect answered last. */
const last: Reflection = { text: '', value: '' };
const reflect = reflectingEndpoint(last);

beforeAll(async () => {
  target = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const key = req.headers['x-api-key'];
    seen.push({ path: url.pathname, key: typeof key === 'string' ? key : undefined });
    const json = (body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(200, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    };
    const value = String(key ?? '');
    if (url.pathname === '/reflect') reflect(req, res);
    else if (url.pathname === '/health') json({ status: 'ok' });
    // httpbin's /headers: the request's headers, at the top level.
    else if (url.pathname === '/headers') json(req.headers);
    // The header again, in the forms and places a reflecting endpoint uses.
    else if (url.pathname === '/mirror') {
      json(
        {
          echo: value,
          data: { b64: Buffer.from(value).toString('base64'), hex: Buffer.from(value).toString('hex') },
          halves: [value.slice(0, 14), value.slice(14)],
        },
        { 'x-echo': encodeURIComponent(value) },
      );
    } else if (url.pathname === '/login') {
      json({ ok: true, session_token: COOKIE }, { 'set-cookie': `sid=${COOKIE}; HttpOnly; Path=/` });
    } else res.writeHead(404).end();
  });
  origin = `http://127.0.0.1:${await listenOnLoopback(target)}`;
});
afterAll(() => {
  target?.close();
});

const tls = createTlsFixtures();
let interval = 2000;

// biome-ignore lint/suspicious/noExplicitAny: tool results are inspected freely
const structured = (result: CallToolResult | undefined): any => result?.structuredContent;

describe.each(runtimes)('secrets and assertion messages ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  let memberKey: string;
  let readOnlyKey: string;
  let receiver: Receiver;
  const prober = inProcessProber({ clock: systemClock, allowPrivate: true });
  const viewer = (): Principal => ({
    tenantId: api.tenantId,
    userId: 'usr_viewer',
    keyId: 'key_viewer',
    role: 'member',
    readOnly: true,
  });

  beforeAll(async () => {
    receiver = await startReceiver(tls.valid, 'unused');
    api = await start({
      scheduler: false,
      env: { VIGIL_EGRESS_ALLOW: '127.0.0.0/8' },
      egress: { ca: [tls.caCert] },
    });
    const invite = await api.request('POST', '/v1/settings/users/invite', {
      key: api.adminKey,
      body: { email: `member-${api.runtime}@example.com` },
    });
    const accepted = await api.request('POST', '/v1/settings/users/accept', {
      body: { token: invite.body.token, name: 'Member' },
    });
    expect(accepted.status, accepted.text).toBe(201);
    memberKey = accepted.body.key;
    const ro = await api.request('POST', '/v1/auth/keys', {
      key: api.adminKey,
      body: { label: 'read-only', is_read_only: true },
    });
    readOnlyKey = ro.body.key;
    await enableToolsets(api, api.adminKey);
  });
  afterAll(async () => {
    await api?.close();
    await receiver?.close();
  });

  // biome-ignore lint/suspicious/noExplicitAny: response bodies are inspected freely
  const call = async (method: string, path: string, body?: unknown, key = api.adminKey): Promise<any> => {
    const res = await api.request(method, path, { key, body });
    expect(res.status, `${method} ${path}: ${res.text}`).toBeLessThan(300);
    return res.body;
  };
  /** An http check alone in its cell (its own interval), failing at the first failure. */
  const httpCheck = async (body: Record<string, unknown>) => {
    interval -= 1;
    return call('POST', '/v1/checks', {
      entity_id: await newEntity(api),
      check_type: 'http',
      failure_threshold: 1,
      interval_seconds: interval,
      ...body,
    });
  };
  let slotMs = Date.now() - 3_000_000;
  const probe = async (checkId: string) => {
    slotMs += 60_000;
    await probeCellSlot(api, prober, checkId, slotMs);
  };
  /** What a read-only key reads of the check's results and transitions, and a read-only MCP caller of its results. */
  const readable = async (checkId: string) => {
    const results = await api.request('GET', `/v1/checks/${checkId}/results`, { key: readOnlyKey });
    expect(results.status).toBe(200);
    const transitions = await api.request('GET', `/v1/checks/${checkId}/transitions`, { key: readOnlyKey });
    expect(transitions.status).toBe(200);
    const mcp = await api.app.tools.call(viewer(), 'get_check_results', { check_id: checkId, hours: 2 });
    expect(mcp?.isError, JSON.stringify(mcp)).toBeFalsy();
    return {
      latest: results.body.results[0] as { success: boolean; error_message: string },
      mcp: structured(mcp).results[0] as { error_message: string },
      text: [results.text, transitions.text, JSON.stringify(mcp)].join('\n'),
    };
  };
  const expectNoLeak = (text: string) => {
    for (const leak of LEAKS) expect(text).not.toContain(leak);
  };

  it("keeps an admin's write-only header out of a member's echo assertion (the audit's scenario)", async () => {
    const check = await httpCheck({ target_url: `${origin}/health`, headers: { 'X-Api-Key': SECRET } });
    expect(check.headers).toEqual({ 'X-Api-Key': '********' });

    // The member points the check at the echoing path on the same origin and asserts on the echo.
    const moved = await call(
      'PUT',
      `/v1/checks/${check.id}`,
      {
        target_url: `${origin}/headers`,
        assertions: [{ source: 'json', path: '$.x-api-key', op: 'eq', value: 'x' }],
      },
      memberKey,
    );
    expect(moved.headers).toEqual({});
    const before = seen.length;
    await probe(check.id);
    expect(seen.slice(before)).toEqual([{ path: '/headers', key: undefined }]);

    const read = await readable(check.id);
    expect(read.latest).toMatchObject({ success: false });
    expect(read.latest.error_message).toBe('assertion failed: $.x-api-key is missing, expected eq ********');
    expect(read.mcp.error_message).toBe(read.latest.error_message);
    expectNoLeak(read.text);
  });

  it('hides the header a target echoes back in any form, in results, transitions, MCP and the alert', async () => {
    const echoes = [
      { source: 'json', path: '$.echo', op: 'eq', value: 'x' },
      { source: 'json', path: '$.data', op: 'eq', value: 'x' },
      { source: 'json', path: '$.halves', op: 'eq', value: 'x' },
      { source: 'header', path: 'X-Echo', op: 'matches', value: '^nothing$' },
    ];
    for (const assertion of echoes) {
      // The admin's check on a path that reflects the request; the member only adds an assertion.
      const check = await httpCheck({
        target_url: `${origin}/mirror`,
        headers: { 'X-Api-Key': SECRET },
      });
      await call('POST', `/v1/checks/${check.id}/policy`, { cooldown_seconds: 0 });
      const path = `/slack/${api.runtime}-${check.id}`;
      await call('POST', `/v1/checks/${check.id}/policy/channels`, {
        channel_type: 'slack',
        config: { url: `${receiver.origin}${path}` },
      });
      const kept = await call('PUT', `/v1/checks/${check.id}`, { assertions: [assertion] }, memberKey);
      expect(kept.headers).toEqual({ 'X-Api-Key': '********' });
      const before = seen.length;
      await probe(check.id);
      expect(seen.slice(before)).toEqual([{ path: '/mirror', key: SECRET }]);

      const read = await readable(check.id);
      expect(read.latest.success, JSON.stringify(assertion)).toBe(false);
      expect(read.latest.error_message).toContain('********');
      expectNoLeak(read.text);

      await api.drainChanges();
      await api.runNotifyJobs();
      const sent = receiver.received.filter((r) => r.path === path).map((r) => r.body.toString('utf8'));
      expect(sent).toHaveLength(1);
      expect(sent[0]).toContain('assertion failed');
      expectNoLeak(sent.join('\n'));
    }
  });

  it("masks a target's Set-Cookie and secret-looking json values in assertion messages", async () => {
    const cookie = await httpCheck({
      target_url: `${origin}/login`,
      assertions: [{ source: 'header', path: 'Set-Cookie', op: 'contains', value: 'admin' }],
    });
    const token = await httpCheck({
      target_url: `${origin}/login?as=json`,
      assertions: [{ source: 'json', path: '$.session_token', op: 'eq', value: 'x' }],
    });
    await probe(cookie.id);
    await probe(token.id);
    const cookieRead = await readable(cookie.id);
    expect(cookieRead.latest.error_message).toBe(
      'assertion failed: header set-cookie is ********, expected contains ********',
    );
    const tokenRead = await readable(token.id);
    expect(tokenRead.latest.error_message).toBe(
      'assertion failed: $.session_token is ********, expected eq ********',
    );
    for (const text of [cookieRead.text, tokenRead.text]) expect(text).not.toContain(COOKIE);
  });

  it('stores and answers no generated secret, whatever a reflecting target does (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        headerValue,
        fc.constantFrom(...ENCODINGS),
        filler,
        fc.constantFrom(...PLACES),
        fc.nat(),
        async ({ value, secrets }, enc, lead, place, pick) => {
          const assertions = assertionsFor[place];
          const query = new URLSearchParams({ name: 'x-upstream', enc, lead, place });
          const check = await httpCheck({
            target_url: `${origin}/reflect?${query}`,
            headers: { 'X-Upstream': value },
            assertions: [assertions[pick % assertions.length]],
          });
          await probe(check.id);
          expect(last.value).toBe(value);
          const read = await readable(check.id);
          expect(read.latest.success).toBe(false);
          for (const secret of [value, ...secrets])
            expect(leakOf(read.text, secret), read.text).toBeUndefined();
        },
      ),
      { numRuns: 6 },
    );
  });
});
