import { once } from 'node:events';
import { createServer as createHttpServer, type RequestListener } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Server } from 'node:net';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '../../lib/domain/principal.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';
import { recordingListener, type SeenRequest } from '../support/recording-listener.ts';
import { createTlsFixtures } from '../support/tls-fixtures.ts';

/**
 * An action's secrets stay with it (docs/actions.md "Headers follow their origin", "Executions"):
 * its headers reach only the origin they were stored with, whatever a member's vars say or an
 * admin's URL change does; a receiver that echoes the request never shows them (or the callback
 * token) in an execution, over the API or MCP; a JSON body takes no injected fields; read-only
 * keys see the URL's credentials as ********.
 */

interface Echo {
  url: string;
  seen: SeenRequest[];
  close(): Promise<void>;
}

/**
 * Answers 200 with the request's headers and body as JSON; with `?header=<name>&pad=<n>`, with
 * <n> filler characters and then that header's value alone.
 */
const echo = (seen: SeenRequest[]): RequestListener =>
  recordingListener(seen, ({ path, headers, body }, res) => {
    const query = new URL(path, 'http://x').searchParams;
    const header = query.get('header');
    res.writeHead(200, { 'content-type': 'application/json' });
    if (header) res.end(`${'.'.repeat(Number(query.get('pad')))}${headers[header]}`);
    else res.end(JSON.stringify({ headers, body }));
  });

