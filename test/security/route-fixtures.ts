import { expect } from 'vitest';
import type { Route } from '../../lib/http/types.ts';
import { queryAll } from '../../lib/store/items.ts';
import { tenantPk } from '../../lib/store/partitions.ts';
import { pendingOauthRequest, seedOauthGrant } from '../oauth/oauth-seeds.ts';
import type { ApiHarness } from '../support/api-harness.ts';
import { seedArtifact, seedDelivery, seedExecution, seedIncident } from './fixture-seeds.ts';

/**
 * One of everything in a tenant, so generated tests can fill every route's path parameters with
 * real ids of that tenant. A route whose parameter has no fixture here fails the tests loudly: add
 * the fixture together with the route.
 */
export interface TenantFixture {
  key: string;
  readOnlyKey: string;
  /** A key of the fixture's location (`vlk_…`), for the agent routes. */
  locationKey: string;
  ids: Record<string, string>;
}

/** The password the fixture sets for its key's user (and signs in with). */
export const FIXTURE_PASSWORD = 'fixture password 41';

/** Creates the fixture objects with the caller's key; `prefix` keeps two tenants' slugs apart. */
export async function createFixture(
  api: ApiHarness,
  key: string,
  prefix = 'fixture',
): Promise<TenantFixture> {
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await api.request(method, path, { key, body });
    expect(res.status, `${method} ${path}: ${res.text}`).toBeLessThan(300);
    return res.body;
  };
  const bp = await call('POST', '/v1/blueprints', {
    slug: `${prefix}-service`,
    name: 'Service',
    fields: [{ name: 'team', field_type: 'string', required: false, sort_order: 1 }],
  });
  const a = await call('POST', `/v1/blueprints/${bp.slug}/entities`, {
    slug: 'fixture-a',
    name: 'A',
    fields: {},
  });
  const b = await call('POST', `/v1/blueprints/${bp.slug}/entities`, {
    slug: 'fixture-b',
    name: 'B',
    fields: {},
  });
  const relation = await call('POST', '/v1/relations', {
    from_entity_id: a.id,
    to_entity_id: b.id,
    relation_type: 'depends_on',
  });
  const apiKey = await call('POST', '/v1/auth/keys', { label: 'fixture' });
  const readOnly = await call('POST', '/v1/auth/keys', { label: 'fixture read-only', is_read_only: true });
  const invitation = await call('POST', '/v1/settings/users/invite', {
    email: `member-${Date.now()}@example.com`,
  });
  const accepted = await api.request('POST', '/v1/settings/users/accept', {
    body: { token: invitation.token, name: 'Member' },
  });
  const pending = await call('POST', '/v1/settings/users/invite', {
    email: `pending-${Date.now()}@example.com`,
  });
  const check = await call('POST', '/v1/checks', {
    entity_id: a.id,
    check_type: 'push',
    interval_seconds: 60,
    // What the slug ping URL (/ping/<ping key>/<slug>/<suffix>) names, with the tenant's ping key.
    config: { slug: 'nightly' },
  });
  const pushToken = await call('POST', `/v1/checks/${check.id}/push-tokens`);
  const pingKey = await call('POST', '/v1/settings/ping-key');
  const channel = await call('POST', `/v1/checks/${check.id}/policy/channels`, {
    channel_type: 'nats',
    config: { subject: 'fixture.alerts' },
  });
  const tenantChannel = await call('POST', '/v1/notify/channels', {
    name: 'Fixture shared',
    channel_type: 'nats',
    config: { subject: 'fixture.shared' },
  });
  const route = await call('POST', '/v1/notify/routes', { match: {}, channel_ids: [tenantChannel.id] });
  const delivery = await seedDelivery(api, (await call('GET', '/v1/me')).id, check.id, a.id, channel.id);
  // A placeholder host is checked at run time only, so the fixture needs no resolvable destination.
  const action = await call('POST', '/v1/actions', { name: 'Fixture', url: 'https://{{host}}/hook' });
  const execution = await seedExecution(api, (await call('GET', '/v1/me')).id, action.id);
  const incident = await seedIncident(api, key, (await call('GET', '/v1/me')).id, check.id, a.id);
  // A window far in the future: it covers the fixture's entity without quieting anything now.
  const maintenance = await call('POST', '/v1/maintenance', {
    name: 'Fixture window',
    entity_ids: [a.id],
    starts_at: '2099-01-01T00:00:00.000Z',
    ends_at: '2099-01-01T01:00:00.000Z',
  });
  // Status-page slugs are global: the prefix keeps two tenants' apart.
  const statusPage = await call('POST', '/v1/status-pages', {
    slug: `${prefix}-page`,
    title: 'Fixture status',
    entity_ids: [a.id],
  });
  const pageIncident = await call('POST', `/v1/status-pages/${statusPage.slug}/incidents`, {
    title: 'Fixture incident',
    body: 'Looking into it.',
  });
  // A webhook subscriber the tenant added with its key (a keyless one would be pending).
  const subscriber = await call('POST', `/v1/status-pages/${statusPage.slug}/subscribers`, {
    url: 'https://hooks.example.com/status',
  });
  const skill = await call('POST', '/v1/skills', {
    slug: `${prefix}-skill`,
    name: 'Fixture skill',
    version: '1.0.0',
    tools: [{ name: `${prefix}_tool`, description: 'A fixture tool', inputSchema: { type: 'object' } }],
  });
  const location = await call('POST', '/v1/locations', { name: `${prefix}-office`, kind: 'agent' });
  // An on-call schedule of the key's user, with one override of theirs (far in the future).
  const schedule = await call('POST', '/v1/schedules', scheduleBody((await call('GET', '/v1/me')).user.id));
  const override = (
    await call('POST', `/v1/schedules/${schedule.id}/overrides`, {
      user_id: (await call('GET', '/v1/me')).user.id,
      starts_at: '2099-01-01T00:00:00Z',
      ends_at: '2099-01-02T00:00:00Z',
    })
  ).overrides[0];
  // A contact method of the key's user: the console (verified when added, it sends nothing).
  const contactMethod = await call('POST', '/v1/me/contact-methods', { kind: 'console' });
  // A calendar feed of the schedule (its URL's token shown once, here).
  const calendarFeed = await call('POST', `/v1/schedules/${schedule.id}/feeds`);
  // A team of the key's user on that schedule, owning entity a (an owned_by relation to the team).
  const team = await call('POST', '/v1/teams', {
    name: 'Fixture team',
    members: [override.user.id],
    schedule_id: schedule.id,
  });
  await call('POST', `/v1/teams/${team.id}/entities`, { entity_id: a.id });
  // An escalation policy paging the schedule's person, then the team (used by no route or team).
  const escalationPolicy = await call('POST', '/v1/escalation-policies', policyBody(schedule.id, team.id));
  // A console session of the key's user (signed in with a password set for it).
  const me = await call('GET', '/v1/me');
  await call('POST', '/v1/me/password', { password: FIXTURE_PASSWORD });
  const signIn = await api.request('POST', '/v1/session', {
    body: { email: me.user.email, password: FIXTURE_PASSWORD, tenant: me.id },
  });
  expect(signIn.status, signIn.text).toBe(204);
  const session = (await call('GET', '/v1/sessions'))[0];
  // A screenshot of a result of the check (a browser check's evidence), stored as the recorder stores one.
  const artifact = await seedArtifact(api, me.id, check.id);
  // An integration, and its ingest token (what /in/{token} names).
  const integration = await call('POST', '/v1/integrations', {
    name: 'Fixture hook',
    kind: 'alertmanager',
    entity_rules: [{ match: {}, entity: `${bp.slug}/${a.slug}` }],
  });
  return {
    key,
    readOnlyKey: readOnly.key,
    locationKey: location.key,
    ids: {
      blueprint: bp.slug,
      entity: a.slug,
      entityId: a.id,
      otherEntityId: b.id,
      relation: relation.id,
      apiKey: apiKey.id,
      user: accepted.body.user.id,
      invitation: pending.id,
      check: check.id,
      result: artifact.resultId,
      artifact: artifact.name,
      integration: integration.id,
      integrationToken: integration.token,
      channel: channel.id,
      tenantChannel: tenantChannel.id,
      route: route.id,
      delivery,
      action: action.id,
      execution,
      incident,
      maintenance: maintenance.id,
      statusPage: statusPage.slug,
      pageIncident: pageIncident.id,
      subscriber: subscriber.id,
      skill: skill.slug,
      pushToken: pushToken.id,
      pingToken: pushToken.token,
      pingKey: pingKey.ping_key,
      location: location.id,
      locationKey: location.key_id,
      schedule: schedule.id,
      scheduleUser: override.user.id,
      override: override.id,
      contactMethod: contactMethod.id,
      calendarFeed: calendarFeed.id,
      calendarToken: calendarFeed.token,
      team: team.id,
      escalationPolicy: escalationPolicy.id,
      session: session.id,
      tenantId: me.id,
      // A grant of the key's person (a connected MCP client), and a pending authorization request
      // the person opened (a request is its first viewer's: another tenant's finds none).
      oauthGrant: await seedOauthGrant(api, me.id, me.user.id),
      oauthRequest: await pendingOauthRequest(api, key),
      // An email confirmation link's token (never valid here: its page answers 404).
      confirmToken: 'vgi_fixture',
    },
  };
}

