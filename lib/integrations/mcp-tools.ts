import type { ToolKitDeps } from '../catalog/entities.ts';
import { entityNaming, optionalEntity } from '../catalog/entities.ts';
import type { BuiltinTool } from '../platform/mcp-tool.ts';
import { optionalString, positiveInt, READS, requiredString, writes } from '../platform/mcp-tool.ts';
import { asToolResult, entityWords, toolResult } from '../platform/tool-answers.ts';

/**
 * Outside alerts for agents (issue 77, incident-ops): the alerts Alertmanager, PagerDuty senders,
 * Grafana, CloudWatch and JSON webhooks sent in, read by entity and status; one acknowledged or
 * resolved from Vigil, as its sender would (a resolve moves the entity's outside check).
 */

const STATUSES = ['open', 'triggered', 'acknowledged', 'resolved'] as const;

/** What the outside-alert tools need of lib/integrations (its compose's `outsideAlerts`). */
interface OutsideAlertTools {
  list(
    tenantId: string,
    query: {
      limit: number;
      cursor?: string | undefined;
      entity_id?: string | undefined;
      status?: 'open' | 'triggered' | 'acknowledged' | 'resolved' | undefined;
    },
  ): Promise<{ alerts: OutsideAlertView[]; nextCursor: string | null }>;
  /** Throws not-found unless the tenant's integration holds an alert of that dedup key. */
  require(tenantId: string, integrationId: string, dedupKey: string): Promise<void>;
  act(
    tenantId: string,
    integrationId: string,
    dedupKey: string,
    action: 'acknowledge' | 'resolve',
  ): Promise<{ integration: { name: string }; alert: OutsideAlertView }>;
}

/** An outside alert as the tools show it. */
interface OutsideAlertView {
  id: string;
  integration_id: string;
  dedup_key: string;
  entity_id: string;
  status: string;
  severity: string;
  summary: string;
  count: number;
  first_at: string;
  last_at: string;
}

/** What the tools take, bound by the integrations' mount. */
export type OutsideAlertToolDeps = ToolKitDeps & { outsideAlerts: OutsideAlertTools };

/** list_outside_alerts: a page of outside alerts, newest heard first. */
export const listOutsideAlerts: BuiltinTool<OutsideAlertToolDeps> = {
  name: 'list_outside_alerts',
  offer: {
    toolset: 'incident-ops',
    order: 40,
    version: '1.2.0',
    description:
      'Alerts other tools sent in (Alertmanager, PagerDuty Events v2, Grafana, CloudWatch, JSON webhooks), newest heard first: of one entity or all, by status (default open: triggered or acknowledged).',
    inputSchema: {
      type: 'object',
      properties: {
        ...entityNaming('Only alerts on this entity'),
        status: { type: 'string', enum: [...STATUSES], default: 'open' },
        limit: { type: 'integer', minimum: 1, maximum: 100, default: 50 },
        cursor: { type: 'string', maxLength: 4096, description: 'The next_cursor of the previous answer' },
      },
      additionalProperties: false,
    },
  },
  annotations: { title: 'List outside alerts', ...READS },
  handler: (deps, caller, args) =>
    asToolResult(async () => {
      const entity = await optionalEntity(deps, caller.tenantId, args);
      const given = optionalString(args, 'status') ?? 'open';
      const status = (STATUSES as readonly string[]).includes(given)
        ? (given as (typeof STATUSES)[number])
        : 'open';
      const page = await deps.outsideAlerts.list(caller.tenantId, {
        limit: positiveInt(args, 'limit', 50, 100),
        cursor: optionalString(args, 'cursor'),
        status,
        ...(entity ? { entity_id: entity.id } : {}),
      });
      const where = entity ? ` on ${entityWords(entity)}` : '';
      const lines = page.alerts.map(
        (a) =>
          `${a.severity} ${a.status}: ${a.summary || a.dedup_key} (${a.dedup_key}, ${a.count}× since ${a.first_at})`,
      );
      const summary =
        page.alerts.length === 0
          ? `No ${status} outside alerts${where}.`
          : `${page.alerts.length} ${status} outside alert${page.alerts.length === 1 ? '' : 's'}${where}:\n${lines.join('\n')}`;
      return toolResult(summary, { alerts: page.alerts, next_cursor: page.nextCursor });
    }),
};

const alertRef = {
  integration_id: {
    type: 'string',
    maxLength: 64,
    description: 'The integration the alert came in by (int_…)',
  },
  dedup_key: {
    type: 'string',
    maxLength: 512,
    description: 'The alert’s dedup key, as list_outside_alerts shows it',
  },
};

/** An alert's write tool: its name, title, action and its toolset entry (its place and description). */
const act = (
  name: string,
  title: string,
  action: 'acknowledge' | 'resolve',
  entry: { order: number; description: string },
): BuiltinTool<OutsideAlertToolDeps> => ({
  name,
  offer: {
    toolset: 'incident-ops',
    version: '1.2.0',
    ...entry,
    inputSchema: {
      type: 'object',
      properties: alertRef,
      required: ['integration_id', 'dedup_key'],
      additionalProperties: false,
    },
  },
  // The alert the arguments name: 404 before the write is confirmed when the tenant has none.
  references: async (deps, caller, args) => {
    const { integration_id: integration, dedup_key: key } = args;
    if (typeof integration === 'string' && typeof key === 'string')
      await deps.outsideAlerts.require(caller.tenantId, integration, key);
  },
  annotations: writes(title, { idempotent: true }),
  handler: (deps, caller, args) =>
    asToolResult(async () => {
      const { integration, alert } = await deps.outsideAlerts.act(
        caller.tenantId,
        requiredString(args, 'integration_id'),
        requiredString(args, 'dedup_key'),
        action,
      );
      return toolResult(
        `The ${integration.name} alert ${alert.dedup_key} ("${alert.summary}") is ${alert.status}.`,
        { alert },
      );
    }),
});

/** acknowledge_outside_alert: marks a triggered outside alert acknowledged (it stays open). */
export const acknowledgeOutsideAlert = act(
  'acknowledge_outside_alert',
  'Acknowledge outside alert',
  'acknowledge',
  {
    order: 50,
    description:
      'Acknowledge an outside alert in Vigil: it stays open (its entity keeps its state) and is marked acknowledged.',
  },
);
/** resolve_outside_alert: resolves an outside alert from Vigil; its entity's outside check follows. */
export const resolveOutsideAlert = act('resolve_outside_alert', 'Resolve outside alert', 'resolve', {
  order: 60,
  description:
    'Resolve an outside alert in Vigil, as its sender would: its entity’s outside check moves with it (up when no other alert is open). The sender may raise it again.',
});
