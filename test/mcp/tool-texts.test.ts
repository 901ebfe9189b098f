import type { CallToolResult, Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILTIN_TOOLS } from '../../lib/features/feature-routes.ts';
import { alertmanagerWebhook } from '../support/alertmanager-webhook.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';
import { enableToolsets } from '../support/toolsets.ts';
import { dependsOn, pushCheck, runbooks } from './agent.ts';
import { connectSdkClient } from './sdk-client.ts';

/**
 * What the tools say in words, through the official MCP SDK client on both runtimes:
 * explain_entity_state names an entity's down and degraded checks first, with their reasons and
 * since when, and brings upstreams in only as DECISIONS.md's aggregation allows (an entity's state
 * comes from its own checks); and every catalog-ops tool's summary line names the objects it is
 * about (entities as `Name (blueprint/slug)`, checks, windows and actions by name), never by id
 * (docs/mcp.md "Names in tool answers").
 */

// biome-ignore lint/suspicious/noExplicitAny: tool results are inspected freely
const data = (result: CallToolResult): any => result.structuredContent;
/** The text blocks (an app tool's embedded view follows its text: not the model's words). */
const text = (result: CallToolResult) =>
  result.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n');

/** The summary of a result: its text without the data that follows it (compact or indented JSON). */
function summaryOf(result: CallToolResult): string {
  const all = text(result);
  for (const json of [JSON.stringify(data(result)), JSON.stringify(data(result), null, 2)]) {
    if (all.endsWith(`\n${json}`)) return all.slice(0, all.length - json.length - 1);
  }
  throw new Error(`no data after the summary: ${all.slice(0, 200)}`);
}

/** Any Vigil id (a prefix, an underscore and a ULID). */
const ID = /\b[a-z]{2,4}_[0-9A-HJKMNP-TV-Z]{26}\b/;

