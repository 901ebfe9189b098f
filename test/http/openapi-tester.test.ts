import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Route } from '../../lib/http/types.ts';
import { describeRequest } from '../fuzz/answer-checks.ts';
import { createFuzzClient, type FuzzClient } from '../fuzz/fuzz-client.ts';
import { createFixture, type TenantFixture } from '../security/route-fixtures.ts';
import { type LocalHarness, startLocalHarness } from '../support/api-harness.ts';
import { sealedEgress } from '../support/sealed-egress.ts';
import { INEXPRESSIBLE_JSON_RPC, inexpressible } from './support/inexpressible-rules.ts';
import type { Hints } from './support/openapi-arbitrary.ts';
import {
  createValidators,
  type OpenApiDocument,
  operationOf,
  undeclared,
  type ValidRequest,
  validRequests,
} from './support/openapi-operations.ts';

/**
 * An OpenAPI-driven tester, run on every test run: for each operation of the route table, requests
 * generated VALID by the served document's own schemas (path ids of a fixture tenant, so they reach
 * handlers) go to a live local runtime whose scheduler is off (no check is ever probed; every host
 * resolves to 127.0.0.1). Every answer must be a response the document declares for the operation
 * (status, media type, body by ajv), never a 5xx, and never a 400 for a reason the document could
 * have stated (support/inexpressible-rules.ts lists the ones it cannot). VIGIL_OPENAPI_SEED explores.
 */
const SEED = Number(process.env.VIGIL_OPENAPI_SEED ?? 24_08);
/** Each operation's own seed, from its name: a route added elsewhere in the table changes no other's samples. */
const seedOf = (route: Route) =>
  [...`${route.method} ${route.path}`].reduce((h, c) => (h * 31 + c.charCodeAt(0)) % 1_000_003, 0);
/** Requests per operation: a few thousand in all. */
const PER_OPERATION = 45;
const IN_FLIGHT = 8;

/** Reads first, then writes, deletes last: deletions would otherwise empty the fixture early. */
const ORDER = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
/** Deletions of what others hold go before the holders (an entity's deletion takes its checks along). */
const DELETE_FIRST = [
  '/v1/checks/{check_id}/policy/channels/{channel_id}',
  '/v1/checks/{id}/push-tokens/{token_id}',
  '/v1/status-pages/{slug}/incidents/{incident_id}',
  '/v1/status-pages/{slug}/subscribers/{subscriber_id}',
  '/v1/checks/{id}',
  '/v1/relations/{id}',
  '/v1/locations/{id}/keys/{key_id}',
  '/v1/schedules/{id}/overrides/{override_id}',
  // The fixture's feed is its schedule's: deleting the schedule revokes it.
  '/v1/calendar-feeds/{id}',
  '/v1/teams/{id}/entities/{entity_id}',
];
const DELETE_LAST = ['/v1/blueprints/{blueprint_slug}/entities/{slug}', '/v1/blueprints/{slug}'];
const rank = (route: Route) => {
  const first = DELETE_FIRST.indexOf(route.path);
  const last = DELETE_LAST.indexOf(route.path);
  const within = first >= 0 ? first - 10 : last >= 0 ? 10 + last : 0;
  return ORDER.indexOf(route.method) * 100 + (route.method === 'DELETE' ? within : 0);
};
/**
 * Operations whose generated requests may be valid less often than 80 %: a configuration
 * document is ten lists of objects, each object generated from patterns (slugs, references by
 * name) the generator misses now and then, so a whole document misses more often than one body.
 */
const MIN_VALID_SHARE: Record<string, number> = {
  'POST /v1/config/plan': 0.6,
  'POST /v1/config/apply': 0.6,
};

/** A configuration apply (with ?prune=true, it deletes what its document leaves out) goes after everything else. */
const rankLast = (route: Route) => (route.path === '/v1/config/apply' ? 1000 : 0);
const ordered = (routes: readonly Route[]) =>
  [...routes].sort((a, b) => rank(a) + rankLast(a) - rank(b) - rankLast(b));

/**
 * Operations no request of this run can succeed on, and why; any other operation must answer a
 * 2xx at least once, so the tester is known to reach its handler.
 */
