import { type HcChannel, healthchecksChannels } from './healthchecks-channels.ts';
import { asRecord, channelReference, configDocument, slugAllocator } from './import-common.ts';
import { type Conversion, ImportError } from './importer.ts';

/**
 * Healthchecks (healthchecks.io or self-hosted) through its Management API v3
 * (templates/docs/api.md: GET /api/v3/checks/ and /api/v3/channels/ with the project's key in
 * X-Api-Key; hc/api/models.py Check.to_dict) as a Vigil document: each check a push check of its
 * own entity in blueprint `healthchecks` (tags and description as the entity's fields), with its
 * period (`timeout`) or cron `schedule` + `tz`, and `grace`; integrations shared channels the
 * checks' policies refer to. Read-only; the requests are bounded in time and size.
 */

export interface HealthchecksSource {
  /** The site: https://healthchecks.io, or a self-hosted instance. */
  url: string;
  apiKey: string;
  /** The fetch to use (tests); the global one by default. */
  fetch?: typeof fetch;
  /** How long one request may take; 30 s by default. */
  timeoutMs?: number;
}

/** How long one request may take, and the largest answer read (the API lists every check at once). */
const REQUEST_TIMEOUT_MS = 30_000;
const MAX_ANSWER_BYTES = 32 * 1024 * 1024;
/** The most checks converted: Vigil applies a document of 10,000 checks in one call. */
const MAX_CHECKS = 10_000;
const BLUEPRINT = 'healthchecks';
/** A push check's longest interval and grace (lib/check-types/fields.ts, push.ts). */
const PUSH_MAX_INTERVAL = 30 * 86_400;
const PUSH_MAX_GRACE = 2 * PUSH_MAX_INTERVAL;
const CRON = /^\S+(\s+\S+){4}$/;

class Refused extends Error {}

/** GETs one API path and answers its JSON; throws ImportError with a sentence the user can act on. */
async function getJson(source: HealthchecksSource, path: string): Promise<Record<string, unknown>> {
  const base = source.url.replace(/\/+$/, '');
  let answer: Response;
  try {
    answer = await (source.fetch ?? fetch)(`${base}${path}`, {
      headers: { 'X-Api-Key': source.apiKey, Accept: 'application/json' },
      signal: AbortSignal.timeout(source.timeoutMs ?? REQUEST_TIMEOUT_MS),
      redirect: 'error',
    });
  } catch (cause) {
    const timedOut = cause instanceof Error && cause.name === 'TimeoutError';
    const reason = timedOut
      ? `no answer in ${(source.timeoutMs ?? REQUEST_TIMEOUT_MS) / 1000} s`
      : String(cause);
    throw new ImportError(`Healthchecks at ${base} cannot be reached (${reason}).`);
  }
  if (answer.status === 401 || answer.status === 403) {
    await answer.body?.cancel();
    throw new Refused(`Healthchecks refused the API key (${answer.status}) for ${path}.`);
  }
  if (!answer.ok) {
    await answer.body?.cancel();
    throw new ImportError(`Healthchecks answered ${answer.status} for GET ${path}.`);
  }
  const length = Number(answer.headers.get('content-length') ?? 0);
  if (length > MAX_ANSWER_BYTES)
    throw new ImportError(`Healthchecks' answer to ${path} is larger than 32 MB.`);
  const text = await answer.text();
  if (text.length > MAX_ANSWER_BYTES)
    throw new ImportError(`Healthchecks' answer to ${path} is larger than 32 MB.`);
  const body = (() => {
    try {
      return asRecord(JSON.parse(text));
    } catch {
      return undefined;
    }
  })();
  if (!body)
    throw new ImportError(
      `Healthchecks' answer to ${path} is not a JSON object: is ${base} a Healthchecks site?`,
    );
  return body;
}

