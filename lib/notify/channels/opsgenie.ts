import * as z from 'zod';
import { REDACTED } from '../../domain/redaction.ts';
import type { Alert, Digest, SendOutcome } from '../items/ports.ts';
import { type ChannelOf, type ChannelSendDeps, defineChannel } from './definition.ts';
import { describeDigest, linesWithin } from './digest-message.ts';
import { postOnce } from './http-post.ts';
import { clip, messageFor, plainText } from './message.ts';

/** The view's mask, typed as the literal (a fresh `REDACTED` in an object widens to string). */
const MASK: typeof REDACTED = REDACTED;
/**
 * Opsgenie through its Alert API v2 (`Authorization: GenieKey <key>`; every call answered 202
 * `{result, took, requestId}` and processed asynchronously, 422 for an invalid request, 429 when
 * rate limited). The alias is the Vigil incident: its alert, repeats and escalations create the
 * same Opsgenie alert (Opsgenie de-duplicates an open alias, counting), the recovery closes it
 * and an acknowledgement in Vigil acknowledges it, both by alias.
 */

/** The API's hosts: an account lives in the US or the EU instance. */
const OPSGENIE_API_URL = {
  us: 'https://api.opsgenie.com',
  eu: 'https://api.eu.opsgenie.com',
} as const;

/** Documented limits: message 130 characters, alias 512, description 15,000, source/user 100, entity 512. */
const MAX_MESSAGE = 130;
const MAX_ALIAS = 512;
const MAX_DESCRIPTION = 15_000;
const MAX_SHORT = 100;
const MAX_ENTITY = 512;
/** A details value is a string; kept short, the description carries the whole text. */
const MAX_DETAIL = 1000;

const PRIORITIES = ['P1', 'P2', 'P3', 'P4', 'P5'] as const;
const priority = z.enum(PRIORITIES, { error: 'Choose a priority from P1 (critical) to P5 (informational).' });
const region = z.enum(['us', 'eu'], { error: 'Choose the instance of your Opsgenie account: us or eu.' });

const apiKey = z
  .string({ error: 'Enter the API key of an Opsgenie API integration.' })
  .regex(
    /^[A-Za-z0-9-]{8,128}$/,
    'Enter the API key of an Opsgenie API integration (Settings → Integrations → API), such as 6f1c…-….',
  );

/** Which priority each state's alert gets: down P1 and degraded P3 unless the channel says otherwise. */
// The defaults are applied on input, so a channel reads back as it was written (a configuration
// document that leaves them out plans no change: lib/config-doc).
const priorities = z.strictObject({ down: priority.default('P1'), degraded: priority.default('P3') });

const input = z.strictObject({
  api_key: apiKey,
  region: region.default('us'),
  priorities: priorities.default(() => ({ down: 'P1' as const, degraded: 'P3' as const })),
});
const stored = z.object({
  api_key: z.string(),
  region: region.optional(),
  priorities: z.object({ down: priority.optional(), degraded: priority.optional() }).optional(),
});
const view = z.object({
  api_key: z.literal(REDACTED).meta({ description: 'Write-only: always shown as ********' }),
  region: region.meta({ description: "The account's instance: us (default) or eu" }),
  priorities: z
    .object({ down: priority, degraded: priority })
    .meta({ description: 'The priority of a down and a degraded alert (default P1 and P3)' }),
});

type OpsgenieConfig = z.infer<typeof stored>;

const baseOf = (config: OpsgenieConfig) => OPSGENIE_API_URL[config.region ?? 'us'];
const prioritiesOf = (config: OpsgenieConfig) => ({
  down: config.priorities?.down ?? 'P1',
  degraded: config.priorities?.degraded ?? 'P3',
});

/** The alias of the test's own alert: a test never touches a real incident's alert. */
const testAlias = (deliveryId: string) => `vigil-test-${deliveryId}`;

/** The incident's alias (a change that belongs to none keys on its own transition). */
function aliasOf(alert: Alert): string {
  return clip(alert.incidentId ?? alert.event.transition_id, MAX_ALIAS);
}

/** An error answer never shows the API key, even if Opsgenie or a proxy echoed it. */
function scrubbed(outcome: SendOutcome, key: string): SendOutcome {
  return outcome.error && key ? { ...outcome, error: outcome.error.split(key).join(REDACTED) } : outcome;
}

function post(
  deps: ChannelSendDeps,
  config: OpsgenieConfig,
  path: string,
  body: object,
): Promise<SendOutcome> {
  return postOnce(deps.http, {
    url: `${baseOf(config)}${path}`,
    headers: { 'content-type': 'application/json', authorization: `GenieKey ${config.api_key}` },
    body: JSON.stringify(body),
  }).then((outcome) => scrubbed(outcome, config.api_key));
}

