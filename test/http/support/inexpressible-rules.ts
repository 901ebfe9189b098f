/**
 * The 400 VALIDATION_ERROR answers a request valid by the OpenAPI document may still get: rules
 * no schema of the document can state, because they depend on stored data, on the clock, on
 * another parameter, or on what JSON Schema cannot count. Each names its operation (`*`: any),
 * the detail path and message it explains, and why the document cannot say it. Anything else is a
 * mismatch the document must fix.
 */
export interface InexpressibleRule {
  operation: string;
  path: RegExp;
  message: RegExp;
  why: string;
}

const INEXPRESSIBLE: readonly InexpressibleRule[] = [
  ...['POST /v1/config/plan', 'POST /v1/config/apply'].flatMap((operation) => [
    {
      operation,
      path: /^[a-z_]+\[\d+\]$/,
      // The message is clipped at 200 characters, so it is matched by its start.
      message:
        / refers to (blueprints|entities|relations|channels|checks|routes|maintenance|status_pages|actions|skills|schedules|teams) /,
      why: 'a reference must name an object of the document or of the tenant: stored data',
    },
    {
      operation,
      path: /^[a-z_]+\[\d+\]$/,
      message: /^[a-z_]+\[\d+\] and [a-z_]+\[\d+\] are both /,
      why: "identities must be unique within a list: JSON Schema's uniqueItems compares whole objects",
    },
    {
      operation,
      path: /^maintenance\[\d+\]\.(starts_at|ends_at|cron|duration_seconds|timezone|entities|blueprints)\b/,
      message: /^(Give either|This field is required|Choose at least one|Enter a timezone name)/,
      why: "a document's window is one-off or recurring by a refinement, which its JSON Schema (generated from the kind's schema) does not state as alternatives; a timezone is a name the runtime knows",
    },
    {
      operation,
      path: /^maintenance\[\d+\]\.(announce_from|announce_lead_seconds)$/,
      message:
        /^(Announce the window at or before|A recurring window is shown|announce_lead_seconds is for recurring)/,
      why: "a document's window takes announce_from when one-off (at or before starts_at: two times compared) and announce_lead_seconds when recurring, by a refinement its JSON Schema does not state",
    },
    {
      operation,
      path: /^routes\[\d+\]\.(channels|escalate_after_seconds|escalate_channels)$/,
      message: /^(escalate_after_seconds and escalate_channels go together|.*at least one channel)/,
      why: "a document's route sends to channels, or escalates (its delay and its channels together), or both: a refinement of the kind's schema that its JSON Schema does not state as alternatives (the API route's own body states them)",
    },
    {
      operation,
      path: /^schedules\[\d+\]\.(time_zone|layers\[\d+\]\.(rotation\.(start|length_hours)|ends_at))$/,
      message: /IANA time zone|real calendar date|length_hours|after starts_at/,
      why: "as for POST /v1/schedules: the zone names the runtime knows, a real calendar date, length_hours by the rotation's type, and two times compared",
    },
    {
      operation,
      path: /^teams\[\d+\]\.members\[\d+\]$/,
      message: /^Listed twice\.$/,
      why: 'a list without repeats (uniqueItems is not stated by the document)',
    },
  ]),
  {
    operation: 'GET /oauth/authorize',
    path: /^(client_id|redirect_uri)$/,
    message: /no client is registered with this id|must equal one of the client's registered redirect URIs/,
    why: 'a client and its redirect URIs are stored data (registered, or a metadata document fetched)',
  },
  {
    operation: 'POST /v1/oauth/requests/{id}/decision',
    path: /^scopes$/,
    message: /^the client asked for/,
    why: 'the scopes chosen must be among those the stored request asked for',
  },
  {
    operation: '*',
    path: /^…$/,
    message: /^\d+ more issues? not shown$/,
    why: 'an answer shows at most 20 details (lib/platform/errors.ts) and counts the rest in one entry: the shown ones are judged, the count says nothing of its own',
  },
  {
    operation: '*',
    path: /^password$/,
    message: /^(the password must|this password is too common)/,
    why: 'the password policy (lib/people/password-policy.ts) refuses common passwords and the account’s e-mail: stored data and a list; its length is counted in characters, not UTF-16 units',
  },
  {
    operation: 'POST /v1/me/password',
    path: /^current_password$/,
    message: /current password/,
    why: 'whether the current password is needed, and what it is, is stored data',
  },
  {
    operation: 'POST /v1/session',
    path: /^totp$/,
    message: /code/,
    why: 'whether an account has a second factor, and its code, is stored data',
  },
  {
    operation: 'PUT /v1/settings/sso',
    path: /^client_secret$/,
    message: /^Enter the client secret the provider gave you\.$/,
    why: 'the secret is optional only once one is stored (absent keeps it): it depends on stored data',
  },
  {
    operation: 'PUT /v1/settings/sso',
    path: /^issuer$/,
    message: /^The issuer must be an https:\/\/ URL\.$|^Vigil may not reach this issuer/,
    why: 'plain http only to a loopback host where private targets are allowed (the configuration), and the SSRF guard judges where the name resolves',
  },
  {
    operation: 'PUT /v1/settings/sso',
    path: /^slug$/,
    message: /^This slug is taken/,
    why: "a slug is unique across teams: another team's stored settings",
  },
  {
    operation: 'POST /v1/checks',
    path: /^interval_seconds$/,
    message: /^Enter \d+ or more: .* run at most once every \d+ seconds/,
    why: "a check type's shortest interval (domain checks: 3600 s) depends on check_type; the document states one interval_seconds for every type",
  },
  {
    operation: 'PUT /v1/notify/channels/{id}',
    path: /^template$/,
    message: /sends the event as JSON, not a message, so it takes no template/,
    why: "an update keeps the stored channel's type, which its body does not name: whether a template is allowed (not for webhook and nats) depends on stored data",
  },
  {
    operation: '*',
    path: /^config\.from$/,
    message: /^Enter either from \(the sending number\) or messaging_service_sid, not both\.$/,
    why: "a Twilio sms channel's sender is exactly one of two optional fields (the document lists both as optional)",
  },
  {
    operation: '*',
    path: /^cursor$/,
    message: /is not a cursor of this list/,
    why: 'a cursor is opaque: only the server knows which ones it handed out',
  },
  {
    operation: '*',
    path: /./,
    message: /bytes/,
    why: 'UTF-8 byte limits: JSON Schema counts characters (maxLength is the byte bound, a character takes 1 to 4 bytes)',
  },
  {
    operation: 'GET /v1/checks',
    path: /^limit$/,
    message: /is required with cursor/,
    why: 'a dependency between two query parameters; OpenAPI parameters are described one by one',
  },
  ...['GET /v1/status', 'GET /v1/checks'].map((operation) => ({
    operation,
    path: /^limit$/,
    message: /^Give a limit of at most \d+ with include=recent\.$/,
    why: 'a dependency between two query parameters; OpenAPI parameters are described one by one',
  })),
  {
    operation: 'GET /v1/checks',
    path: /^blueprint$/,
    message: /^No blueprint has this slug\.$/,
    why: 'the blueprint filter names a stored blueprint of the tenant (stored data)',
  },
  ...[
    'POST /v1/blueprints/{blueprint_slug}/entities',
    'PUT /v1/blueprints/{blueprint_slug}/entities/{slug}',
  ].map((operation) => ({
    operation,
    path: /^fields/,
    message: /./,
    why: "entity fields are checked against the blueprint's stored field definitions",
  })),
  {
    operation: 'POST /v1/blueprints',
    path: /^fields\.\d+\.name$/,
    message: /Another field is already named/,
    why: 'unique names within an array: JSON Schema has uniqueItems for whole items only',
  },
  {
    operation: 'POST /v1/blueprints/{slug}/fields',
    path: /^name$/,
    message: /duplicate|already/,
    why: "a field name is unique within the blueprint's stored fields",
  },
  {
    operation: 'GET /v1/status/stream',
    path: /^last-event-id$/,
    message: /ahead of the server clock/,
    why: "a transition id's time may not be after the server's clock",
  },
  {
    operation: 'POST /v1/blueprints/{slug}/fields',
    path: /^default_value$/,
    message: /already has entities/,
    why: 'a required field needs a default_value only while the blueprint holds entities (stored state)',
  },
  {
    operation: 'PUT /v1/checks/{id}',
    path: /^(target_url|method|headers|body|body_contains|expected_status|expected_statuses|timeout_ms|execution_mode|config|interval_seconds|assertions|degraded_latency_ms)\b/,
    message: /./,
    why: "which fields apply depends on the stored check's check_type, which the body does not carry",
  },
  {
    operation: '*',
    path: /^locations\.\d+$/,
    message: /^No location is named /,
    why: "a check's locations name the tenant's stored locations (GET /v1/locations)",
  },
  {
    operation: '*',
    path: /^expected_statuses(\.\d+|\[\d+\])$/,
    message: /^A range starts at its lower code/,
    why: 'two numbers compared inside one string: a range "NNN-NNN" starts at its lower code',
  },
  {
    operation: '*',
    path: /^expected_status$/,
    message: /^reads as the first code of expected_statuses/,
    why: 'two fields compared: expected_status, when given beside expected_statuses, is its first code',
  },
  {
    operation: 'POST /v1/checks',
    path: /^quorum$/,
    message: /a quorum counts locations that report failure/,
    why: 'two fields compared: quorum is at most the number of locations',
  },
  {
    operation: 'PUT /v1/checks/{id}',
    path: /^(locations|quorum)$/,
    message: /./,
    why: 'a quorum is at most the number of locations, which an update may leave stored, and push checks (the stored check_type) probe only from default',
  },
  ...['POST /v1/checks', 'PUT /v1/checks/{id}'].flatMap((operation) => [
    {
      operation,
      path: /^assertions\.\d+\.value$/,
      message: /is not a supported regular expression|is too complex/,
      why: 'a matches pattern must compile on RE2 within a program budget, which JSON Schema cannot state',
    },
    {
      operation,
      path: /^config\.schedule\.(cron|timezone)$/,
      message: /^Enter (a cron expression|a timezone name)/,
      why: "a push schedule's cron grammar as croner reads it, and the timezone names the runtime knows (as a maintenance window's cron)",
    },
    {
      operation,
      path: /^(config\.grace_seconds|interval_seconds)$/,
      message: /^Enter 60 or more: the grace is how long after an expected time|^Leave interval_seconds out/,
      why: 'two fields together: with config.schedule, grace_seconds is at least 60 and interval_seconds is derived (not sent)',
    },
  ]),
  {
    operation: 'POST /v1/checks',
    path: /^config\.grace_seconds$/,
    message: /the grace is the whole silence allowed/,
    why: "two fields compared: a push check's grace_seconds may not be shorter than its interval_seconds",
  },
  {
    operation: 'PUT /v1/actions/{id}',
    path: /^(check_id|trigger_to_state|interval_seconds)$/,
    message: /action has this|whose changes run this action|how often a scheduled action runs/,
    why: "the trigger rules apply to the update merged with the stored action's trigger_type",
  },
  {
    operation: 'POST /v1/relations',
    path: /^to_entity_id$/,
    message: /must differ from from_entity_id|cycle/,
    why: 'two properties compared (no self-relation), or the stored dependency graph (no cycle)',
  },
  {
    operation: 'GET /v1/checks/{id}/results',
    path: /^until$/,
    message: /^is not taken with location/,
    why: 'one query parameter excludes another: OpenAPI has no dependencies between parameters',
  },
  {
    operation: 'POST /v1/checks/{id}/results',
    path: /^checked_at$/,
    message: /future|retention/,
    why: "checked_at is bounded by the server's clock and the tenant's retention",
  },
  {
    operation: 'POST /v1/settings/users/accept',
    path: /^token$/,
    message: /invalid, expired or already used/,
    why: 'whether an invitation token is live is stored state',
  },
  {
    operation: 'POST /v1/password-reset/confirm',
    path: /^token$/,
    message: /invalid, expired or already used/,
    why: 'whether a password reset token is live is stored state',
  },
  {
    operation: 'POST /v1/password-reset/confirm',
    path: /^password$/,
    message: /./,
    why: 'the password policy (common passwords, the e-mail address inside it) is more than a schema can state',
  },
  {
    operation: 'POST /v1/password-reset',
    path: /^$/,
    message: /password reset by e-mail is off: the operator must configure e-mail/,
    why: "whether the deployment can send e-mail is the operator's configuration",
  },
  {
    operation: 'POST /p/{slug}/subscribe',
    path: /^$/,
    message: /subscribing by e-mail is off: this deployment sends no mail/,
    why: "whether the deployment can send e-mail is the operator's configuration",
  },
  {
    operation: '*',
    path: /^code$/,
    message: /wrong, expired or already used/,
    why: 'whether a TOTP or recovery code is good depends on the stored secret, the clock and the codes used',
  },
  {
    operation: '*',
    path: /^tools\.\d+\.(inputSchema|name|action_id)$/,
    message: /is not a valid JSON Schema|Another tool of this skill is named|not found/,
    why: 'a tool inputSchema must compile as a JSON Schema (strict mode), names be unique within the array, action_id name a stored action',
  },
  {
    operation: '*',
    path: /^(url|config\.url|config\.homeserver)$/,
    message: /VIGIL_EGRESS_ALLOW|could not resolve/,
    why: "the SSRF guard resolves the host at create time, and keeps http:// to VIGIL_EGRESS_ALLOW (this test's resolver answers 127.0.0.1, allowed)",
  },
  {
    operation: '*',
    path: /^config\.steps\.\d+\.action$/,
    message: /^(Start with a goto step|wait_for takes exactly one of selector, text or url)/,
    why: "a browser check's first step is a goto (a rule on the list's first item), and a wait_for step names exactly one of its three optional fields: the document states each action's fields (a union by action, an assert's by subject), not these two counts",
  },
  ...['POST /v1/escalation-policies', 'PUT /v1/escalation-policies/{id}'].map((operation) => ({
    operation,
    path: /^steps\.\d+\.targets\.\d+\.id$/,
    message: /^No (schedule|member|tenant channel|team) of this account has this id\.$/,
    why: 'a target names a schedule, member, tenant channel or team of the account (stored data)',
  })),
  ...['POST /v1/notify/routes', 'POST /v1/teams', 'PUT /v1/teams/{id}'].map((operation) => ({
    operation,
    path: /^escalation_policy_id$/,
    message: /^No escalation policy of this account has this id\.$/,
    why: 'an escalation policy of the account (stored data)',
  })),
  ...['POST /v1/schedules', 'PUT /v1/schedules/{id}'].flatMap((operation) => [
    {
      operation,
      path: /^layers\.\d+\.members\.\d+$/,
      message: /^No member of this account has this id\.$/,
      why: 'a layer names members of the account (stored data)',
    },
    {
      operation,
      path: /^(time_zone|layers\.\d+\.rotation\.(start|length_hours)|layers\.\d+\.ends_at)$/,
      message: /IANA time zone|real calendar date|length_hours|after starts_at/,
      why: "the zone names the runtime knows, a real calendar date, length_hours by the rotation's type, and two times compared",
    },
  ]),
  ...['POST /v1/teams', 'PUT /v1/teams/{id}'].flatMap((operation) => [
    {
      operation,
      path: /^(members\.\d+|schedule_id|default_owner_of\.\d+)$/,
      message:
        /^No (member|schedule|blueprint) of this account has this (id|slug)\.$|already owns this blueprint/,
      why: 'a team names members, a schedule and blueprints of the account (stored data), a blueprint owned by default by one team at most',
    },
    {
      operation,
      path: /^(members|default_owner_of)\.\d+$/,
      message: /^Listed twice\.$/,
      why: 'a list without repeats (uniqueItems is not stated by the document)',
    },
  ]),
  {
    operation: 'GET /v1/oncall',
    path: /^(entity_id|team_id|schedule_id)$/,
    message: /^Give at most one of entity_id, team_id and schedule_id\.$/,
    why: 'query parameters that exclude each other: one subject at most',
  },
  {
    operation: 'POST /v1/schedules/{id}/overrides',
    path: /^(user_id|ends_at)$/,
    message: /^No member of this account has this id\.$|after starts_at/,
    why: 'an override puts a member of the account on call (stored data), and two times compared',
  },
  {
    operation: 'GET /v1/schedules/{id}/oncall',
    path: /^(at|from|to)$/,
    message: /^(Give either at|Give from and to together|to must be after from|Ask for at most)/,
    why: 'query parameters that go together (at alone, or from with to), two times compared and a window of at most 93 days',
  },
  {
    operation: 'POST /v1/me/contact-methods',
    path: /^kind$/,
    message: /^This (account has no shared|deployment sends no e-mail)/,
    why: "a kind needs its provider: the account's shared channel of that type (stored data) or the deployment's e-mail",
  },
  {
    operation: 'POST /v1/me/contact-methods',
    path: /^address$/,
    message: /^The code could not be sent: /,
    why: 'the code goes to the address at once: whether the provider takes it is known only by sending (nothing leaves the machine here)',
  },
  {
    operation: 'POST /v1/me/contact-methods/{id}/verify',
    path: /^code$/,
    message: /^(Wrong code|This code has expired)/,
    why: 'the code is the one sent to the contact method, and for 10 minutes (stored data and the clock)',
  },
  {
    operation: 'PUT /v1/me/notification-rules',
    path: /^rules\.\d+\.contact_method_id$/,
    message: /^(None of your contact methods|This contact method is (not verified|already used))/,
    why: "a rule names a verified contact method of the caller's (stored data), once per delay",
  },
  ...['POST /v1/maintenance', 'PUT /v1/maintenance/{id}'].flatMap((operation) => [
    {
      operation,
      path: /^(entity_ids|blueprint_slugs)\b/,
      message: /at least one entity or blueprint|^no entity /,
      why: 'a window covers something and lists stored entities only (the document states one-off or recurring and their fields)',
    },
    {
      operation,
      path: /^announce_from$/,
      message: /^Announce the window at or before its start time/,
      why: 'two times compared: a one-off window is announced at or before its start (the document states which schedule takes announce_from)',
    },
    {
      operation,
      path: /^(ends_at|cron)$/,
      message: /^(?!Give either|This field is required)/,
      why: "two times compared (starts_at before ends_at), and a cron's grammar as croner reads it (the document states its five fields)",
    },
  ]),
  ...['POST /v1/status-pages', 'PUT /v1/status-pages/{slug}'].flatMap((operation) => [
    {
      operation,
      path: /^entity_ids\b/,
      message: /no entity/,
      why: 'a status page lists stored entities of the tenant only (stored data)',
    },
    {
      operation,
      path: /^domain$/,
      message:
        /^(This deployment does not serve this domain|This is the deployment’s own host|An SSO page on a custom domain)/,
      why: "a page's custom domain must be on the deployment's list (VIGIL_PAGE_DOMAINS), never its own host, and an SSO page takes one only where VIGIL_PUBLIC_URL is set: the deployment's configuration and another field",
    },
  ]),
  {
    operation: '*',
    path: /^(impact\.\d+\.entity_id|linked_incident_ids\.\d+)$/,
    message: /^The page does not show entity|is named twice|^No incident /,
    why: "a page incident's impact names entities its page shows, each once, and its links the tenant's stored incidents (stored data)",
  },
  {
    operation: '*',
    path: /^(started_at|resolved_at)$/,
    message: /cannot be in the future|cannot be before the start|set status to resolved/,
    why: 'a page incident’s times are compared with the clock, with each other and with its status',
  },
  {
    operation: '*',
    path: /^(status|body)$/,
    message: /moves forward only|no update follows|at most \d+ (updates|open incidents)/,
    why: "a page incident's status moves forward from the stored one, and its updates and a page's open incidents are counted (stored state)",
  },
  {
    operation: '*',
    path: /^components\.\d+$/,
    message: /^The page does not show entity/,
    why: "a page subscriber's components are entities its page shows (stored data)",
  },
  {
    operation: 'POST /v1/status-pages/{slug}/subscribers/import',
    path: /^body$/,
    message: /Not a CSV|names the columns|At most \d+ rows/,
    why: 'a CSV import’s columns and rows are in its text, which no schema of the document describes',
  },
  {
    operation: '*',
    path: /^password$/,
    message: /required when visibility is password|Set visibility to password/,
    why: 'a status page has a password exactly when its visibility (given or stored) is password',
  },
  {
    operation: '*',
    path: /^visibility$/,
    message: /Set up SSO first/,
    why: 'a status page may be sso only when the team has SSO settings: stored data',
  },
  {
    operation: 'POST /v1/notify/routes',
    path: /^(channel_ids|escalate_channel_ids|match\.entity_ids)$/,
    message: /^no (tenant channel|entity) /,
    why: 'the ids a route names must exist in the tenant (stored state)',
  },
  {
    operation: '*',
    path: /^template\.(title|body)$/,
    message: /is never closed|closes no (open )?section/,
    why: 'a message template’s sections must nest and close ({{#x}}…{{/x}}): balance is beyond a regular pattern',
  },
  {
    operation: 'PUT /v1/notify/channels/{id}',
    path: /^(channel_type|config)/,
    message: /./,
    why: 'the config is validated against the channel_type given with it (a field depending on another)',
  },
  {
    operation: 'PUT /v1/actions/{id}',
    path: /^url$/,
    message: /headers are sent only to the origin/,
    why: "headers given alone are checked against the stored url's placeholders (stored state)",
  },
  {
    operation: '*',
    path: /^tls\.ca_pem$/,
    message: /certificate|PEM/,
    why: 'ca_pem must hold 1 to 10 PEM blocks that parse as X.509 certificates, a structure (DER inside base64) JSON Schema cannot state',
  },
  {
    operation: 'PUT /v1/checks/{id}',
    path: /^tls$/,
    message: /checks take no tls/,
    why: "whether tls applies depends on the stored check's check_type, which the body does not carry",
  },
  {
    operation: 'POST /v1/config/convert',
    path: /^$/,
    message: /^[a-z-]+: /,
    why: 'whether a text is a Kuma backup or a Gatus configuration its importer can read is the whole structure of another product’s file, which a string cannot state',
  },
  {
    operation: 'POST /v1/config/convert',
    path: /^source$/,
    message: /^Unknown source/,
    why: 'the sources are the importers registered (lib/importers/registry.ts); a build without any states a string',
  },
];

