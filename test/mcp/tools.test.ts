import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '../../lib/domain/principal.ts';
import { CATALOG_OPS_MANIFEST } from '../../lib/features/feature-routes.ts';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { newCheck, quietTcpCheck } from '../checks/check-fixtures.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';
import { runCellSlot } from '../support/cell-fixtures.ts';
import { enableToolsets } from '../support/toolsets.ts';
import { agentAdmin, dependsOn, runbooks } from './agent.ts';

/**
 * The tool catalog (app.tools) called directly on both runtimes: every built-in answers the
 * tenant's real data, arguments are validated against the inputSchema, read-only callers see and
 * call only read-only tools, and runbook tools run a real action against a loopback receiver.
 */

interface Receiver {
  url: string;
  seen: { method: string; path: string; body: string }[];
  close(): Promise<void>;
}

/** /healthy answers 200, /broken 503, anything else (the action's target) 202 and is recorded. */
async function startReceiver(): Promise<Receiver> {
  const seen: Receiver['seen'] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      if (path === '/healthy') return void res.writeHead(200).end('ok');
      if (path === '/broken') return void res.writeHead(503).end('down');
      seen.push({ method: req.method ?? '', path, body: Buffer.concat(chunks).toString() });
      res.writeHead(202).end('restarting');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: async () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

const T0 = Date.parse('2026-03-01T12:00:00.000Z');

// biome-ignore lint/suspicious/noExplicitAny: tool results are inspected freely
const data = (result: CallToolResult | undefined): any => result?.structuredContent;
const text = (result: CallToolResult | undefined) =>
  result?.content.map((block) => (block.type === 'text' ? block.text : '')).join('\n') ?? '';

describe.each(runtimes)('MCP tools ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  let receiver: Receiver;
  let admin: Principal;
  let viewer: Principal;
  const clock = createFakeClock(T0);
  const ids: Record<string, string> = {};
  let dbCheck = '';
  let restartAction = '';

  const call = (name: string, args: Record<string, unknown> = {}, caller = admin) =>
    api.app.tools.call(caller, name, args);
  const post = async (path: string, body: unknown) => {
    const res = await api.request('POST', path, { key: api.adminKey, body });
    expect(res.status, res.text).toBe(201);
    return res.body;
  };

  beforeAll(async () => {
    receiver = await startReceiver();
    api = await start({
      clock,
      env: { VIGIL_EGRESS_ALLOW: '127.0.0.0/8', VIGIL_ALLOW_PRIVATE_TARGETS: 'true' },
    });
    admin = agentAdmin(api.tenantId);
    viewer = { ...admin, keyId: 'key_viewer', readOnly: true };

    // web -> api -> db, worker -> db (depends_on); db's check fails.
    await post('/v1/blueprints', { slug: 'service', name: 'Service' });
    for (const slug of ['web', 'api', 'db', 'worker']) {
      ids[slug] = (await post('/v1/blueprints/service/entities', { slug, name: slug.toUpperCase() })).id;
    }
    await dependsOn(post, ids, [
      ['web', 'api'],
      ['api', 'db'],
      ['worker', 'db'],
    ]);
    // Transitions are stamped with the clock: db's two minutes before T0, web's one minute before.
    // Their results come from their cells' slots (web's check has another interval: its own cell).
    dbCheck = await newCheck(api, quietTcpCheck(ids.db ?? '', { failure_threshold: 1 }));
    clock.set(T0 - 119_000);
    for (const [i, success] of [true, false].entries()) {
      await runCellSlot(api, { slotMs: T0 - 120_000 + i * 1000, answers: { [dbCheck]: success }, clock });
    }
    const webCheck = await newCheck(
      api,
      quietTcpCheck(ids.web ?? '', { failure_threshold: 1, interval_seconds: 43_200 }),
    );
    clock.set(T0 - 60_000);
    await runCellSlot(api, { slotMs: T0 - 60_000, answers: { [webCheck]: true }, clock });
    clock.set(T0);

    restartAction = (
      await post('/v1/actions', {
        name: 'Restart service',
        url: `${receiver.url}/restart/{{service}}`,
        body_template: '{"reason":"{{reason}}"}',
      })
    ).id;
    await enableToolsets(api, api.adminKey);
  });
  afterAll(async () => {
    await api?.close();
    await receiver?.close();
  });

  it('lists the catalog-ops tools and hides the ones that write from read-only callers', async () => {
    const names = (await api.app.tools.list(admin)).map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(CATALOG_OPS_MANIFEST.tools.map((t) => t.name)));
    const readOnlyNames = (await api.app.tools.list(viewer)).map((t) => t.name);
    expect(readOnlyNames).toContain('get_status_summary');
    expect(readOnlyNames).not.toContain('create_check');
    expect(
      await call('create_check', { entity_id: ids.db, target_url: receiver.url }, viewer),
    ).toBeUndefined();
  });

  it('summarises the status board', async () => {
    const result = await call('get_status_summary');
    expect(result?.isError).toBeFalsy();
    expect(data(result)).toMatchObject({ total: 4, up: 1, down: 1, unknown: 2, degraded: 0 });
    expect(
      data(result)
        .entities.map((e: { slug: string }) => e.slug)
        .sort(),
    ).toEqual(['api', 'db', 'web', 'worker']);
    expect(text(result)).toContain('4 entities: 1 up, 0 degraded, 1 down, 2 unknown.');
  });

  it('lists blueprints and entities, all or of one blueprint', async () => {
    expect(data(await call('list_blueprints')).blueprints.map((b: { slug: string }) => b.slug)).toEqual([
      'service',
    ]);
    const all = data(await call('list_entities')).entities;
    expect(all).toHaveLength(4);
    const one = await call('list_entities', { blueprint_slug: 'service' });
    expect(
      data(one)
        .entities.map((e: { id: string }) => e.id)
        .sort(),
    ).toEqual([ids.web, ids.api, ids.db, ids.worker].sort());
    const missing = await call('list_entities', { blueprint_slug: 'nope' });
    expect(missing?.isError).toBe(true);
    expect(text(missing)).toContain('NOT_FOUND');
  });

  it('gets an entity with its state and checks, naming the checks that are down', async () => {
    const result = await call('get_entity', { blueprint_slug: 'service', entity_slug: 'db' });
    expect(data(result).entity).toMatchObject({ id: ids.db, slug: 'db', name: 'DB', state: 'down' });
    expect(data(result).checks).toEqual([
      expect.objectContaining({ id: dbCheck, name: 'TCP 127.0.0.1:9', check_type: 'tcp', state: 'down' }),
    ]);
    expect(text(result)).toContain('1 checks, 1 down ("TCP 127.0.0.1:9")');
  });

  it('lists the entity transitions of the window as incidents', async () => {
    const day = data(await call('list_incidents'));
    expect(day.hours).toBe(24);
    const db = day.incidents.filter((t: { entity_id: string }) => t.entity_id === ids.db);
    expect(db.map((t: { to_state: string }) => t.to_state)).toEqual(['down', 'up']);
    const webUp = day.incidents.filter((t: { entity_id: string }) => t.entity_id === ids.web);
    expect(webUp).toHaveLength(1);
    // The last minute holds only web's transition (db's are two minutes old).
    clock.set(T0 + 59 * 60_000);
    const hour = data(await call('list_incidents', { hours: 1 }));
    expect(hour.incidents.map((t: { entity_id: string }) => t.entity_id)).toEqual([ids.web]);
    clock.set(T0);
  });

  it('returns the per-attempt results of a check within the window', async () => {
    const result = await call('get_check_results', { check_id: dbCheck });
    expect(data(result).hours).toBe(1);
    expect(data(result).results.map((r: { success: boolean }) => r.success)).toEqual([false, true]);
    expect(data(result).results[0]).toMatchObject({ latency_ms: 10, error_message: 'connection refused' });
    expect(text(result)).toContain('Check "TCP 127.0.0.1:9" of DB (service/db), last 1 h: 2 results');
    expect(data(result).summary).toMatchObject({ results: 2, up: 1, down: 1, latency_p50_ms: 10 });
    expect(data(result).check_name).toBe('TCP 127.0.0.1:9');
    // Another tenant with the same tools cannot read this tenant's check.
    const other = await api.createTenant('Other');
    await enableToolsets(api, other.key);
    const elsewhere = await call(
      'get_check_results',
      { check_id: dbCheck },
      { ...admin, tenantId: other.tenantId },
    );
    expect(text(elsewhere)).toContain('NOT_FOUND');
    expect(elsewhere?.isError).toBe(true);
  });

  it('gives the blast radius: every entity depending on one, transitively, with states', async () => {
    const result = await call('get_blast_radius', { blueprint_slug: 'service', entity_slug: 'db' });
    expect(data(result).dependents).toEqual([
      expect.objectContaining({ slug: 'api', depth: 1, state: 'unknown' }),
      expect.objectContaining({ slug: 'worker', depth: 1, state: 'unknown' }),
      expect.objectContaining({ slug: 'web', depth: 2, state: 'up' }),
    ]);
    const leaf = await call('get_blast_radius', { blueprint_slug: 'service', entity_slug: 'web' });
    expect(data(leaf).dependents).toEqual([]);
    expect(text(leaf)).toContain('Nothing depends on WEB (service/web, up).');
  });

  it('explains an entity state: failing checks with their last error, upstream down, recent transitions', async () => {
    const db = data(await call('explain_entity_state', { blueprint_slug: 'service', entity_slug: 'db' }));
    expect(db.checks_not_up).toEqual([
      expect.objectContaining({
        check: expect.objectContaining({ id: dbCheck, state: 'down' }),
        reason: 'connection refused',
      }),
    ]);
    expect(
      text(await call('explain_entity_state', { blueprint_slug: 'service', entity_slug: 'db' })),
    ).toContain('Check "TCP 127.0.0.1:9" is down since 2026-03-01T11:58:01');
    expect(db.recent_transitions.map((t: { to_state: string }) => t.to_state)).toEqual(['down', 'up']);
    const web = await call('explain_entity_state', { blueprint_slug: 'service', entity_slug: 'web' });
    expect(data(web).checks_not_up).toEqual([]);
    expect(data(web).upstream_not_up).toEqual([
      expect.objectContaining({ slug: 'db', state: 'down', depth: 2 }),
    ]);
    expect(text(web)).toContain(
      "Upstream not up: DB (service/db, down); it does not change this entity's state",
    );
  });

  it('explains alerting without sending: the decisions of the flow, for read-only callers too', async () => {
    // web depends on db (through api), which is down: web's alert would be held back.
    const web = await call('explain_alerting', { entity_id: ids.web, to_state: 'down' }, viewer);
    expect(web?.isError).toBeUndefined();
    expect(data(web).entity).toEqual({ id: ids.web, name: 'WEB', state: 'up' });
    expect(data(web).decisions).toEqual([
      expect.objectContaining({
        kind: 'alert',
        channel_id: null,
        outcome: 'skip',
        reason: 'upstream DB is down',
      }),
    ]);
    expect(text(web)).toContain(
      'If WEB (now up) changed to down now, 0 channel(s) would be alerted at once.',
    );
    expect(text(web)).toContain('no channel: skip — upstream DB is down');
    const db = data(await call('explain_alerting', { check_id: dbCheck, to_state: 'up' }));
    expect(db.decisions).toEqual([expect.objectContaining({ check_id: dbCheck, reason: 'no channels' })]);
    const both = await call('explain_alerting', { check_id: dbCheck, entity_id: ids.db, to_state: 'up' });
    expect(both?.isError).toBe(true);
    expect(text(both)).toContain('Give exactly one of check_id and the entity');
    const other = await call('explain_alerting', {
      check_id: 'chk_01J9Z3ZZZZZZZZZZZZZZZZZZZZ',
      to_state: 'up',
    });
    expect(text(other)).toContain('check not found');
  });

  it('create_check with dry_run probes the target once and creates nothing', async () => {
    const result = await call('create_check', {
      entity_id: ids.api,
      target_url: `${receiver.url}/broken`,
      dry_run: true,
    });
    expect(result?.isError).toBeFalsy();
    expect(data(result)).toMatchObject({ dry_run: true, probe: { success: false, status_code: 503 } });
    expect(text(result)).toContain('HTTP 503');
    const checks = await api.request('GET', `/v1/checks?entity_id=${ids.api}`, { key: api.adminKey });
    expect(checks.body.checks ?? checks.body).toEqual([]);
  });

  it('create_check probes, then creates an http check that GET /v1/checks shows', async () => {
    const result = await call('create_check', {
      entity_id: ids.api,
      target_url: `${receiver.url}/healthy`,
      name: 'API health',
    });
    expect(data(result).probe).toMatchObject({ success: true, status_code: 200 });
    const check = data(result).check;
    expect(check).toMatchObject({
      check_type: 'http',
      entity_id: ids.api,
      interval_seconds: 60,
      name: 'API health',
      name_is_default: false,
    });
    expect(text(result)).toContain('Created http check "API health"');
    const listed = await api.request('GET', '/v1/checks', { key: api.adminKey });
    expect(JSON.stringify(listed.body)).toContain(check.id);
    const elsewhere = await api.createTenant('Third');
    const foreign = await call(
      'create_check',
      { entity_id: ids.api, target_url: `${receiver.url}/healthy` },
      { ...admin, tenantId: elsewhere.tenantId },
    );
    // Another tenant has create_check too (its starter catalog-ops), but not this tenant's entity.
    expect(text(foreign)).toBe(`NOT_FOUND: entity ${ids.api} not found`);
  });

  it('answers arguments that break the inputSchema with an isError result naming the problems', async () => {
    const missing = await call('get_entity', { blueprint_slug: 'service' });
    expect(missing?.isError).toBe(true);
    // Either way of naming the entity is valid to the schema; half of one is refused in words.
    expect(text(missing)).toContain('entity_slug: Give blueprint_slug and entity_slug together.');
    const wrongType = await call('list_incidents', { hours: 'many' });
    expect(wrongType?.isError).toBe(true);
    expect(text(wrongType)).toContain('/hours must be integer');
    const badUrl = await call('create_check', { entity_id: ids.api, target_url: 'not a url' });
    expect(badUrl?.isError).toBe(true);
    // What to fix is in the text, in the API's sentences (not zod's defaults).
    expect(text(badUrl)).toMatch(/^VALIDATION_ERROR: invalid check \(target_url: [A-Z][^;]*\.\)$/);
    const badWindow = await call('create_maintenance', {
      name: 'x',
      entity_ids: [ids.api],
      starts_at: 'soon',
      ends_at: 'later',
    });
    expect(badWindow?.isError).toBe(true);
    expect(text(badWindow)).toMatch(
      /^VALIDATION_ERROR: invalid maintenance window \(starts_at: [A-Z].*\.\)$/,
    );
  });

  it('writes a status-page incident and moves it forward with notify, as the API does', async () => {
    await post('/v1/status-pages', { slug: 'tools-page', title: 'Tools', entity_ids: [ids.api] });
    const created = await call('create_page_incident', {
      page: 'tools-page',
      title: 'API errors',
      body: 'Looking into *it*.',
      impact: [{ entity_id: ids.api, level: 'major_outage' }],
    });
    expect(created?.isError, text(created)).toBeFalsy();
    const incident = data(created).incident;
    expect(incident).toMatchObject({ page: 'tools-page', status: 'investigating', draft: false });
    const updated = await call('update_page_incident', {
      page: 'tools-page',
      incident_id: incident.id,
      status: 'monitoring',
      body: 'Fixed; watching.',
      notify: true,
    });
    expect(
      data(updated).incident.updates.map((u: { status: string; notify: boolean }) => [u.status, u.notify]),
    ).toEqual([
      ['investigating', false],
      ['monitoring', true],
    ]);
    const stored = await api.request('GET', `/v1/status-pages/tools-page/incidents/${incident.id}`, {
      key: api.adminKey,
    });
    expect(stored.body).toEqual(data(updated).incident);
    const backwards = await call('update_page_incident', {
      page: 'tools-page',
      incident_id: incident.id,
      status: 'identified',
      body: 'Back?',
    });
    expect(backwards?.isError).toBe(true);
    expect(text(backwards)).toMatch(/^VALIDATION_ERROR: status: The status moves forward only/);
    const foreignImpact = await call('create_page_incident', {
      page: 'tools-page',
      title: 'DB',
      body: 'x',
      impact: [{ entity_id: ids.db, level: 'partial_outage' }],
    });
    expect(text(foreignImpact)).toContain('The page does not show entity');
    expect(text(await call('create_page_incident', { page: 'no-page', title: 'x', body: 'x' }))).toContain(
      'NOT_FOUND',
    );
  });

  it('validates the arguments of tools whose schemas share a nested $id', async () => {
    const schema = {
      type: 'object',
      properties: { n: { $ref: 'https://example.com/count' } },
      required: ['n'],
      $defs: { count: { $id: 'https://example.com/count', type: 'integer' } },
    };
    for (const slug of ['shared-a', 'shared-b']) {
      await post('/v1/skills', {
        slug,
        name: slug,
        description: 'Shares a nested $id with the other',
        version: '1.0.0',
        tools: [
          {
            name: `${slug}-tool`,
            description: 'x',
            inputSchema: schema,
            annotations: { readOnlyHint: true },
          },
        ],
      });
    }
    for (const name of ['shared-a-tool', 'shared-b-tool']) {
      expect(text(await call(name, { n: 1 }))).toBe(`tool ${name} has no implementation`);
      expect(text(await call(name, { n: 'one' }))).toContain('/n must be integer');
    }
  });

  it('answers an unknown tool with undefined', async () => {
    expect(await call('no_such_tool')).toBeUndefined();
  });

  it('runs a runbook tool: the action with the arguments as vars, answered with the execution', async () => {
    await post(
      '/v1/skills',
      runbooks([
        {
          name: 'restart_service',
          description: 'Restart a service',
          inputSchema: {
            type: 'object',
            properties: { service: { type: 'string' }, reason: { type: 'string' } },
            required: ['service', 'reason'],
            additionalProperties: false,
          },
          annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false },
          action_id: restartAction,
        },
        {
          name: 'ping_runbook',
          description: 'A runbook tool that says it only reads',
          inputSchema: { type: 'object', properties: { service: { type: 'string' } } },
          annotations: { readOnlyHint: true },
          action_id: restartAction,
        },
        {
          name: 'not_implemented',
          description: 'Neither a built-in nor an action',
          inputSchema: { type: 'object' },
          annotations: { readOnlyHint: true },
        },
      ]),
    );
    const result = await call('restart_service', { service: 'api', reason: 'agent said so' });
    expect(result?.isError, text(result)).toBeFalsy();
    expect(data(result)).toMatchObject({
      action_id: restartAction,
      trigger: 'manual',
      dispatch_status: 'success',
      status_code: 202,
      vars: { service: 'api', reason: 'agent said so' },
    });
    expect(receiver.seen).toEqual([
      expect.objectContaining({ method: 'POST', path: '/restart/api', body: '{"reason":"agent said so"}' }),
    ]);
    const executions = await api.request('GET', `/v1/actions/${restartAction}/executions`, {
      key: api.adminKey,
    });
    expect(JSON.stringify(executions.body)).toContain(data(result).id);

    // A runbook tool is never read-only, whatever its manifest claims: read-only callers neither see nor run either.
    expect(await call('restart_service', { service: 'api', reason: 'x' }, viewer)).toBeUndefined();
    expect(await call('ping_runbook', { service: 'api' }, viewer)).toBeUndefined();
    expect((await api.app.tools.list(viewer)).map((t) => t.name)).not.toContain('ping_runbook');
    const listed = (await api.app.tools.list(admin)).find((t) => t.name === 'ping_runbook');
    expect(listed?.annotations?.readOnlyHint).toBe(false);
    expect(receiver.seen).toHaveLength(1);

    const none = await call('not_implemented');
    expect(none?.isError).toBe(true);
    expect(text(none)).toBe('tool not_implemented has no implementation');
  });

  it('scopes tools to the tenant: another tenant sees its own skills and data only', async () => {
    const other = await api.createTenant('Isolated');
    const caller = { ...admin, tenantId: other.tenantId };
    // A new tenant starts with catalog-ops (and find_tools, always listed); deleted, only find_tools is left.
    const names = async () => (await api.app.tools.list(caller)).map((t) => t.name);
    expect(await names()).toEqual([...CATALOG_OPS_MANIFEST.tools.map((t) => t.name), 'find_tools']);
    expect((await api.request('DELETE', '/v1/skills/catalog-ops', { key: other.key })).status).toBe(204);
    expect(await names()).toEqual(['find_tools']);
    expect(await call('get_status_summary', {}, caller)).toBeUndefined();
    await enableToolsets(api, other.key);
    expect(data(await call('get_status_summary', {}, caller))).toMatchObject({ total: 0, entities: [] });
    const foreign = await call('get_entity', { blueprint_slug: 'service', entity_slug: 'db' }, caller);
    expect(foreign?.isError).toBe(true);
    const blast = await call('get_blast_radius', { blueprint_slug: 'service', entity_slug: 'db' }, caller);
    expect(text(blast)).toContain('NOT_FOUND');
  });

  it('drops a disabled skill’s tools', async () => {
    const res = await api.request('PUT', '/v1/skills/runbooks', {
      key: api.adminKey,
      body: { enabled: false },
    });
    expect(res.status, res.text).toBe(200);
    expect((await api.app.tools.list(admin)).map((t) => t.name)).not.toContain('restart_service');
    expect(await call('restart_service', { service: 'api', reason: 'x' })).toBeUndefined();
  });
});