/** Reads a project's checks and integrations and converts them. */
export async function importHealthchecks(source: HealthchecksSource): Promise<Conversion> {
  if (!/^https?:\/\/[^/]/.test(source.url)) {
    throw new ImportError(
      'Give the Healthchecks site as an http:// or https:// URL, such as https://healthchecks.io.',
    );
  }
  let checksAnswer: Record<string, unknown>;
  try {
    checksAnswer = await getJson(source, '/api/v3/checks/');
  } catch (error) {
    if (error instanceof Refused) {
      throw new ImportError(`${error.message} Use the API key of the project (Settings → API Access).`);
    }
    throw error;
  }
  const unmapped: string[] = [];
  let integrations: HcChannel[] = [];
  try {
    const answer = await getJson(source, '/api/v3/channels/');
    integrations = (Array.isArray(answer.channels) ? answer.channels : []).map((c) => {
      const channel = asRecord(c) ?? {};
      return {
        id: String(channel.id ?? ''),
        name: String(channel.name ?? ''),
        kind: String(channel.kind ?? ''),
      };
    });
  } catch (error) {
    if (!(error instanceof Refused)) throw error;
    // A read-only key lists checks but not integrations: convert the checks, say what is missing.
    unmapped.push(
      'integrations: not readable with this API key (a read-only key); use the read-write key to import them',
    );
  }
  const channels = healthchecksChannels(integrations);
  unmapped.push(...channels.unmapped);
  const all = Array.isArray(checksAnswer.checks) ? checksAnswer.checks : [];
  if (all.length > MAX_CHECKS)
    unmapped.push(`checks: ${all.length - MAX_CHECKS} beyond the first ${MAX_CHECKS} left out`);
  const slug = slugAllocator();
  const entities: Record<string, unknown>[] = [];
  const checks: Record<string, unknown>[] = [];
  for (const raw of all.slice(0, MAX_CHECKS)) {
    const hc = asRecord(raw) ?? {};
    const name = String(hc.name ?? '') || String(hc.slug ?? '') || 'check';
    const entitySlug = slug(String(hc.slug ?? '') || name, 'check');
    const fields: Record<string, unknown> = {};
    if (typeof hc.tags === 'string' && hc.tags.trim() !== '') fields.tags = hc.tags.trim();
    if (typeof hc.desc === 'string' && hc.desc !== '') fields.description = hc.desc.slice(0, 4096);
    entities.push({
      blueprint: BLUEPRINT,
      slug: entitySlug,
      name: name.slice(0, 200),
      ...(Object.keys(fields).length ? { fields } : {}),
    });
    const check = pushCheck(hc, `${BLUEPRINT}/${entitySlug}`, `check "${name}"`, unmapped);
    const referenced = String(hc.channels ?? '')
      .split(',')
      .map((id) => channels.names.get(id.trim()))
      .filter((n): n is string => n !== undefined);
    if (referenced.length > 0) check.policy = { channels: referenced.map(channelReference) };
    checks.push(check);
  }
  if (checks.length > 0) {
    unmapped.push(
      'ping URLs: Vigil gives every push check its own ping URL (/ping/<uuid>, and /ping/<ping key>/<slug> for checks with a slug); after apply, read them in the console or with GET /v1/checks/{id} and point each job at its new URL',
    );
  }
  const blueprints =
    entities.length > 0
      ? [
          {
            slug: BLUEPRINT,
            name: 'Healthchecks',
            description: 'Checks imported from Healthchecks (one entity per check)',
            fields: [
              { name: 'tags', field_type: 'string' },
              { name: 'description', field_type: 'string' },
            ],
          },
        ]
      : [];
  return {
    document: configDocument({ blueprints, entities, channels: channels.channels, checks }),
    unmapped,
  };
}

/** One Healthchecks check as a push check: its schedule or period, grace, slug and pause. */
function pushCheck(
  hc: Record<string, unknown>,
  entity: string,
  label: string,
  unmapped: string[],
): Record<string, unknown> {
  const grace = Math.max(1, Number(hc.grace ?? 3600));
  const config: Record<string, unknown> = {};
  const check: Record<string, unknown> = { entity, name: String(hc.name ?? '') || label, check_type: 'push' };
  if (typeof hc.slug === 'string' && /^[a-z0-9_-]{1,100}$/.test(hc.slug)) config.slug = hc.slug;
  if (typeof hc.schedule === 'string') {
    if (CRON.test(hc.schedule.trim())) {
      config.schedule = { cron: hc.schedule.trim(), timezone: String(hc.tz ?? 'UTC') };
      config.grace_seconds = Math.min(PUSH_MAX_GRACE, grace);
    } else {
      unmapped.push(
        `${label}: its OnCalendar schedule "${hc.schedule}" has no Vigil equivalent (cron only); imported with a 1-day period`,
      );
      check.interval_seconds = 86_400;
      config.grace_seconds = Math.min(PUSH_MAX_GRACE, 86_400 + grace);
    }
  } else {
    const timeout = Number(hc.timeout ?? 86_400);
    const period = Math.min(PUSH_MAX_INTERVAL, Math.max(1, Math.round(timeout)));
    if (period !== timeout)
      unmapped.push(
        `${label}: a period of ${timeout} s; Vigil's push checks take up to 30 days (30 days set)`,
      );
    check.interval_seconds = period;
    // Healthchecks allows the period and then the grace; Vigil's grace_seconds is the whole silence.
    config.grace_seconds = Math.min(PUSH_MAX_GRACE, period + grace);
  }
  check.config = config;
  if (hc.status === 'paused') check.enabled = false;
  if (hc.manual_resume === true)
    unmapped.push(`${label}: manual_resume (a paused check ignores pings) has no Vigil equivalent`);
  if (typeof hc.methods === 'string' && hc.methods !== '') {
    unmapped.push(`${label}: methods "${hc.methods}" (POST only); Vigil's ping URLs take HEAD, GET and POST`);
  }
  const filters = ['filter_subject', 'filter_body'].filter((key) => hc[key] === true);
  const keywords = ['start_kw', 'success_kw', 'failure_kw'].filter(
    (key) => typeof hc[key] === 'string' && hc[key] !== '',
  );
  if (filters.length > 0 || keywords.length > 0) {
    unmapped.push(
      `${label}: ${[...filters, ...keywords].join(', ')} (filtering email pings) has no Vigil equivalent`,
    );
  }
  return check;
}
