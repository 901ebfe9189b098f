import { createHash } from 'node:crypto';
import * as z from 'zod';
import { parseInput } from '../../http/requests.ts';
import type { IntegrationKindDefinition } from './definition.ts';
import {
  boundedAlert,
  boundedLabels,
  boundedLinks,
  type IncomingAlert,
  SEVERITIES,
  senderTime,
  severityOf,
} from './incoming.ts';

/**
 * PagerDuty's Events API v2 (`POST /v2/enqueue`), as any tool with a PagerDuty integration sends it,
 * Alertmanager's `pagerduty_configs` included: `trigger` opens or retriggers the alert of its
 * `dedup_key`, `acknowledge` and `resolve` name one. As PagerDuty does, a trigger without a
 * `dedup_key` gets one; here it is derived from the event (summary, source, component, group,
 * class), so a redelivered trigger is the same alert, never a second.
 */

const text = (max: number) => z.string().max(max);

const payloadSchema = z.object({
  summary: z.string().min(1).max(1024),
  source: z.string().min(1).max(255),
  severity: z.enum(SEVERITIES),
  timestamp: z.string().optional(),
  component: text(255).optional(),
  group: text(255).optional(),
  class: text(255).optional(),
  custom_details: z.unknown().optional(),
});

const linkSchema = z.object({ href: z.string(), text: z.string().optional() });

const eventSchema = z.discriminatedUnion('event_action', [
  z.object({
    routing_key: z.string().optional(),
    event_action: z.literal('trigger'),
    dedup_key: text(255).optional(),
    payload: payloadSchema,
    links: z.array(linkSchema).max(50).optional(),
    client: z.string().optional(),
    client_url: z.string().optional(),
  }),
  z.object({
    routing_key: z.string().optional(),
    event_action: z.enum(['acknowledge', 'resolve']),
    dedup_key: z.string().min(1).max(255),
  }),
]);

type TriggerEvent = Extract<z.output<typeof eventSchema>, { event_action: 'trigger' }>;

/** A trigger's own dedup key, when it brings none: the same event gives the same key. */
function derivedKey({ payload }: TriggerEvent): string {
  const parts = [payload.summary, payload.source, payload.component, payload.group, payload.class];
  return `derived:${createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 32)}`;
}

/** custom_details' top-level values as labels beside source, component, group and class. */
function labelsOf({ payload }: TriggerEvent): Record<string, string> {
  const details =
    payload.custom_details &&
    typeof payload.custom_details === 'object' &&
    !Array.isArray(payload.custom_details)
      ? (payload.custom_details as Record<string, unknown>)
      : payload.custom_details === undefined
        ? {}
        : { details: payload.custom_details };
  return boundedLabels({
    source: payload.source,
    component: payload.component,
    group: payload.group,
    class: payload.class,
    ...details,
  });
}

/** One event as the alert it is about (what the route answers with: its dedup key). */
function readEvent(
  body: unknown,
  severityMap: Readonly<Record<string, 'critical' | 'error' | 'warning' | 'info'>>,
): IncomingAlert {
  const event = parseInput(eventSchema, body);
  if (event.event_action !== 'trigger') {
    return boundedAlert({
      dedup_key: event.dedup_key,
      action: event.event_action,
      severity: undefined,
      summary: '',
      source: undefined,
      labels: {},
      links: [],
      at: undefined,
    });
  }
  return boundedAlert({
    dedup_key: event.dedup_key ?? derivedKey(event),
    action: 'trigger',
    severity: severityOf(event.payload.severity, severityMap, event.payload.severity),
    summary: event.payload.summary,
    source: event.payload.source,
    labels: labelsOf(event),
    links: boundedLinks([
      ...(event.links ?? []).map((l) => ({ href: l.href, text: l.text ?? 'Link' })),
      { href: event.client_url, text: event.client ?? 'Source' },
    ]),
    at: senderTime(event.payload.timestamp),
  });
}

export const pagerdutyKind: IntegrationKindDefinition = {
  kind: 'pagerduty',
  routingKey: true,
  async read(body, { severityMap }) {
    return { kind: 'alerts', alerts: [readEvent(body, severityMap)] };
  },
};
