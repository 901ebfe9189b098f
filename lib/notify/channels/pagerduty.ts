import * as z from 'zod';
import { REDACTED } from '../../domain/redaction.ts';
import { payloadKindOf } from '../items/payload-kind.ts';
import type { Alert, Digest, SendOutcome } from '../items/ports.ts';
import { type ChannelOf, type ChannelSendDeps, defineChannel } from './definition.ts';
import { describeDigest, linesWithin } from './digest-message.ts';
import { postOnce } from './http-post.ts';
import { clip, messageFor } from './message.ts';

/** The view's mask, typed as the literal (a fresh `REDACTED` in an object widens to string). */
const MASK: typeof REDACTED = REDACTED;
/**
 * PagerDuty through the Events API v2 (`POST /v2/enqueue`, answered 202 `{status, message,
 * dedup_key}`, 400 for an invalid event, 429 when rate limited). The dedup_key is the Vigil
 * incident: its alert, repeats and escalations trigger the same PagerDuty alert (PagerDuty folds
 * them into it), the recovery resolves it, and an acknowledgement in Vigil acknowledges it.
 */

/** The Events API's hosts: the US service region, or the EU one (an account's region is fixed). */
const PAGERDUTY_EVENTS_URL = {
  us: 'https://events.pagerduty.com/v2/enqueue',
  eu: 'https://events.eu.pagerduty.com/v2/enqueue',
} as const;

/** Documented limits: summary 1024 characters, dedup_key 255. */
const MAX_SUMMARY = 1024;
const MAX_DEDUP_KEY = 255;
/** custom_details stays small: what a responder reads on the alert, not the whole event log. */
const MAX_DETAILS_TEXT = 8000;

const region = z.enum(['us', 'eu'], { error: 'Choose the region of your PagerDuty account: us or eu.' });

const routingKey = z
  .string({ error: 'Enter the integration key of an Events API v2 integration.' })
  .regex(
    /^[A-Za-z0-9]{32}$/,
    'Enter the 32-character integration key of an Events API v2 integration (Service → Integrations in PagerDuty).',
  );

// The default is applied on input, so a channel reads back as it was written (a configuration
// document that leaves the region out plans no change: lib/config-doc).
const input = z.strictObject({
  routing_key: routingKey,
  region: region.default('us'),
});
const stored = z.object({ routing_key: z.string(), region: region.optional() });
const view = z.object({
  routing_key: z.literal(REDACTED).meta({ description: 'Write-only: always shown as ********' }),
  region: region.meta({ description: "The account's service region: us (default) or eu" }),
});

type PagerDutyConfig = z.infer<typeof stored>;
type Severity = 'critical' | 'error' | 'warning' | 'info';

const endpoint = (config: PagerDutyConfig) => PAGERDUTY_EVENTS_URL[config.region ?? 'us'];

/** The key of the test's own alert: a test never touches a real incident's alert. */
const testKey = (deliveryId: string) => `vigil-test-${deliveryId}`;

/** The incident's dedup_key (a change that belongs to none keys on its own transition). */
function dedupKeyOf(alert: Alert): string {
  return clip(alert.incidentId ?? alert.event.transition_id, MAX_DEDUP_KEY);
}

/** An error answer never shows the routing key, even if a proxy or PagerDuty echoed it. */
function scrubbed(outcome: SendOutcome, key: string): SendOutcome {
  return outcome.error && key ? { ...outcome, error: outcome.error.split(key).join(REDACTED) } : outcome;
}

function post(
  deps: ChannelSendDeps,
  config: PagerDutyConfig,
  event: Record<string, unknown>,
): Promise<SendOutcome> {
  const body = JSON.stringify({ routing_key: config.routing_key, ...event });
  return postOnce(deps.http, {
    url: endpoint(config),
    headers: { 'content-type': 'application/json' },
    body,
  }).then((outcome) => scrubbed(outcome, config.routing_key));
}

/** `client` and `client_url` name Vigil on the PagerDuty alert; the link only with VIGIL_PUBLIC_URL. */
function client(deps: ChannelSendDeps): Record<string, string> {
  return deps.publicUrl ? { client: 'Vigil', client_url: deps.publicUrl } : { client: 'Vigil' };
}

function severityOf(alert: Alert): Severity {
  if (alert.kind === 'test') return 'info';
  if (alert.kind === 'flapping') return 'warning';
  return alert.event.to_state === 'down'
    ? 'critical'
    : alert.event.to_state === 'degraded'
      ? 'warning'
      : 'info';
}