const NEVER_SUCCEEDS: Record<string, string> = {
  'POST /in/{token}':
    "the fixture integration's token is rotated by POST /v1/integrations/{id}/token, walked before it (404; test/integrations covers the successes)",
  'POST /in':
    'the ingest token goes in an Authorization header the document cannot give a value (404; test/integrations covers the successes)',
  'POST /v2/enqueue':
    'a generated routing_key is never an integration’s (404; test/integrations covers the successes)',
  'PUT /v1/checks/{id}':
    "the fixture's check is a push check: most generated bodies set a field only http checks take (400)",
  'DELETE /v1/blueprints/{slug}': 'the fixture blueprint still holds entities (409)',
  'POST /v1/checks/{id}/run':
    "the fixture's check is a push check, which is never probed (409; test/checks/run-now covers the successes)",
  'POST /v1/maintenance':
    'a generated window is almost never valid as a whole: both one-off times and no recurring field, or the reverse, and stored entity ids (400; test/maintenance covers the successes)',
  'PUT /v1/maintenance/{id}':
    'a generated window is almost never valid as a whole: both one-off times and no recurring field, or the reverse, and stored entity ids (400; test/maintenance covers the successes)',
  'POST /v1/escalation-policies':
    'a generated target names generated ids, never a schedule, member, channel or team of the account (400; test/http/openapi-conformance and test/escalation cover the successes)',
  'PUT /v1/escalation-policies/{id}':
    'a generated target names generated ids, never a schedule, member, channel or team of the account (400; test/http/openapi-conformance and test/escalation cover the successes)',
  'POST /v1/schedules':
    'a generated layer names generated user ids, never members of the account (400; test/oncall/schedules-api covers the successes)',
  'PUT /v1/schedules/{id}':
    'a generated layer names generated user ids, never members of the account (400; test/oncall/schedules-api covers the successes)',
  'POST /v1/schedules/{id}/overrides':
    'a generated user_id is never a member of the account (400; test/oncall/schedules-api covers the successes)',
  'POST /v1/me/contact-methods':
    "each kind's provider is the account's shared channel (none here) and nothing leaves the machine; the fixture's person has the console already (409; test/contacts covers the successes)",
  'POST /v1/me/contact-methods/{id}/verify':
    'the fixture’s method is the console, verified when added (409; test/contacts verifies by the code sent)',
  'POST /v1/me/contact-methods/{id}/resend':
    'the fixture’s method is the console, verified when added: nothing to resend (409; test/contacts covers the successes)',
  'PUT /v1/notify/channels/{id}':
    'channel_type and config are generated apart: a config of the type given is rare, and a type without its config is refused (400; test/notify/shared-channels-api covers the successes)',
  'POST /p/{slug}/subscribe':
    'the tester runs without e-mail configured, so every subscription is refused (400 saying mail is off; test/status-pages/subscribers covers the successes)',
  'GET /p/{slug}/confirm/{token}':
    'a subscription’s link exists only in the email it was sent by (404 page; test/status-pages/subscribers covers the successes)',
  'POST /p/{slug}/confirm/{token}':
    'a subscription’s link exists only in the email it was sent by (404 page; test/status-pages/subscribers covers the successes)',
  'GET /p/{slug}/subscription/{token}':
    'a manage link exists only in the emails a subscriber is sent (404 page; test/status-pages/subscribers covers the successes)',
  'POST /p/{slug}/subscription/{token}':
    'a manage link exists only in the emails a subscriber is sent (404 page; test/status-pages/subscribers covers the successes)',
  'GET /p/{slug}/sso-pass':
    'the fixture’s page is no SSO page with a custom domain, so it has no hand-off (404 page; test/status-pages/sso-page-domains covers the successes)',
  'POST /v1/status-pages/{slug}/subscribers':
    'generated components are never entities the page shows (400), and a URL the page holds already is 409 (test/status-pages/subscriber-admin covers the successes)',
  'POST /v1/status-pages/{slug}/subscribers/import':
    'generated text is never a CSV whose header line names an email column (400; test/status-pages/subscriber-admin covers the successes)',
  'GET /v1/email-confirmations/{tenant_id}/{token}':
    'a confirmation token exists only in the email it was sent by (404 page; test/notify/email-recipients covers the successes)',
  'POST /v1/email-confirmations/{tenant_id}/{token}':
    'a confirmation token exists only in the email it was sent by (404 page; test/notify/email-recipients covers the successes)',
  'GET /v1/reports/unsubscribe/{token}':
    'an unsubscribe token is sealed with the deployment’s secret and exists only in the report e-mail (404 page; test/reports covers the successes)',
  'POST /v1/reports/unsubscribe/{token}':
    'an unsubscribe token is sealed with the deployment’s secret and exists only in the report e-mail (404 page; test/reports covers the successes)',
  'GET /a/{token}':
    'an acknowledgement link exists only in the message of a page to a person (404 page; test/ack-links covers the successes)',
  'POST /a/{token}':
    'an acknowledgement link exists only in the message of a page to a person (404 page; test/ack-links covers the successes)',
  'GET /ping/{token}/{slug}/{suffix}':
    'the fixture has no ping key, so a slug URL names no check (404 `not found`; test/push/ping-compat-slug covers the successes)',
  'POST /ping/{token}/{slug}/{suffix}':
    'the fixture has no ping key, so a slug URL names no check (404 `not found`; test/push/ping-compat-slug covers the successes)',
  'GET /oauth/authorize':
    'a client id exists only once registered (POST /oauth/register answers it) or as a reachable metadata document (400; test/oauth covers the successes)',
  'POST /oauth/token':
    'codes and refresh tokens exist only once issued (400 invalid_grant; test/oauth covers the successes)',
  'DELETE /v1/mcp':
    'a session id exists only once an initialize answered it, in its Mcp-Session-Id header, which the tester does not send (400; test/mcp/sessions covers the successes)',
  'POST /v1/session':
    'a generated e-mail and password are never a member’s (401; test/people/sessions covers the successes)',
  'POST /p/{slug}/access':
    'the fixture’s page is public and a generated password opens no page (401 form; test/status-pages/private-pages covers the successes)',
  'POST /v1/me/password':
    'the fixture’s user has a password, and a generated current_password is never it (400; test/people/sessions covers the successes)',
  'GET /v1/sso/start':
    'a generated team names none with SSO set up: a 302 to /sign-in?error=… (test/people/sso covers the successes)',
  'GET /v1/sso/callback':
    'a generated state is none Vigil issued: a 302 to /sign-in?error=invalid_state (test/people/sso covers the successes)',
  'POST /v1/me/totp/confirm':
    'a code is one of the secret just enrolled, which only its response shows (400, or 409 without an enrolment; test/people/totp covers the successes)',
  'POST /v1/me/totp/disable':
    'the fixture user has no confirmed TOTP (409; test/people/totp covers the successes)',
  'POST /v1/me/recovery-codes':
    'the fixture user has no confirmed TOTP (409; test/people/totp covers the successes)',
  'POST /v1/password-reset':
    'the tester runs without e-mail configured (400 naming the settings; test/people/password-reset covers the successes)',
  'POST /v1/password-reset/confirm':
    'a reset token exists only in the e-mail it was sent by (400; test/people/password-reset covers the successes)',
  'POST /v1/config/convert':
    'a generated text is never a Kuma backup or a Gatus file an importer can read (400 naming where; test/importers/convert-route and the importers’ tests cover the successes)',
  'POST /v1/config/plan':
    "a generated document's objects refer to one another by names generated apart, so almost every one names an object that exists nowhere (400; test/config-doc covers the successes)",
  'POST /v1/config/apply':
    "a generated document's objects refer to one another by names generated apart, so almost every one names an object that exists nowhere (400; test/config-doc covers the successes)",
  'POST /v1/notify/routes':
    'a route names existing tenant channels in arrays; hints stand for strings only, so generated ids name none (400)',
};

