import * as z from 'zod';
import { jsonPathSchema, type PathSegment, parseJsonPath } from '../../domain/assertions.ts';
import { ValidationError } from '../../platform/errors.ts';
import type { IntegrationKindDefinition } from './definition.ts';
import {
  ALERT_BOUNDS,
  type AlertAction,
  boundedAlert,
  boundedLabels,
  type IncomingAlert,
  senderTime,
  severityOf,
} from './incoming.ts';

/**
 * Any JSON webhook: the integration names, as dotted JSON paths (`$.alert.id`), where each alert
 * holds its key, status, severity, summary, source, labels and time. The body is one alert or an
 * array of them. A status in `resolved_values` resolves, one in `acknowledged_values` acknowledges,
 * any other triggers (both lists compared without case).
 */

const wordList = z.array(z.string().min(1).max(50)).max(20);

const genericSettingsSchema = z.strictObject({
  key: jsonPathSchema,
  status: jsonPathSchema,
  summary: jsonPathSchema,
  severity: jsonPathSchema.optional(),
  source: jsonPathSchema.optional(),
  labels: jsonPathSchema.optional(),
  time: jsonPathSchema.optional(),
  resolved_values: wordList.default(['resolved', 'ok', 'closed', 'recovered', 'normal', 'up']),
  acknowledged_values: wordList.default(['acknowledged', 'ack']),
});
type GenericSettings = z.output<typeof genericSettingsSchema>;

function at(value: unknown, path: PathSegment[]): unknown {
  let here = value;
  for (const segment of path) {
    if (here === null || typeof here !== 'object') return undefined;
    here = (here as Record<string | number, unknown>)[segment];
  }
  return here;
}

/** The scalar at a path as text, or undefined when the path holds none. */
function textAt(value: unknown, path: string | undefined): string | undefined {
  if (path === undefined) return undefined;
  const found = at(value, parseJsonPath(path) ?? []);
  return typeof found === 'string' || typeof found === 'number' || typeof found === 'boolean'
    ? String(found)
    : undefined;
}

function actionOf(status: string, settings: GenericSettings): AlertAction {
  const lower = status.toLowerCase();
  if (settings.resolved_values.some((v) => v.toLowerCase() === lower)) return 'resolve';
  if (settings.acknowledged_values.some((v) => v.toLowerCase() === lower)) return 'acknowledge';
  return 'trigger';
}

function readOne(
  item: unknown,
  where: string,
  settings: GenericSettings,
  severityMap: Parameters<typeof severityOf>[1],
): IncomingAlert {
  const key = textAt(item, settings.key);
  if (key === undefined || key === '')
    throw ValidationError.field(`${where}${settings.key.slice(1)}`, 'The alert has no key at this path.');
  const status = textAt(item, settings.status);
  if (status === undefined)
    throw ValidationError.field(
      `${where}${settings.status.slice(1)}`,
      'The alert has no status at this path.',
    );
  const action = actionOf(status, settings);
  const labels = settings.labels === undefined ? undefined : at(item, parseJsonPath(settings.labels) ?? []);
  return boundedAlert({
    dedup_key: key,
    action,
    severity:
      action === 'trigger' ? severityOf(textAt(item, settings.severity), severityMap, 'critical') : undefined,
    summary: textAt(item, settings.summary) ?? '',
    source: textAt(item, settings.source),
    labels:
      labels && typeof labels === 'object' && !Array.isArray(labels)
        ? boundedLabels(labels as Record<string, unknown>)
        : {},
    links: [],
    at: senderTime(textAt(item, settings.time)),
  });
}

export const genericKind: IntegrationKindDefinition = {
  kind: 'generic',
  settings: { field: 'generic', schema: genericSettingsSchema },
  async read(body, { settings, severityMap }) {
    const parsed = genericSettingsSchema.parse(settings);
    const items = Array.isArray(body) ? body : [body];
    if (items.length > ALERT_BOUNDS.alertsPerRequest)
      throw ValidationError.field('body', `Send at most ${ALERT_BOUNDS.alertsPerRequest} alerts a request.`);
    if (items.some((item) => item === null || typeof item !== 'object' || Array.isArray(item)))
      throw ValidationError.field('body', 'Send a JSON object (one alert) or an array of objects.');
    return {
      kind: 'alerts',
      alerts: items.map((item, i) =>
        readOne(item, Array.isArray(body) ? `$[${i}]` : '$', parsed, severityMap),
      ),
    };
  },
};
