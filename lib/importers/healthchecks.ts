import * as z from 'zod';
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
/** A push check's longest interval and grace (lib/check-types/contract/fields.ts, push.ts). */
const PUSH_MAX_INTERVAL = 30 * 86_400;
const PUSH_MAX_GRACE = 2 * PUSH_MAX_INTERVAL;
const CRON = /^\S+(\s+\S+){4}$/;

class Refused extends Error {
  override name = 'Refused';
}

/**
 * The answers' shapes (Check.to_dict, Channel.to_dict), read leniently: a field of another type or
 * missing (an older or newer Healthchecks) takes its default instead of failing the import.
 */
const checksAnswer = z.object({ checks: z.array(z.unknown()) });
const channelsAnswer = z.object({
  channels: z.array(z.object({ id: z.string(), name: z.string().catch(''), kind: z.string() })),
});
const hcCheck = z.object({
  name: z.string().catch(''),
  slug: z.string().catch(''),
  tags: z.string().catch(''),
  desc: z.string().catch(''),
  grace: z.number().catch(3600),
  timeout: z.number().optional().catch(undefined),
  schedule: z.string().optional().catch(undefined),
  tz: z.string().catch('UTC'),
  status: z.string().catch(''),
  manual_resume: z.boolean().catch(false),
  methods: z.string().catch(''),
  filter_subject: z.boolean().catch(false),
  filter_body: z.boolean().catch(false),
  start_kw: z.string().catch(''),
  success_kw: z.string().catch(''),
  failure_kw: z.string().catch(''),
  channels: z.string().catch(''),
});
type HcCheck = z.output<typeof hcCheck>;

/** An answer in its expected shape, or an ImportError saying the site is not answering as Healthchecks does. */
function answerOf<T>(schema: z.ZodType<T>, body: Record<string, unknown>, path: string): T {
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new ImportError(`Healthchecks' answer to ${path} is not in the API v3 shape.`);
  return parsed.data;
}

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
  let all: unknown[];
  try {
    all = answerOf(checksAnswer, await getJson(source, '/api/v3/checks/'), '/api/v3/checks/').checks;
  } catch (error) {
    if (error instanceof Refused) {
      throw new ImportError(`${error.message} Use the API key of the project (Settings → API Access).`);
    }
    throw error;
  }
  const unmapped: string[] = [];
  let integrations: HcChannel[] = [];
  try {
    const path = '/api/v3/channels/';
    integrations = answerOf(channelsAnswer, await getJson(source, path), path).channels;
  } catch (error) {
    if (!(error instanceof Refused)) throw error;
    // A read-only key lists checks but not integrations: convert the checks, say what is missing.
    unmapped.push(
      'integrations: not readable with this API key (a read-only key); use the read-write key to import them',
    );
  }
  const channels = healthchecksChannels(integrations);
  unmapped.push(...channels.unmapped);
  if (all.length > MAX_CHECKS)
    unmapped.push(`checks: ${all.length - MAX_CHECKS} beyond the first ${MAX_CHECKS} left out`);
  const slug = slugAllocator();
  const entities: Record<string, unknown>[] = [];
  const checks: Record<string, unknown>[] = [];
  for (const [index, raw] of all.slice(0, MAX_CHECKS).entries()) {
    const parsed = hcCheck.safeParse(raw);
    if (!parsed.success) {
      unmapped.push(`checks[${index}]: not a check object, left out`);
      continue;
    }
    const hc = parsed.data;
    const name = hc.name || hc.slug || 'check';
    const entitySlug = slug(hc.slug || name, 'check');
    const fields: Record<string, unknown> = {};
    if (hc.tags.trim() !== '') fields.tags = hc.tags.trim();
    if (hc.desc !== '') fields.description = hc.desc.slice(0, 4096);
    entities.push({
      blueprint: BLUEPRINT,
      slug: entitySlug,
      name: name.slice(0, 200),
      ...(Object.keys(fields).length ? { fields } : {}),
    });
    const check = pushCheck(hc, `${BLUEPRINT}/${entitySlug}`, `check "${name}"`, unmapped);
    const referenced = hc.channels
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
function pushCheck(hc: HcCheck, entity: string, label: string, unmapped: string[]): Record<string, unknown> {
  const grace = Math.max(1, hc.grace);
  const config: Record<string, unknown> = {};
  // Healthchecks has no threshold: one /fail or one missed deadline is down (DECISIONS.md "Heartbeat defaults").
  const check: Record<string, unknown> = {
    entity,
    name: hc.name || label,
    check_type: 'push',
    failure_threshold: 1,
  };
  if (/^[a-z0-9_-]{1,100}$/.test(hc.slug)) config.slug = hc.slug;
  if (hc.schedule !== undefined) {
    if (CRON.test(hc.schedule.trim())) {
      config.schedule = { cron: hc.schedule.trim(), timezone: hc.tz };
      config.grace_seconds = Math.min(PUSH_MAX_GRACE, grace);
    } else {
      unmapped.push(
        `${label}: its OnCalendar schedule "${hc.schedule}" has no Vigil equivalent (cron only); imported with a 1-day period`,
      );
      check.interval_seconds = 86_400;
      config.grace_seconds = Math.min(PUSH_MAX_GRACE, 86_400 + grace);
    }
  } else {
    const timeout = hc.timeout ?? 86_400;
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
  if (hc.manual_resume)
    unmapped.push(`${label}: manual_resume (a paused check ignores pings) has no Vigil equivalent`);
  if (hc.methods !== '') {
    unmapped.push(`${label}: methods "${hc.methods}" (POST only); Vigil's ping URLs take HEAD, GET and POST`);
  }
  const filters = (['filter_subject', 'filter_body'] as const).filter((key) => hc[key]);
  const keywords = (['start_kw', 'success_kw', 'failure_kw'] as const).filter((key) => hc[key] !== '');
  if (filters.length > 0 || keywords.length > 0) {
    unmapped.push(
      `${label}: ${[...filters, ...keywords].join(', ')} (filtering email pings) has no Vigil equivalent`,
    );
  }
  return check;
}