function hintsFor(fx: TenantFixture, invitationToken: string): Hints {
  // Hosts without a port: every name resolves to 127.0.0.1 here, so a run or an alert goes to
  // port 443 or 80 of this machine, where nothing of the test listens.
  const url = fc.constantFrom('https://hooks.example.com/alerts', 'https://ntfy.example.org/vigil-topic');
  return {
    only: {
      url,
      target_url: fc.constantFrom('https://svc.example.com/health', 'http://svc.example.com/'),
      issuer: fc.constantFrom('https://idp.example.com', 'https://login.example.org/realms/team'),
      // The agent's lease waits that long for a job when none is due: within the client's deadline.
      wait_seconds: fc.integer({ min: 0, max: 1 }),
    },
    also: {
      entity_id: fc.constantFrom(fx.ids.entityId, fx.ids.otherEntityId),
      from_entity_id: fc.constantFrom(fx.ids.entityId, fx.ids.otherEntityId),
      to_entity_id: fc.constantFrom(fx.ids.entityId, fx.ids.otherEntityId),
      check_id: fc.constant(fx.ids.check),
      channel_id: fc.constant(fx.ids.channel),
      action_id: fc.constant(fx.ids.action),
      // A live invitation (the first request that sends it accepts it).
      token: fc.constant(invitationToken),
    },
  };
}