describe.each(runtimes)('MCP create_check under the SSRF rules of checks ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  let receiver: Receiver;

  beforeAll(async () => {
    receiver = await startReceiver();
    api = await start({ env: { VIGIL_ALLOW_PRIVATE_TARGETS: 'false' } });
    await enableToolsets(api, api.adminKey);
  });
  afterAll(async () => {
    await api?.close();
    await receiver?.close();
  });

  it('reports a loopback target as blocked and never reaches it', async () => {
    const bp = await api.request('POST', '/v1/blueprints', {
      key: api.adminKey,
      body: { slug: 'service', name: 'Service' },
    });
    const entity = await api.request('POST', '/v1/blueprints/service/entities', {
      key: api.adminKey,
      body: { slug: 'api', name: 'API' },
    });
    expect([bp.status, entity.status]).toEqual([201, 201]);
    const caller = agentAdmin(api.tenantId);
    const result = await api.app.tools.call(caller, 'create_check', {
      entity_id: entity.body.id,
      target_url: `${receiver.url}/probe-me`,
      dry_run: true,
    });
    expect(data(result).probe).toMatchObject({ success: false, status_code: 0 });
    expect(text(result)).toContain('the check would fail');
    expect(data(result).probe.error_message).toContain('destination 127.0.0.1 is');
    expect(receiver.seen).toEqual([]);
  });
});