/** `/v2/alerts/{alias}/{action}?identifierType=alias`: close and acknowledge address the alert by alias. */
const byAlias = (alias: string, action: 'close' | 'acknowledge') =>
  `/v2/alerts/${encodeURIComponent(alias)}/${action}?identifierType=alias`;

function create(
  deps: ChannelSendDeps,
  channel: ChannelOf<OpsgenieConfig>,
  alert: Alert,
  alias: string,
): Promise<SendOutcome> {
  const message = messageFor(channel, alert, deps.publicUrl);
  const details: Record<string, string> = {};
  for (const fact of message.facts) details[fact.label] = clip(fact.value, MAX_DETAIL);
  if (alert.incidentId) details.Incident = alert.incidentId;
  if (message.link) details['Open in Vigil'] = message.link;
  const state = alert.event.to_state;
  const levels = prioritiesOf(channel.config);
  const level =
    alert.kind === 'test'
      ? 'P5'
      : state === 'down'
        ? levels.down
        : state === 'degraded'
          ? levels.degraded
          : 'P5';
  return post(deps, channel.config, '/v2/alerts', {
    message: clip(message.title, MAX_MESSAGE),
    alias,
    description: clip(plainText(message, true), MAX_DESCRIPTION),
    priority: level,
    source: 'Vigil',
    entity: clip(alert.entity.name || alert.event.entity_name, MAX_ENTITY),
    tags: ['vigil', state],
    details,
  });
}

/**
 * One alert: a change to up closes the incident's alert; anything else creates it (Opsgenie adds
 * a repeat, an escalation or a flapping notice to the open alert of the same alias). A test
 * creates a P5 alert of its own alias and closes it at once.
 */
async function send(
  deps: ChannelSendDeps,
  channel: ChannelOf<OpsgenieConfig>,
  alert: Alert,
): Promise<SendOutcome> {
  if (alert.kind === 'test') {
    const alias = testAlias(alert.deliveryId);
    const created = await create(deps, channel, alert, alias);
    if (!created.ok) return created;
    return post(deps, channel.config, byAlias(alias, 'close'), {
      source: 'Vigil',
      note: 'Vigil test: closed at once.',
    });
  }
  const alias = aliasOf(alert);
  if (alert.event.to_state === 'up' && alert.kind !== 'flapping') {
    const message = messageFor(channel, alert, deps.publicUrl);
    return post(deps, channel.config, byAlias(alias, 'close'), {
      source: 'Vigil',
      note: clip(plainText(message, true), MAX_DESCRIPTION),
    });
  }
  return create(deps, channel, alert, alias);
}

/**
 * A digest is one alert summarising the part, aliased by the group: later digests of the group
 * fold into it (Opsgenie counts them) until someone closes it there.
 */
function sendDigest(
  deps: ChannelSendDeps,
  channel: ChannelOf<OpsgenieConfig>,
  digest: Digest,
): Promise<SendOutcome> {
  const message = describeDigest(digest);
  const levels = prioritiesOf(channel.config);
  const level = message.tone === 'down' ? levels.down : message.tone === 'degraded' ? levels.degraded : 'P5';
  const head = message.summary.join('\n');
  const lines = linesWithin(message.lines, MAX_DESCRIPTION - head.length - 2, (line) => line.length);
  return post(deps, channel.config, '/v2/alerts', {
    message: clip(message.title, MAX_MESSAGE),
    alias: clip(`vigil-digest-${digest.group.by}-${digest.group.key}`, MAX_ALIAS),
    description: clip(`${head}\n\n${lines.join('\n')}`, MAX_DESCRIPTION),
    priority: level,
    source: 'Vigil',
    entity: clip(digest.group.name, MAX_ENTITY),
    tags: ['vigil', 'digest'],
  });
}

export const opsgenieChannel = defineChannel({
  label: 'Opsgenie',
  input,
  stored,
  view,
  secrets: ['api_key'],
  present: (config) => ({
    config: { api_key: MASK, region: config.region ?? 'us', priorities: prioritiesOf(config) },
  }),
  destinations: (config) => [{ path: 'config.region', url: `${baseOf(config)}/v2/alerts` }],
  send,
  sendDigest,
  acknowledge: (deps, channel, ack) =>
    post(deps, channel.config, byAlias(clip(ack.incidentId, MAX_ALIAS), 'acknowledge'), {
      user: clip(ack.by, MAX_SHORT),
      source: 'Vigil',
      note: `Acknowledged in Vigil by ${ack.by} at ${ack.at}.`,
    }),
});