/** The trigger event of an alert: the message's title as summary, its lines as custom_details. */
function triggerOf(deps: ChannelSendDeps, channel: ChannelOf<PagerDutyConfig>, alert: Alert, key: string) {
  const message = messageFor(channel, alert, deps.publicUrl);
  const details: Record<string, string> = {};
  if (message.note) details.note = clip(message.note, MAX_DETAILS_TEXT);
  for (const fact of message.facts) details[fact.label.toLowerCase().replace(/\s+/g, '_')] = fact.value;
  if (alert.incidentId) details.incident_id = alert.incidentId;
  return {
    event_action: 'trigger',
    dedup_key: key,
    payload: {
      summary: clip(message.title, MAX_SUMMARY),
      // "The unique location of the affected system": what the check probes, else the entity.
      source: clip((alert.checkLabel !== 'none' && alert.checkLabel) || alert.entity.name || 'Vigil', 255),
      severity: severityOf(alert),
      timestamp: alert.event.timestamp,
      component: clip(alert.entity.name || alert.event.entity_name || 'Vigil', 255),
      ...(alert.entity.blueprint_slug ? { group: alert.entity.blueprint_slug } : {}),
      class: payloadKindOf(alert.kind, alert.event),
      custom_details: details,
    },
    ...(message.link ? { links: [{ href: message.link, text: 'Open in Vigil' }] } : {}),
    ...client(deps),
  };
}

/**
 * One alert: a change to up resolves the incident's alert; anything else (down, degraded, repeat,
 * escalation, flapping notice) triggers it, PagerDuty folding it into the open alert of the same
 * dedup_key. A test triggers an info-severity alert of its own key and resolves it at once, so it
 * shows in PagerDuty's log without leaving an open incident.
 */
async function send(
  deps: ChannelSendDeps,
  channel: ChannelOf<PagerDutyConfig>,
  alert: Alert,
): Promise<SendOutcome> {
  if (alert.kind === 'test') {
    const key = testKey(alert.deliveryId);
    const trigger = await post(deps, channel.config, triggerOf(deps, channel, alert, key));
    if (!trigger.ok) return trigger;
    return post(deps, channel.config, { event_action: 'resolve', dedup_key: key });
  }
  const key = dedupKeyOf(alert);
  if (alert.event.to_state === 'up' && alert.kind !== 'flapping')
    return post(deps, channel.config, { event_action: 'resolve', dedup_key: key });
  return post(deps, channel.config, triggerOf(deps, channel, alert, key));
}

/**
 * A digest is one trigger summarising the part (an event per PagerDuty alert would page once per
 * entity, which a digest exists to avoid), keyed by the group: later digests of the group fold
 * into the same PagerDuty alert until someone resolves it there.
 */
function sendDigest(
  deps: ChannelSendDeps,
  channel: ChannelOf<PagerDutyConfig>,
  digest: Digest,
): Promise<SendOutcome> {
  const message = describeDigest(digest);
  const severity: Severity =
    message.tone === 'down' ? 'critical' : message.tone === 'degraded' ? 'warning' : 'info';
  const events = linesWithin(message.lines, MAX_DETAILS_TEXT, (line) => line.length);
  return post(deps, channel.config, {
    event_action: 'trigger',
    dedup_key: clip(`vigil-digest-${digest.group.by}-${digest.group.key}`, MAX_DEDUP_KEY),
    payload: {
      summary: clip(message.title, MAX_SUMMARY),
      source: clip(digest.group.name || 'Vigil', 255),
      severity,
      class: 'digest',
      custom_details: { summary: message.summary.join('\n'), events: events.join('\n') },
    },
    ...client(deps),
  });
}

export const pagerdutyChannel = defineChannel({
  label: 'PagerDuty',
  input,
  stored,
  view,
  secrets: ['routing_key'],
  present: (config) => ({ config: { routing_key: MASK, region: config.region ?? 'us' } }),
  destinations: (config) => [{ path: 'config.region', url: endpoint(config) }],
  send,
  sendDigest,
  acknowledge: (deps, channel, ack) =>
    post(deps, channel.config, {
      event_action: 'acknowledge',
      dedup_key: clip(ack.incidentId, MAX_DEDUP_KEY),
    }),
});