/** The value for `param` of `route`, chosen by the path segment naming the collection before it. */
export function paramValue(route: Route, param: string, fx: TenantFixture): string {
  const segments = route.path.split('/');
  const index = segments.indexOf(`{${param}}`);
  const collection = segments[index - 1];
  // Under /v1/notify/channels a channel id is a tenant channel's; under a check, the check's own.
  if (route.path.startsWith('/v1/notify/channels/')) return fx.ids.tenantChannel ?? '';
  // The Pinging API's forms: the token, then a suffix (`fail`), or a slug and its suffix.
  if (route.path.startsWith('/ping/') && param !== 'token') return param === 'slug' ? 'nightly' : 'fail';
  // A slug URL's first segment is the tenant's ping key.
  if (route.path.startsWith('/ping/') && route.path.includes('{slug}')) return fx.ids.pingKey ?? '';
  // A location's keys are location keys, not API keys.
  if (route.path.startsWith('/v1/locations/'))
    return (param === 'key_id' ? fx.ids.locationKey : fx.ids.location) ?? '';
  if (route.path.startsWith('/v1/email-confirmations/'))
    return (param === 'tenant_id' ? fx.ids.tenantId : fx.ids.confirmToken) ?? '';
  // A report e-mail's unsubscribe link: a sealed token exists only in the e-mail.
  if (route.path.startsWith('/v1/reports/unsubscribe/')) return 'vru_fixture';
  // A status page's written incidents, and a month of its public archive.
  if (route.path.startsWith('/v1/status-pages/') && param === 'incident_id') return fx.ids.pageIncident ?? '';
  if (param === 'month') return '2026-06';
  // A built-in toolset the fixture tenant has not registered (enabling it writes a skill).
  if (param === 'toolset') return 'status-page-ops';
  // A team's owned entity is named by its id (the fixture team owns entity a).
  if (route.path.startsWith('/v1/teams/') && param === 'entity_id') return fx.ids.entityId ?? '';
  // A subscriber of the page, and a token of a subscriber's link (never valid here: its page answers 404).
  if (param === 'subscriber_id') return fx.ids.subscriber ?? '';
  if (route.path.startsWith('/p/') && param === 'token') return 'psb_00000000000000000000000000.fixture';
  // A calendar feed's URL (/ical/<token>.ics): the schedule feed's token.
  if (route.path.startsWith('/ical/')) return fx.ids.calendarToken ?? '';
  // An acknowledgement link's token exists only in a page's message (never valid here: its page answers 404).
  if (route.path.startsWith('/a/')) return 'vack_fixture';
  // An integration's ingest URL (/in/<token>).
  if (route.path.startsWith('/in/')) return fx.ids.integrationToken ?? '';
  const byCollection: Record<string, string | undefined> = {
    blueprints: fx.ids.blueprint,
    entities: fx.ids.entity,
    relations: fx.ids.relation,
    keys: fx.ids.apiKey,
    users: fx.ids.user,
    checks: fx.ids.check,
    channels: fx.ids.channel,
    logs: fx.ids.delivery,
    routes: fx.ids.route,
    actions: fx.ids.action,
    executions: fx.ids.execution,
    incidents: fx.ids.incident,
    maintenance: fx.ids.maintenance,
    'status-pages': fx.ids.statusPage,
    // The public page of the same status page (no key: the route-table suites see it as public).
    p: fx.ids.statusPage,
    skills: fx.ids.skill,
    'push-tokens': fx.ids.pushToken,
    ping: fx.ids.pingToken,
    grants: fx.ids.oauthGrant,
    requests: fx.ids.oauthRequest,
    sessions: fx.ids.session,
    schedules: fx.ids.schedule,
    overrides: fx.ids.override,
    'contact-methods': fx.ids.contactMethod,
    'escalation-policies': fx.ids.escalationPolicy,
    'calendar-feeds': fx.ids.calendarFeed,
    teams: fx.ids.team,
    results: fx.ids.result,
    artifacts: fx.ids.artifact,
    integrations: fx.ids.integration,
  };
  const value = byCollection[collection ?? ''];
  if (!value)
    throw new Error(
      `no fixture for {${param}} in ${route.method} ${route.path}: add one to route-fixtures.ts`,
    );
  return value;
}

