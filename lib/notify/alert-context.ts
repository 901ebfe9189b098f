import { ZodError } from 'zod';
import { readEntityById } from '../catalog/entity-items.ts';
import { checkNameOf } from '../check-types/check-name.ts';
import { checkTypeDefinition } from '../check-types/registry.ts';
import { getCheckDefinition } from '../checks/check-items.ts';
import type { CheckDefinitionRecord } from '../checks/records.ts';
import { lastErrorOf } from '../checks/results.ts';
import { alsoFailingOf } from '../incidents/also-failing.ts';
import type { Table } from '../store/table.ts';
import type { DeliveryRecord } from './delivery-items.ts';
import { flapNoticeOf } from './flap-state-items.ts';
import { holdingOf } from './holding.ts';
import type { Alert } from './ports.ts';

/** The check an alert is about, as read: its definition, gone, or stored in a shape that does not parse. */
export type CheckRead = CheckDefinitionRecord | 'removed' | 'unreadable';

/** Reads the check for an alert's text; a damaged item names it plainly instead of failing the delivery. */
async function readCheck(table: Table, tenantId: string, checkId: string): Promise<CheckRead> {
  try {
    return (await getCheckDefinition(table, tenantId, checkId)) ?? 'removed';
  } catch (error) {
    if (error instanceof ZodError) return 'unreadable';
    throw error;
  }
}

/** What the check probes, for humans: "GET https://api.example.com/health", "tcp db:5432", "push". */
export function checkLabelOf(c: CheckRead): string {
  if (c === 'removed') return 'check removed';
  if (c === 'unreadable') return 'check';
  const type = checkTypeDefinition(c.check_type);
  // http and push label themselves from the check's fields, the others from their config.
  return 'kind' in type ? type.targetLabel(c) : type.targetLabel(c.config);
}

/** The check's name for humans (the one given, else derived from its type and target: check-name.ts). */
export function checkNameFrom(check: CheckRead): string {
  if (check === 'removed') return 'check removed';
  return check === 'unreadable' ? 'check' : checkNameOf(check);
}

/** A shared channel's test about no check (notifier.ts): nothing to read, no entity or check to name. */
function channelTestAlert(record: DeliveryRecord): Alert {
  const { event } = record;
  return {
    event,
    kind: record.kind,
    deliveryId: record.id,
    entity: { id: '', name: event.entity_name, blueprint_slug: '', slug: '' },
    checkName: 'none',
    checkLabel: 'none',
    lastError: null,
  };
}

/** The Alert a channel is sent for a delivery record: its event, entity, check name and label, last error. */
export async function alertFor(table: Table, record: DeliveryRecord): Promise<Alert> {
  const { event } = record;
  if (event.check_id === '') return channelTestAlert(record);
  const [entity, check] = await Promise.all([
    readEntityById(table, event.tenant_id, event.entity_id),
    readCheck(table, event.tenant_id, event.check_id),
  ]);
  const [error, holding, alsoFailing] = await Promise.all([
    lastErrorOf(table, event.check_id, typeof check === 'object' ? check : undefined),
    record.kind === 'test' ? undefined : holdingOf(table, event),
    // Named in what follows the first alert of a down entity (repeats, escalations, digests).
    record.kind === 'alert' || record.kind === 'test' || event.to_state === 'up'
      ? []
      : alsoFailingOf(table, event.tenant_id, event.entity_id),
  ]);
  // Repeat and escalation records are made when due: the time since the change is the record's age
  // (a retry re-sends the same figures, so a delivery's body stays the same on every attempt).
  const sinceChangeMs = Math.max(0, Date.parse(record.created_at) - Date.parse(event.timestamp));
  return {
    event,
    kind: record.kind,
    // An escalation's incident has been unacknowledged since its opening (the change).
    ...(record.kind === 'escalation'
      ? {
          unacknowledgedMinutes: Math.floor(sinceChangeMs / 60_000),
          unacknowledgedSeconds: Math.floor(sinceChangeMs / 1000),
        }
      : {}),
    ...(record.kind === 'repeat' ? { downForSeconds: Math.floor(sinceChangeMs / 1000) } : {}),
    ...(holding ? { holding } : {}),
    ...(record.kind === 'flapping' ? { flapping: await flapNoticeOf(table, event.check_id) } : {}),
    deliveryId: record.id,
    entity: {
      id: event.entity_id,
      name: entity?.name ?? event.entity_name,
      blueprint_slug: entity?.blueprint_slug ?? '',
      slug: entity?.slug ?? '',
    },
    checkName: checkNameFrom(check),
    checkLabel: checkLabelOf(check),
    lastError: error,
    ...(alsoFailing.length > 0 ? { alsoFailing } : {}),
  };
}