/** MCP answers a JSON-RPC error for these even to a body valid by the document. */
export const INEXPRESSIBLE_JSON_RPC: readonly { message: RegExp; why: string }[] = [
  {
    message: /Only one initialization request is allowed/,
    why: 'a batch may hold one initialize request: a count of items matching a schema (JSON Schema has maxContains, which the SDK schema does not use)',
  },
  {
    message: /Mcp-Session-Id header is required/,
    why: 'DELETE /v1/mcp names the session it ends in the Mcp-Session-Id header, a header the route table does not state (the transport reads it); test/mcp/sessions covers it',
  },
];

/** Operations whose body is another's, refused by the same rules: a draft run takes a create body. */
const SAME_BODY: Record<string, string> = { 'POST /v1/checks/run-draft': 'POST /v1/checks' };

/** The rule that explains a detail of a 400 answer to `operation`, if any. */
export function inexpressible(
  operation: string,
  detail: { path: string; message: string },
): InexpressibleRule | undefined {
  const bodyOf = SAME_BODY[operation] ?? operation;
  const own = INEXPRESSIBLE.find(
    (rule) =>
      (rule.operation === '*' || rule.operation === bodyOf) &&
      rule.path.test(detail.path) &&
      rule.message.test(detail.message),
  );
  if (own || !CONFIG_OPERATIONS.has(operation)) return own;
  // A configuration document's objects are the API's create bodies (docs/config.md): an object's
  // detail (`checks[3].tls.ca_pem`) is explained by the rule that explains the same field of any
  // route's body
  // (`tls.ca_pem`), or of a nested body: `checks[3].policy.channels[0].template.title` as `template.title`.
  const parts = detail.path.split('.');
  for (let i = 1; i < parts.length; i++) {
    const field = parts.slice(i).join('.');
    const rule = INEXPRESSIBLE.find((r) => r.path.test(field) && r.message.test(detail.message));
    if (rule) return rule;
  }
  return undefined;
}

const CONFIG_OPERATIONS = new Set(['POST /v1/config/plan', 'POST /v1/config/apply']);