/** The route's path with every parameter filled from the fixture. */
export function fillPath(route: Route, fx: TenantFixture): string {
  return route.path.replace(/\{([a-z_]+)\}/g, (_m, name: string) =>
    encodeURIComponent(paramValue(route, name, fx)),
  );
}

/** A two-step escalation policy: the schedule's person, then the whole team. */
const policyBody = (scheduleId: string | undefined, teamId: string | undefined) => ({
  name: 'Fixture ladder',
  steps: [
    { delay_seconds: 300, targets: [{ type: 'schedule', id: scheduleId }] },
    { delay_seconds: 600, targets: [{ type: 'team', id: teamId }] },
  ],
  repeat: 1,
});

/** A one-layer schedule of one person. */
const scheduleBody = (userId: string | undefined) => ({
  name: 'Fixture rota',
  time_zone: 'Europe/Berlin',
  layers: [
    {
      name: 'Primary',
      members: [userId],
      rotation: { type: 'daily', handoff: '09:00', start: '2026-01-05' },
    },
  ],
});

/** A maintenance window of the fixture's entity, far in the future. */
const maintenanceBody = (fx: TenantFixture) => ({
  name: 'Another window',
  entity_ids: [fx.ids.entityId],
  starts_at: '2099-02-01T00:00:00.000Z',
  ends_at: '2099-02-01T01:00:00.000Z',
});