describe.each(runtimes)('MCP tool texts ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  let client: Client;
  const ids: Record<string, string> = {};
  const checks: Record<string, string> = {};
  let incidentId = '';
  let actionId = '';

  const post = async (path: string, body: unknown) => {
    const res = await api.request('POST', path, { key: api.adminKey, body });
    expect([200, 201], res.text).toContain(res.status);
    return res.body;
  };
  const call = async (name: string, args: Record<string, unknown> = {}) => {
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    expect(result.isError, text(result)).toBeFalsy();
    return result;
  };
  const explain = (slug: string) =>
    call('explain_entity_state', { blueprint_slug: 'service', entity_slug: slug });
  /** One result of a push check, recorded as the push route records it, then the flow it starts. */
  const record = async (
    check: string,
    outcome: { success: boolean; degraded?: boolean; error_message?: string; latency_ms?: number },
  ) => {
    const recorded = await api.app.recorder.record({
      tenantId: api.tenantId,
      checkId: checks[check] ?? '',
      status_code: outcome.success ? 200 : 503,
      latency_ms: outcome.latency_ms ?? 20,
      error_message: outcome.error_message ?? '',
      checkedAtMs: Date.now(),
      ...outcome,
    });
    expect(recorded.status).toBe('recorded');
    await api.drainChanges();
  };

  beforeAll(async () => {
    api = await start({ env: { VIGIL_EGRESS_ALLOW: '127.0.0.0/8', VIGIL_ALLOW_PRIVATE_TARGETS: 'true' } });
    await post('/v1/blueprints', { slug: 'service', name: 'Service' });
    for (const [slug, name] of [
      ['shop', 'Shop'],
      ['payments', 'Payments'],
      ['ledger', 'Ledger'],
      ['web', 'Web front'],
      ['front', 'Front door'],
    ] as const) {
      ids[slug] = (await post('/v1/blueprints/service/entities', { slug, name })).id;
    }
    // shop -> payments (up); web -> ledger (down); front -> ledger.
    await dependsOn(post, ids, [
      ['shop', 'payments'],
      ['web', 'ledger'],
      ['front', 'ledger'],
    ]);
    for (const [check, entity, name] of [
      ['checkout', 'shop', 'Checkout page'],
      ['login', 'shop', 'Login page'],
      ['payments', 'payments', 'Payments API'],
      ['ledger', 'ledger', 'Ledger port'],
      ['web', 'web', 'Web home'],
      ['front', 'front', 'Front door ping'],
    ] as const) {
      checks[check] = await pushCheck(post, ids[entity], name);
    }
    for (const check of Object.keys(checks)) await record(check, { success: true });
    await record('checkout', {
      success: true,
      degraded: true,
      latency_ms: 900,
      error_message: 'assertion failed: $.status is "slow", expected eq "ok"',
    });
    await record('ledger', { success: false, error_message: 'connection refused' });
    await record('web', {
      success: true,
      degraded: true,
      latency_ms: 1500,
      error_message: 'latency 1500 ms is above degraded_latency_ms 1000',
    });
    await enableToolsets(api, api.adminKey);
    const incidents = await api.request('GET', `/v1/incidents?entity_id=${ids.ledger}`, {
      key: api.adminKey,
    });
    incidentId = incidents.body.incidents[0]?.id ?? '';
    actionId = (await post('/v1/actions', { name: 'Restart ledger', url: 'http://127.0.0.1:9/restart' })).id;
    await post(
      '/v1/skills',
      runbooks([
        {
          name: 'restart_ledger',
          description: 'Restart the ledger',
          inputSchema: { type: 'object', properties: {}, additionalProperties: false },
          annotations: { readOnlyHint: false },
          action_id: actionId,
        },
      ]),
    );
    client = await connectSdkClient(api, api.adminKey);
  }, 120_000);
  afterAll(async () => {
    await client?.close();
    await api?.close();
  });

  it('explains a degraded entity by its degraded check and reason, not by its healthy upstream', async () => {
    const result = await explain('shop');
    const summary = summaryOf(result);
    expect(summary).toMatch(
      /^Shop \(service\/shop\) is degraded\. Check "Checkout page" is degraded since \d{4}-\d\d-\d\dT[\d:.]+Z: assertion failed: \$\.status is "slow", expected eq "ok"/,
    );
    expect(summary).toContain('Enabled checks up: 1 of 2.');
    expect(summary).toContain('None of its upstream entities (1) is down or degraded.');
    expect(summary).not.toContain('Upstream not up');
    expect(summary).not.toContain('0 of');
    expect(data(result).checks_not_up).toEqual([
      expect.objectContaining({
        check: expect.objectContaining({ id: checks.checkout, name: 'Checkout page', state: 'degraded' }),
        since: expect.any(String),
        reason: 'assertion failed: $.status is "slow", expected eq "ok"',
      }),
    ]);
    expect(data(result).upstream_not_up).toEqual([]);
  });

  it('explains a down entity by its down check', async () => {
    const result = await explain('ledger');
    expect(summaryOf(result)).toMatch(
      /^Ledger \(service\/ledger\) is down\. Check "Ledger port" is down since [\dT:.Z-]+: connection refused \(last such result [\dT:.Z-]+\)\. Enabled checks up: 0 of 1\./,
    );
    expect(data(result).entity).toMatchObject({ name: 'Ledger', state: 'down' });
  });

  it('names the entity’s own degraded check before an upstream that is down, as a possible cause', async () => {
    const summary = summaryOf(await explain('web'));
    expect(summary).toMatch(/^Web front \(service\/web\) is degraded\. Check "Web home" is degraded since/);
    expect(summary).toContain('latency 1500 ms is above degraded_latency_ms 1000');
    expect(summary).toContain('Upstream not up, a possible cause: Ledger (service/ledger, down).');
    expect(summary.indexOf('"Web home"')).toBeLessThan(summary.indexOf('Upstream'));
  });

  it('says a down upstream does not change an up entity’s state (its own checks decide it)', async () => {
    const summary = summaryOf(await explain('front'));
    expect(summary).toMatch(/^Front door \(service\/front\) is up\. Enabled checks up: 1 of 1; none is down/);
    expect(summary).toContain(
      "Upstream not up: Ledger (service/ledger, down); it does not change this entity's state, which comes from its own checks.",
    );
  });

  it('names objects, never ids, in the summary of every catalog-ops tool and of a runbook tool', async () => {
    const window = await call('create_maintenance', {
      name: 'Ledger upgrade',
      entity_ids: [ids.ledger],
      starts_at: new Date(Date.now() + 3_600_000).toISOString(),
      ends_at: new Date(Date.now() + 7_200_000).toISOString(),
    });
    await post('/v1/status-pages', {
      slug: 'ledger-status',
      title: 'Ledger status',
      entity_ids: [ids.ledger],
    });
    const pageIncident = (
      await post('/v1/status-pages/ledger-status/incidents', { title: 'Ledger slow', body: 'Looking.' })
    ).id;
    const ran = await call('restart_ledger');
    // An Alertmanager alert on Ledger, for the outside-alert tools.
    const integration = await post('/v1/integrations', {
      name: 'Prometheus',
      kind: 'alertmanager',
      entity_rules: [{ match: {}, entity: 'service/{{labels.service}}' }],
    });
    const sent = await api.request('POST', `/in/${integration.token}`, {
      body: alertmanagerWebhook([
        {
          fingerprint: 'ledger-disk',
          service: 'ledger',
          severity: 'warning',
          summary: 'Ledger disk 95% full',
        },
      ]),
    });
    expect(sent.status).toBe(202);
    const outsideAlert = { integration_id: integration.id, dedup_key: 'ledger-disk' };
    const executionId = data(ran).id;
    const ledger = { blueprint_slug: 'service', entity_slug: 'ledger' };
    // run_check needs a probed check (the others are push checks): a closed loopback port, down.
    const target = (await post('/v1/blueprints/service/entities', { slug: 'probe', name: 'Probe target' }))
      .id;
    const probed = (
      await post('/v1/checks', {
        entity_id: target,
        check_type: 'http',
        target_url: 'http://127.0.0.1:9/',
        interval_seconds: 3600,
        name: 'Probe port',
      })
    ).id;
    // Each tool with arguments that find something, and the names its summary must hold.
    // A document naming its objects as every document does: an entity by `<blueprint>/<slug>`.
    const cart = {
      apiVersion: 'vigil/v1',
      kind: 'Config',
      entities: [{ blueprint: 'service', slug: 'cart', name: 'Cart' }],
    };
    const expected: Record<string, [Record<string, unknown>, string[]]> = {
      get_status_summary: [{}, ['Down: Ledger (service/ledger)', 'Degraded: ']],
      list_entities: [{}, ['Ledger (service/ledger)', 'Shop (service/shop)']],
      get_entity: [ledger, ['Ledger (service/ledger)', '"Ledger port"']],
      list_blueprints: [{}, ['Service (service)']],
      list_incidents: [{}, ['Ledger (service/ledger) up → down']],
      get_check_results: [{ check_id: checks.ledger }, ['"Ledger port" of Ledger (service/ledger)']],
      create_check: [
        { entity_id: ids.ledger, target_url: 'http://127.0.0.1:9/health', dry_run: true },
        ['no check was created on Ledger (service/ledger)'],
      ],
      run_check: [
        { check_id: probed },
        ['Check "Probe port" of Probe target (service/probe)', 'ran now, down'],
      ],
      get_blast_radius: [ledger, ['Ledger (service/ledger, down)', 'Web front (service/web, degraded)']],
      explain_entity_state: [ledger, ['Ledger (service/ledger)', '"Ledger port"']],
      acknowledge_incident: [{ incident_id: incidentId }, ['The incident of Ledger']],
      add_incident_note: [{ incident_id: incidentId, text: 'Looking' }, ['the incident of Ledger']],
      list_maintenance: [{}, ['"Ledger upgrade"']],
      create_maintenance: [
        {
          name: 'Shop freeze',
          entity_ids: [ids.shop],
          starts_at: new Date(Date.now() + 3_600_000).toISOString(),
          ends_at: new Date(Date.now() + 7_200_000).toISOString(),
        },
        ['"Shop freeze"'],
      ],
      create_page_incident: [
        { page: 'ledger-status', title: 'Ledger errors', body: 'Looking into it.' },
        ['incident "Ledger errors" (investigating) on status page ledger-status'],
      ],
      update_page_incident: [
        {
          page: 'ledger-status',
          incident_id: pageIncident,
          status: 'identified',
          body: 'Found.',
          notify: true,
        },
        ['"Ledger slow" on status page ledger-status: identified (marked to notify subscribers)'],
      ],
      get_uptime: [{ check_id: checks.ledger }, ['Check "Ledger port" of Ledger (service/ledger)']],
      search_entities: [{ prefix: 'led' }, ['Ledger (service/ledger, down)']],
      get_action_run: [{ execution_id: executionId }, ['action "Restart ledger"']],
      explain_alerting: [{ entity_id: ids.ledger, to_state: 'up' }, ['If Ledger (now down)']],
      list_heartbeats: [{}, ['Failing: "Ledger port" of Ledger (service/ledger)']],
      get_ping_log: [{ check_id: checks.ledger }, ['Pings of "Ledger port" of Ledger (service/ledger)']],
      get_check_runs: [{ check_id: checks.ledger }, ['Runs of "Ledger port" of Ledger (service/ledger)']],
      get_audit_log: [{ limit: 3 }, ['mcp.create_maintenance (maintenance_window) by ']],
      plan_config: [{ document: cart }, ['+ create entity service/cart', 'Plan: 1 to create']],
      apply_config: [{ document: cart }, ['✓ create entity service/cart', 'Applied: 1 created']],
      who_is_on_call: [
        ledger,
        ['On call for Ledger (service/ledger)', 'nobody. "Ledger" has no owning team'],
      ],
      update_check: [
        { check_id: checks.ledger, changes: { failure_threshold: 3 } },
        [
          'check "Ledger port" of Ledger (service/ledger) would change failure_threshold',
          'Nothing was changed',
        ],
      ],
      delete_check: [
        { check_id: checks.ledger },
        ['check "Ledger port" of Ledger (service/ledger)', 'Nothing was deleted'],
      ],
      silence_check: [
        { check_id: checks.ledger, silenced: false },
        ['silence of check "Ledger port" of Ledger (service/ledger)'],
      ],
      resolve_incident: [{ incident_id: incidentId }, ['The incident of Ledger']],
      start_maintenance: [
        { name: 'Ledger reindex', entity_ids: [ids.ledger], duration_minutes: 10 },
        ['Started maintenance window "Ledger reindex" now'],
      ],
      find_tools: [{ query: 'check' }, ['tool(s)', 'enabled']],
      show_status: [{}, ['- Ledger (service/ledger): down', '- Shop (service/shop)']],
      show_blast_radius: [ledger, ['- Web front (service/web): degraded']],
      list_outside_alerts: [ledger, ['on Ledger (service/ledger)', 'Ledger disk 95% full (ledger-disk, 1×']],
      acknowledge_outside_alert: [outsideAlert, ['The Prometheus alert ledger-disk', 'is acknowledged']],
      resolve_outside_alert: [outsideAlert, ['("Ledger disk 95% full") is resolved']],
    };
    expect(Object.keys(expected).sort()).toEqual(BUILTIN_TOOLS.map((t) => t.name).sort());
    const summaries = [summaryOf(window), summaryOf(ran)];
    expect(summaryOf(ran)).toContain('Ran action "Restart ledger"');
    for (const [name, [args, names]] of Object.entries(expected)) {
      const summary = summaryOf(await call(name, args));
      summaries.push(summary);
      for (const words of names) expect(summary, name).toContain(words);
    }
    const entityUptime = summaryOf(await call('get_uptime', { entity_id: ids.shop }));
    expect(entityUptime).toMatch(/^Shop \(service\/shop\) over 24h/);
    const openIncidents = summaryOf(await call('list_incidents', { entity_id: ids.ledger }));
    expect(openIncidents).toContain('incidents of Ledger (service/ledger)');
    summaries.push(entityUptime, openIncidents);
    for (const summary of summaries) expect(summary).not.toMatch(ID);
  });
});