interface Outcome {
  problems: string[];
  success: boolean;
}

describe('requests valid by the OpenAPI document (local runtime, scheduler off)', () => {
  let api: LocalHarness;
  let fx: TenantFixture;
  let doc: OpenApiDocument;
  let client: FuzzClient;
  let invitationToken: string;
  const sentByOperation = new Map<string, { sent: number; succeeded: number; statuses: number[] }>();

  beforeAll(async () => {
    api = await startLocalHarness({
      scheduler: false,
      env: {
        VIGIL_PROBE_THREADS: '0',
        VIGIL_ALLOW_PRIVATE_TARGETS: 'true',
        VIGIL_EGRESS_ALLOW: '127.0.0.0/8',
      },
      // Names resolve to loopback; a generated literal public address is dialled by nothing.
      egress: {
        resolve: async () => [{ address: '127.0.0.1', family: 4 }],
        transport: sealedEgress().transport,
      },
    });
    fx = await createFixture(api, api.adminKey);
    const invited = await api.request('POST', '/v1/settings/users/invite', {
      key: api.adminKey,
      body: { email: 'tester@example.com' },
    });
    invitationToken = invited.body.token;
    doc = (await api.request('GET', '/v1/openapi.json')).body;
    client = createFuzzClient(api.local.url, { sockets: IN_FLIGHT, deadlineMs: 5000 });
  });
  afterAll(async () => {
    client?.close();
    await api?.close();
  });

  /** What is wrong with one answer to `req`. */
  const judge = (req: ValidRequest, answer: Awaited<ReturnType<FuzzClient['send']>>): Outcome => {
    if (answer.failure) return { problems: [answer.failure], success: false };
    const route = api.app.routes.find((r) => `${r.method} ${r.path}` === req.operation);
    if (!route) throw new Error(`no route ${req.operation}`);
    const problems = undeclared(operationOf(doc, route), answer, validators());
    if (answer.status >= 500) problems.push(`answered ${answer.status}`);
    if (answer.status === 400) problems.push(...refusals(req.operation, answer.body));
    return { problems, success: answer.status < 300 };
  };

  let cached: ReturnType<typeof createValidators> | undefined;
  const validators = () => {
    cached ??= createValidators(doc);
    return cached;
  };

  it('answers every operation as the document declares, never refusing what it allows', async () => {
    /** One entry per operation and kind of problem: its count and first example. */
    const failures = new Map<string, { count: number; example: string }>();
    const fail = (kind: string, example: string) => {
      const known = failures.get(kind);
      if (known) known.count += 1;
      else failures.set(kind, { count: 1, example });
    };
    const routes = ordered(api.app.routes);
    for (const route of routes) {
      const generated = fc.sample(
        validRequests(route, doc, fx, hintsFor(fx, invitationToken), validators()),
        {
          seed: SEED + seedOf(route),
          numRuns: PER_OPERATION,
        },
      );
      const requests = generated.filter((req) => req !== undefined);
      // The generator aims inside the document's schemas; most of what it makes must be valid.
      if (requests.length < PER_OPERATION * (MIN_VALID_SHARE[`${route.method} ${route.path}`] ?? 0.8))
        fail(
          `${route.method} ${route.path}: only ${requests.length} of ${PER_OPERATION} generated requests were valid`,
          '',
        );
      const tally = { sent: 0, succeeded: 0, statuses: [] as number[] };
      for (let i = 0; i < requests.length; i += IN_FLIGHT) {
        const batch = requests.slice(i, i + IN_FLIGHT);
        const answers = await Promise.all(batch.map((req) => client.send(req)));
        batch.forEach((req, j) => {
          const answer = answers[j];
          if (!answer) return;
          const { problems, success } = judge(req, answer);
          tally.sent += 1;
          if (success) tally.succeeded += 1;
          if (!tally.statuses.includes(answer.status)) tally.statuses.push(answer.status);
          for (const problem of problems)
            fail(
              `${req.operation} -> ${answer.status}: ${problem.replace(/\d+/g, 'N')}`,
              `${describeRequest(req)}\n    answer: ${answer.body.slice(0, 400)}`,
            );
        });
      }
      sentByOperation.set(`${route.method} ${route.path}`, tally);
    }
    const report = [...failures].map(([kind, { count, example }]) => `${kind} (x${count})\n    ${example}`);
    expect(report.join('\n\n')).toBe('');
    // Sign-in and password changes hash with scrypt on purpose (~0.5 s each, one at a time per
    // process: lib/people/password.ts), most of their 90 requests included.
  }, 180_000);

  it('answers a secured operation without a key with the 401 it declares (JSON-RPC for MCP)', async () => {
    const problems: string[] = [];
    for (const route of api.app.routes) {
      const op = operationOf(doc, route);
      if (op.security.length === 0) continue;
      const [request] = fc
        .sample(validRequests(route, doc, fx, hintsFor(fx, invitationToken), validators()), {
          seed: SEED,
          numRuns: 20,
        })
        .filter((req) => req !== undefined);
      if (!request) throw new Error(`no valid request for ${route.method} ${route.path}`);
      const { authorization: _key, ...headers } = request.headers;
      const answer = await client.send({ ...request, headers });
      if (answer.status !== 401)
        problems.push(
          `${request.operation} -> ${answer.status} without a key${answer.failure ? ` (${answer.failure})` : ''}`,
        );
      problems.push(...undeclared(op, answer, validators()).map((p) => `${request.operation}: ${p}`));
    }
    expect(problems).toEqual([]);
  });

  it('reaches the handlers: a few thousand requests, most operations answered with a success', () => {
    const tallies = [...sentByOperation.values()];
    const sent = tallies.reduce((sum, t) => sum + t.sent, 0);
    expect(sent).toBeGreaterThanOrEqual(2000);
    const answered = [...sentByOperation].filter(([, t]) => t.succeeded > 0).map(([name]) => name);
    const never = [...sentByOperation.keys()].filter((name) => !answered.includes(name));
    // Only the listed operations may go without a success (one of them succeeding by chance is fine).
    const unexplained = never.filter((name) => !(name in NEVER_SUCCEEDS));
    expect(unexplained, JSON.stringify(Object.fromEntries(sentByOperation))).toEqual([]);
  });
});