/** A valid body for each write route (so a test sees the 404/403 rather than a 400). */
export function sampleBody(route: Route, fx: TenantFixture): unknown {
  const bodies: Record<string, unknown> = {
    'POST /v1/blueprints': { slug: 'another', name: 'Another' },
    'PUT /v1/blueprints/{slug}': { name: 'Renamed', is_default: true },
    'DELETE /v1/blueprints/{slug}': undefined,
    'POST /v1/blueprints/{slug}/fields': {
      name: 'tier',
      field_type: 'string',
      required: false,
      sort_order: 2,
    },
    'POST /v1/blueprints/{blueprint_slug}/entities': { slug: 'fixture-c', name: 'C', fields: {} },
    'PUT /v1/blueprints/{blueprint_slug}/entities/{slug}': { name: 'Renamed' },
    'DELETE /v1/blueprints/{blueprint_slug}/entities/{slug}': undefined,
    'POST /v1/relations': {
      from_entity_id: fx.ids.otherEntityId,
      to_entity_id: fx.ids.entityId,
      relation_type: 'connects_to',
    },
    'DELETE /v1/relations/{id}': undefined,
    'POST /v1/auth/keys': { label: 'another' },
    'DELETE /v1/auth/keys/{id}': undefined,
    'POST /v1/settings/users/invite': { email: 'someone@example.com', role: 'member' },
    'POST /v1/settings/users/accept': { token: 'vgi_x', name: 'x' },
    'POST /v1/session': { email: 'nobody@example.com', password: FIXTURE_PASSWORD },
    'DELETE /v1/session': undefined,
    'DELETE /v1/mcp': undefined,
    'DELETE /v1/sessions/{id}': undefined,
    'POST /v1/me/password': { current_password: FIXTURE_PASSWORD, password: FIXTURE_PASSWORD },
    'POST /v1/me/totp': undefined,
    'POST /v1/me/totp/confirm': { code: '123456' },
    'POST /v1/me/totp/disable': { code: '123456' },
    'POST /v1/me/recovery-codes': { code: '123456' },
    'POST /v1/password-reset': { email: 'someone@example.com' },
    'POST /v1/password-reset/confirm': { token: 'vpr_x', password: 'purple-otter-carries-31-lanterns' },
    'POST /v1/email-confirmations/{tenant_id}/{token}': undefined,
    'PUT /v1/me/report': { report: 'weekly', time_zone: 'Europe/Berlin' },
    'POST /v1/reports/unsubscribe/{token}': undefined,
    'POST /a/{token}': undefined,
    'DELETE /v1/settings/users/{id}': undefined,
    'POST /v1/checks': { entity_id: fx.ids.entityId, check_type: 'push' },
    'PUT /v1/checks/{id}': { interval_seconds: 120 },
    'DELETE /v1/checks/{id}': undefined,
    'POST /v1/checks/{id}/results': { success: true, latency_ms: 5 },
    'POST /v1/checks/{id}/heartbeat': undefined,
    'POST /v1/checks/{id}/run': undefined,
    // A push draft: never probed (409), so the sweeps send nothing out.
    'POST /v1/checks/run-draft': { entity_id: fx.ids.entityId, check_type: 'push' },
    'POST /v1/checks/{id}/push-tokens': undefined,
    'DELETE /v1/checks/{id}/push-tokens/{token_id}': undefined,
    'POST /v1/checks/{check_id}/policy': { silenced: true },
    'POST /v1/checks/{check_id}/policy/channels': { channel_type: 'nats', config: { subject: 'x.y' } },
    'DELETE /v1/checks/{check_id}/policy/channels/{channel_id}': undefined,
    'POST /v1/checks/{check_id}/policy/test': undefined,
    'POST /v1/notify/logs/{id}/retry': undefined,
    'POST /v1/notify/channels': { name: 'Another', channel_type: 'nats', config: { subject: 'a.b' } },
    'PUT /v1/notify/channels/{id}': { name: 'Renamed' },
    'DELETE /v1/notify/channels/{id}': undefined,
    'POST /v1/notify/channels/{id}/test': { check_id: fx.ids.check },
    'POST /v1/notify/routes': { channel_ids: [fx.ids.tenantChannel] },
    'POST /v1/notify/simulate': { check_id: fx.ids.check, to_state: 'down' },
    'POST /v1/notify/template-preview': { channel_type: 'slack', template: { title: '{{entity_name}}' } },
    'PUT /v1/settings/alerting': { alert_fold_per_minute: 20 },
    // An IP literal: the issuer passes the SSRF guard without a lookup, and nothing is fetched on saving.
    'PUT /v1/settings/sso': {
      issuer: 'https://1.1.1.1',
      client_id: 'vigil',
      client_secret: 'fixture-secret',
      email_domains: ['example.com'],
    },
    'POST /v1/settings/ping-key': undefined,
    'DELETE /v1/notify/routes/{id}': undefined,
    'POST /v1/actions': { name: 'Another', url: 'https://{{host}}/other' },
    'PUT /v1/actions/{id}': { name: 'Renamed' },
    'DELETE /v1/actions/{id}': undefined,
    'POST /v1/actions/{id}/run': { vars: {} },
    'POST /v1/incidents/{incident_id}/acknowledge': undefined,
    'POST /v1/incidents/{incident_id}/resolve': undefined,
    'POST /v1/incidents/{incident_id}/notes': { text: 'a note' },
    'POST /v1/maintenance': maintenanceBody(fx),
    'PUT /v1/maintenance/{id}': maintenanceBody(fx),
    'DELETE /v1/maintenance/{id}': undefined,
    'POST /v1/status-pages': { slug: 'another-page', title: 'Another', entity_ids: [fx.ids.entityId] },
    'PUT /v1/status-pages/{slug}': { title: 'Renamed', entity_ids: [fx.ids.entityId], show_incidents: false },
    'DELETE /v1/status-pages/{slug}': undefined,
    'POST /v1/status-pages/{slug}/incidents': { title: 'Another incident', body: 'Looking.' },
    'POST /v1/status-pages/{slug}/incidents/preview': { body: 'Looking *closely*.' },
    'PATCH /v1/status-pages/{slug}/incidents/{incident_id}': { title: 'Renamed incident' },
    'POST /v1/status-pages/{slug}/incidents/{incident_id}/updates': {
      status: 'identified',
      body: 'Found it.',
    },
    'DELETE /v1/status-pages/{slug}/incidents/{incident_id}': undefined,
    'POST /v1/status-pages/{slug}/subscribers': { url: 'https://hooks.example.com/another' },
    // CSV (route-walk sends one); a JSON body names no email column: 400 once authorised.
    'POST /v1/status-pages/{slug}/subscribers/import': undefined,
    'DELETE /v1/status-pages/{slug}/subscribers/{subscriber_id}': undefined,
    // Raw text with `?source=`; none here: the convert route writes nothing either way.
    'POST /v1/config/convert': undefined,
    'POST /v1/skills': { slug: 'another-skill', name: 'Another', version: '1.0.0', tools: [] },
    'PUT /v1/skills/{slug}': { enabled: false },
    'DELETE /v1/skills/{slug}': undefined,
    'POST /v1/skills/builtin/{toolset}': undefined,
    // An empty document: a plan or apply of it changes nothing.
    'POST /v1/config/plan': { apiVersion: 'vigil/v1', kind: 'Config' },
    'POST /v1/config/apply': { apiVersion: 'vigil/v1', kind: 'Config' },
    'POST /v1/schedules': scheduleBody(fx.ids.scheduleUser),
    'PUT /v1/schedules/{id}': scheduleBody(fx.ids.scheduleUser),
    'DELETE /v1/schedules/{id}': undefined,
    'POST /v1/schedules/{id}/overrides': {
      user_id: fx.ids.scheduleUser,
      starts_at: '2099-02-01T00:00:00Z',
      ends_at: '2099-02-02T00:00:00Z',
    },
    'DELETE /v1/schedules/{id}/overrides/{override_id}': undefined,
    // The fixture's person already has a console method: 409 once authorised (nothing is sent).
    'POST /v1/me/contact-methods': { kind: 'console', label: 'Another console' },
    'POST /v1/me/contact-methods/{id}/verify': { code: '123456' },
    'POST /v1/me/contact-methods/{id}/resend': undefined,
    'DELETE /v1/me/contact-methods/{id}': undefined,
    'PUT /v1/me/notification-rules': {
      rules: [{ after_seconds: 0, contact_method_id: fx.ids.contactMethod }],
    },
    'POST /v1/schedules/{id}/feeds': { label: 'Another feed' },
    'POST /v1/calendar-feeds': undefined,
    'DELETE /v1/calendar-feeds/{id}': undefined,
    'POST /v1/teams': { name: 'Another team', members: [fx.ids.scheduleUser] },
    'PUT /v1/teams/{id}': { name: 'Renamed team', schedule_id: fx.ids.schedule },
    'DELETE /v1/teams/{id}': undefined,
    'POST /v1/escalation-policies': policyBody(fx.ids.schedule, fx.ids.team),
    'PUT /v1/escalation-policies/{id}': policyBody(fx.ids.schedule, fx.ids.team),
    'DELETE /v1/escalation-policies/{id}': undefined,
    'POST /v1/teams/{id}/entities': { entity_id: fx.ids.otherEntityId },
    'DELETE /v1/teams/{id}/entities/{entity_id}': undefined,
    'POST /v1/locations': { name: 'another-office', kind: 'agent' },
    'DELETE /v1/locations/{id}': undefined,
    'POST /v1/locations/{id}/keys': undefined,
    'DELETE /v1/locations/{id}/keys/{key_id}': undefined,
    'POST /v1/oauth/requests/{id}/decision': { approve: false },
    'DELETE /v1/oauth/grants/{id}': undefined,
    'POST /oauth/register': { redirect_uris: ['https://client.example/callback'], client_name: 'Fixture' },
    'POST /oauth/token': undefined,
    // A form body (the walk sends one of its own); the fixture's page is public: a wrong password.
    'POST /p/{slug}/access': undefined,
    'POST /oauth/revoke': undefined,
    'POST /v1/integrations': { name: 'Another hook', kind: 'alertmanager', entity_rules: [] },
    'PUT /v1/integrations/{id}': { name: 'Renamed hook', kind: 'alertmanager', entity_rules: [] },
    'DELETE /v1/integrations/{id}': undefined,
    'POST /v1/integrations/{id}/token': undefined,
    // Alertmanager's webhook with no alert (raw JSON bodies: the walks send them as JSON).
    'POST /in/{token}': { version: '4', alerts: [] },
    'POST /in': { version: '4', alerts: [] },
    'POST /v2/enqueue': { routing_key: 'R0000000000000000000000000000000', event_action: 'trigger' },
    'POST /v1/agent/heartbeat': { version: '1.0.0' },
    'POST /v1/agent/lease': { max: 1, wait_seconds: 0 },
    'POST /v1/agent/results': [
      {
        job_id: `${fx.ids.check}:0`,
        slot: 0,
        result: {
          success: true,
          status_code: 200,
          latency_ms: 5,
          error_message: '',
          checked_at: '2026-01-01T00:00:00.000Z',
        },
      },
    ],
  };
  const name = `${route.method} ${route.path}`;
  if (!(name in bodies)) throw new Error(`no sample body for ${name}: add one to route-fixtures.ts`);
  return bodies[name];
}