async function listen(server: Server, scheme: 'http' | 'https', seen: SeenRequest[]): Promise<Echo> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `${scheme}://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: async () => {
      const http = server as unknown as { closeAllConnections(): void };
      http.closeAllConnections();
      server.close();
    },
  };
}

const tls = createTlsFixtures();
const SECRET = 'Bearer sk_live_0123456789abcdefghij';
const API_KEY = 'ak-9f8e7d6c5b4a3210';

let home: Echo;
let elsewhere: Echo;
beforeAll(async () => {
  const homeSeen: SeenRequest[] = [];
  const elsewhereSeen: SeenRequest[] = [];
  home = await listen(createHttpsServer(tls.valid, echo(homeSeen)), 'https', homeSeen);
  elsewhere = await listen(createHttpServer(echo(elsewhereSeen)), 'http', elsewhereSeen);
});
afterAll(async () => {
  await home?.close();
  await elsewhere?.close();
});

// biome-ignore lint/suspicious/noExplicitAny: tool results are inspected freely
const data = (result: CallToolResult | undefined): any => result?.structuredContent;
const text = (result: CallToolResult | undefined) =>
  result?.content.map((block) => (block.type === 'text' ? block.text : '')).join('\n') ?? '';

describe.each(runtimes)('action secrets on the $runtime runtime', ({ start }) => {
  let api: ApiHarness;
  let memberKey: string;
  let readOnlyKey: string;
  let member: Principal;

  beforeAll(async () => {
    api = await start({ env: { VIGIL_EGRESS_ALLOW: '127.0.0.0/8' }, egress: { ca: [tls.caCert] } });
    const invite = await api.request('POST', '/v1/settings/users/invite', {
      key: api.adminKey,
      body: { email: `member-${api.runtime}@example.com` },
    });
    const accepted = await api.request('POST', '/v1/settings/users/accept', {
      body: { token: invite.body.token, name: 'Member' },
    });
    memberKey = accepted.body.key;
    member = {
      tenantId: api.tenantId,
      userId: accepted.body.user?.id ?? 'usr_member',
      keyId: 'key_member',
      role: 'member',
      readOnly: false,
    };
    const ro = await api.request('POST', '/v1/auth/keys', {
      key: api.adminKey,
      body: { label: 'read-only', is_read_only: true },
    });
    readOnlyKey = ro.body.key;
  });
  afterAll(async () => {
    await api?.close();
  });

  const createAction = async (body: Record<string, unknown>) => {
    const res = await api.request('POST', '/v1/actions', {
      key: api.adminKey,
      body: { name: 'deploy', ...body },
    });
    expect(res.status, res.text).toBe(201);
    return res.body.id as string;
  };
  const run = (id: string, vars?: Record<string, string>, key = memberKey) =>
    api.request('POST', `/v1/actions/${id}/run`, { key, ...(vars ? { body: { vars } } : {}) });

  it('refuses an action with headers whose URL takes its origin from a placeholder', async () => {
    for (const url of [`https://{{host}}/deploy`, `${home.url}{{path}}`, 'https://{{user}}@127.0.0.1/x']) {
      const res = await api.request('POST', '/v1/actions', {
        key: api.adminKey,
        body: { name: 'deploy', url, headers: { Authorization: SECRET } },
      });
      expect(res.status, url).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
      expect(res.body.details).toEqual([
        { path: 'url', message: expect.stringContaining('headers are sent only to the origin') },
      ]);
    }
    // Placeholders after the host, or a templated host without headers, stay allowed.
    await createAction({ url: `${home.url}/deploy/{{ref}}?env={{env}}`, headers: { Authorization: SECRET } });
    await createAction({ url: 'https://{{host}}/deploy' });
  });

  it('refuses a run whose origin a variable picks instead of sending the headers there', async () => {
    // An action stored before the rule: its host comes from a variable and it has a secret header.
    const id = await createAction({ url: `${home.url}/deploy`, headers: { Authorization: SECRET } });
    const stored = await api.app.actions.get(api.tenantId, id);
    if (!stored) throw new Error('the action was not stored');
    const legacy = { ...stored, url: 'http://{{host}}/steal', version: stored.version + 1 };
    expect(await api.app.actions.update(legacy, stored.version)).toBe(true);

    const before = { home: home.seen.length, elsewhere: elsewhere.seen.length };
    const res = await run(id, { host: new URL(elsewhere.url).host });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ dispatch_status: 'blocked', status_code: null, response_snippet: null });
    expect(res.body.error_message).toMatch(/headers are sent only to the origin they were stored with/);
    expect(elsewhere.seen.length).toBe(before.elsewhere);
    expect(home.seen.length).toBe(before.home);
  });

  it('clears stored headers when a PUT changes the URL or the method', async () => {
    const secrets = { Authorization: SECRET, 'X-Api-Key': API_KEY };
    const id = await createAction({ url: `${home.url}/deploy`, headers: secrets });
    const path = `/v1/actions/${id}`;
    const stored = async () => (await api.app.actions.get(api.tenantId, id))?.headers;

    // The same URL and method, ******** sent back: the headers stay.
    const samePlace = await api.request('PUT', path, {
      key: api.adminKey,
      body: { url: `${home.url}/deploy`, headers: { Authorization: '********', 'X-Api-Key': '********' } },
    });
    expect(samePlace.status, samePlace.text).toBe(200);
    expect(await stored()).toEqual(secrets);

    // Another path on the same origin (an echoing endpoint there), or another method: they go.
    for (const change of [
      { url: `${home.url}/echo` },
      { url: `${home.url}/deploy?x=1` },
      { method: 'PUT' },
    ]) {
      const moved = await api.request('PUT', path, { key: api.adminKey, body: change });
      expect(moved.status, moved.text).toBe(200);
      expect(moved.body.headers, JSON.stringify(change)).toEqual({});
      await api.request('PUT', path, {
        key: api.adminKey,
        body: { url: `${home.url}/deploy`, method: 'POST', headers: secrets },
      });
      expect(await stored()).toEqual(secrets);
    }

    // Echoing ******** while moving the origin cannot carry the stored value along.
    const echoed = await api.request('PUT', path, {
      key: api.adminKey,
      body: { url: `${elsewhere.url}/hook`, headers: { Authorization: '********' } },
    });
    expect(echoed.status).toBe(400);
    expect(echoed.body.details).toEqual([
      { path: 'headers.Authorization', message: expect.stringContaining('give the value again') },
    ]);

    const moved = await api.request('PUT', path, {
      key: api.adminKey,
      body: { url: `${elsewhere.url}/hook`, headers: { 'X-Trace': 'given again' } },
    });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body.headers).toEqual({ 'X-Trace': '********' });

    const before = elsewhere.seen.length;
    expect((await run(id)).body.dispatch_status).toBe('success');
    const [got] = elsewhere.seen.slice(before);
    expect(got?.headers.authorization).toBeUndefined();
    expect(got?.headers['x-api-key']).toBeUndefined();
    expect(got?.headers['x-trace']).toBe('given again');
  });

  it('keeps the headers and the callback token out of what an echoing receiver answers', async () => {
    const id = await createAction({
      url: `${home.url}/echo`,
      headers: { Authorization: SECRET, 'X-Api-Key': API_KEY },
      body_template: '{"token":"{{callback_token}}","who":"{{who}}"}',
    });
    const before = home.seen.length;
    const res = await run(id, { who: 'ops' });
    expect(res.body.dispatch_status).toBe('success');
    const [got] = home.seen.slice(before);
    expect(got?.headers.authorization).toBe(SECRET);
    const token = JSON.parse(got?.body ?? '{}').token as string;
    expect(token).toMatch(/^vcb_/);

    const snippet: string = res.body.response_snippet;
    expect(snippet).toContain('"who\\":\\"ops\\"');
    expect(snippet).toContain('********');
    for (const secret of [SECRET, 'sk_live_0123456789abcdefghij', API_KEY, token])
      expect(snippet).not.toContain(secret);
    const history = await api.request('GET', `/v1/actions/${id}/executions`, { key: memberKey });
    for (const secret of ['sk_live_0123456789abcdefghij', API_KEY, token])
      expect(history.text).not.toContain(secret);
  });

  it('hides the start of a secret cut off at the end of the 4 KB snippet', async () => {
    // 4,096 bytes are kept: the filler, then "Bearer sk_live_01", cut inside the token.
    const pad = 4096 - 'Bearer sk_live_01'.length;
    const id = await createAction({
      url: `${home.url}/echo?header=authorization&pad=${pad}`,
      headers: { Authorization: SECRET },
    });
    const res = await run(id);
    expect(res.body.dispatch_status).toBe('success');
    const snippet: string = res.body.response_snippet;
    expect(snippet).toBe(`${'.'.repeat(pad)}********`);
  });

  it('keeps the secrets out of a runbook tool result over MCP', async () => {
    const id = await createAction({
      url: `${home.url}/echo`,
      headers: { 'X-Api-Key': API_KEY },
      body_template: '{"token":"{{callback_token}}"}',
    });
    const skill = await api.request('POST', '/v1/skills', {
      key: api.adminKey,
      body: {
        slug: `deploys-${api.runtime}`,
        name: 'Deploys',
        description: 'Deployment runbooks',
        version: '1.0.0',
        tools: [
          {
            name: `deploy_${api.runtime}`,
            description: 'Deploy',
            inputSchema: { type: 'object', properties: {} },
            action_id: id,
          },
        ],
      },
    });
    expect(skill.status, skill.text).toBe(201);
    const before = home.seen.length;
    const result = await api.app.tools.call(member, `deploy_${api.runtime}`, {});
    expect(result?.isError, text(result)).toBeFalsy();
    expect(data(result).dispatch_status).toBe('success');
    const token = JSON.parse(home.seen.slice(before)[0]?.body ?? '{}').token as string;
    expect(token).toMatch(/^vcb_/);
    for (const secret of [API_KEY, token]) {
      expect(text(result)).not.toContain(secret);
      expect(JSON.stringify(data(result))).not.toContain(secret);
    }
  });

  it('refuses a manual var that would add fields to a JSON body, and escapes quoted ones', async () => {
    const id = await createAction({
      url: `${home.url}/json`,
      body_template: '{"count": {{n}}, "note": "{{note}}"}',
    });
    const injection = 'a","admin":true,"b":"';
    const before = home.seen.length;
    const refused = await run(id, { n: injection, note: 'x' });
    expect(refused.status, refused.text).toBe(400);
    expect(refused.body.code).toBe('VALIDATION_ERROR');
    expect(refused.body.details).toEqual([
      { path: 'vars.n', message: expect.stringContaining('give it a JSON number, true, false or null') },
    ]);
    expect(home.seen.length).toBe(before);
    const history = await api.request('GET', `/v1/actions/${id}/executions`, { key: memberKey });
    expect(history.body.executions).toEqual([]);

    const sent = await run(id, { n: '3', note: injection });
    expect(sent.body.dispatch_status, sent.text).toBe('success');
    const [got] = home.seen.slice(before);
    expect(got?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(got?.body ?? '')).toEqual({ count: 3, note: injection });
  });

  it('shows read-only keys the URL without its credentials and tokens, and keeps the stored one on an echo', async () => {
    const url = `${home.url.replace('https://', 'https://deployer:hunter22@')}/hooks?ref=main&access_token=tok123&sig=abc`;
    const id = await createAction({ url });
    const shown = `${home.url.replace('https://', 'https://********@')}/hooks?ref=main&access_token=********&sig=********`;

    const one = await api.request('GET', `/v1/actions/${id}`, { key: readOnlyKey });
    expect(one.body.url).toBe(shown);
    const list = await api.request('GET', '/v1/actions', { key: readOnlyKey });
    expect(list.text).not.toContain('hunter22');
    expect(list.text).not.toContain('tok123');
    expect((await api.request('GET', `/v1/actions/${id}`, { key: memberKey })).body.url).toBe(url);

    // Sending back what a read-only key saw keeps the real URL; a changed URL with ******** is refused.
    const echoed = await api.request('PUT', `/v1/actions/${id}`, { key: api.adminKey, body: { url: shown } });
    expect(echoed.status, echoed.text).toBe(200);
    expect(echoed.body.url).toBe(url);
    const changed = await api.request('PUT', `/v1/actions/${id}`, {
      key: api.adminKey,
      body: { url: shown.replace('/hooks', '/other') },
    });
    expect(changed.status).toBe(400);
    expect(changed.body.details?.[0]?.path).toBe('url');
    expect((await api.app.actions.get(api.tenantId, id))?.url).toBe(url);
  });
});