/** The reasons of a 400 answer that no rule of the inexpressible list explains. */
function refusals(operation: string, text: string): string[] {
  let body: { code?: string; details?: { path: string; message: string }[]; error?: unknown } | undefined;
  try {
    body = JSON.parse(text);
  } catch {
    return ['a 400 whose body is not JSON'];
  }
  // The OAuth token endpoint's RFC 6749 errors (their `code` is VALIDATION_ERROR): a code or refresh token the store does not hold.
  const oauth = body as { error?: unknown; error_description?: unknown } | undefined;
  if (
    operation === 'POST /oauth/token' &&
    (oauth?.error === 'invalid_grant' || oauth?.error === 'invalid_scope')
  )
    return [];
  if (body?.code === 'VALIDATION_ERROR') {
    const details = body.details ?? [{ path: '', message: String(body.error) }];
    return details
      .filter((detail) => !inexpressible(operation, detail))
      .map((d) => `refused for a reason the document could state: ${d.path}: ${d.message}`);
  }
  const rpc = body?.error as { message?: string } | undefined;
  if (typeof rpc?.message === 'string') {
    const message = rpc.message;
    return INEXPRESSIBLE_JSON_RPC.some((rule) => rule.message.test(message))
      ? []
      : [`refused with JSON-RPC error: ${message}`];
  }
  return [`a 400 ${text.slice(0, 200)}`];
}