/** Every stored item of a tenant (its partition and its checks' partitions), for "nothing changed" checks. */
export async function tenantSnapshot(api: ApiHarness, tenantId: string): Promise<string> {
  const items = await queryAll((cursor) =>
    api.table.query({ pk: tenantPk(tenantId), cursor, consistent: true }),
  );
  const checkIds = items.filter((i) => i.entity === 'check').map((i) => String(i.id));
  for (const id of checkIds) {
    items.push(
      ...(await queryAll((cursor) => api.table.query({ pk: `CHECK#${id}`, cursor, consistent: true }))),
    );
  }
  // last_used_at moves with every authenticated request by design; it is not tenant data.
  const canonical = (item: Record<string, unknown>) =>
    JSON.stringify(Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : 1))));
  return items.map(({ last_used_at: _l, ...rest }) => canonical(rest)).join('\n');
}

/** The lines of `after` that were not in `before` and vice versa (for readable failures). */
export function diffLines(before: string, after: string): string {
  const a = new Set(before.split('\n'));
  const b = new Set(after.split('\n'));
  const removed = [...a].filter((l) => !b.has(l)).map((l) => `- ${l}`);
  const added = [...b].filter((l) => !a.has(l)).map((l) => `+ ${l}`);
  return [...removed, ...added].join('\n');
}

/**
 * Sends every route (path filled with `fx`'s ids, a valid sample body) with `key` and returns a line
 * per route that did not answer `status`/`code` or that changed the owner tenant's stored items.
 */
export async function denialFailures(
  api: ApiHarness,
  routes: Route[],
  fx: TenantFixture,
  key: string,
  expected: { status: number; code: string },
): Promise<string[]> {
  const failures: string[] = [];
  for (const route of routes) {
    const before = await tenantSnapshot(api, api.tenantId);
    const res = await api.request(route.method, fillPath(route, fx), {
      key,
      body: route.method === 'GET' ? undefined : sampleBody(route, fx),
    });
    const after = await tenantSnapshot(api, api.tenantId);
    if (res.status !== expected.status || res.body?.code !== expected.code) {
      failures.push(`${route.method} ${route.path} -> ${res.status} ${res.text}`);
    }
    if (before !== after)
      failures.push(`${diffLines(before, after)} ${route.method} ${route.path} changed data`);
  }
  return failures;
}
