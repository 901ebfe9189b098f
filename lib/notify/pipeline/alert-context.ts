import * as z from 'zod';
import { readEntityById } from '../../catalog/entities.ts';
import { checkTypeDefinition } from '../../check-types/registry.ts';
import { alsoFailingOf } from '../../incidents/also-failing.ts';
import { incidentIdOfEvent } from '../../incidents/incident-of-event.ts';
import type { Table } from '../../store/table.ts';
import type { DeliveryRecord } from '../items/delivery-items.ts';
import type { Alert, StatusPagesShowing } from '../items/ports.ts';
import {
  type CheckRead,
  checkNameFrom,
  type ReasonReads,
  readCheck,
  reasonOf,
  reasonReads,
  reasonRedactor,
} from './alert-reason.ts';
import { flapNoticeOf } from './flap-state-items.ts';
import { holdingOf } from './holding.ts';

/** What the check probes, for humans: "GET https://api.example.com/health", "tcp db:5432", "push". */
export function checkLabelOf(c: CheckRead): string {
  if (c === 'removed') return 'check removed';
  if (c === 'unreadable') return 'check';
  const type = checkTypeDefinition(c.check_type);
  // http and push label themselves from the check's fields, the others from their config.
  return 'kind' in type ? type.targetLabel(c) : type.targetLabel(c.config);
}

/** Check types whose results keep evidence a person reads: each step's outcome, a browser run's screenshots. */
const EVIDENCE_TYPES: ReadonlySet<string> = new Set(['browser', 'multistep']);
/** Check types whose failing results link back to where the alert came from (an outside alert's sender). */
const SOURCE_TYPES: ReadonlySet<string> = new Set(['outside']);

const linkSchema = z.object({ href: z.string(), text: z.string() });
const sourceDetails = z.object({ outside_alert: z.object({ links: z.array(linkSchema).max(10) }) });

/**
 * What an alert into down or degraded shows of its failing result (at the change for an alert, now
 * for a repeat or an escalation): a scripted check's result, which its evidence link opens
 * (docs/scripted-checks.md), and an outside check's links back to the alert's sender
 * (docs/integrations.md). Nothing for other checks, kinds and states.
 */
async function failingOf(
  reads: ReasonReads,
  record: DeliveryRecord,
  check: CheckRead,
): Promise<{ evidenceResultId?: string; sourceLinks?: { href: string; text: string }[] }> {
  const { event, kind } = record;
  if (typeof check !== 'object') return {};
  const evidence = EVIDENCE_TYPES.has(check.check_type);
  if (!evidence && !SOURCE_TYPES.has(check.check_type)) return {};
  if (event.to_state !== 'down' && event.to_state !== 'degraded') return {};
  if (kind !== 'alert' && kind !== 'repeat' && kind !== 'escalation') return {};
  const result = await reads.failingResult(event.check_id, kind === 'alert' ? event.timestamp : undefined);
  if (!result) return {};
  if (evidence) return { evidenceResultId: result.id };
  const links = sourceDetails.safeParse(result.details).data?.outside_alert.links ?? [];
  return links.length > 0 ? { sourceLinks: links } : {};
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
    reason: null,
  };
}

/** The Alert a channel is sent for a delivery record: its event, entity, check name and label, last error. */
export async function alertFor(
  deps: { table: Table; statusPagesShowing: StatusPagesShowing },
  record: DeliveryRecord,
): Promise<Alert> {
  const { table } = deps;
  const { event } = record;
  if (event.check_id === '') return channelTestAlert(record);
  const [entity, check] = await Promise.all([
    readEntityById(table, event.tenant_id, event.entity_id),
    readCheck(table, event.tenant_id, event.check_id),
  ]);
  const reads = reasonReads(table, event.tenant_id, {
    check: [event.check_id, check],
    entity: [event.entity_id, entity],
  });
  const flapping = record.kind === 'flapping' ? await flapNoticeOf(table, event.check_id) : undefined;
  const [error, holding, alsoFailing, incidentId, reason, failing] = await Promise.all([
    reads.lastError(event.check_id),
    record.kind === 'test' ? undefined : holdingOf(deps, event),
    // Named in what follows the first alert of a down entity (repeats, escalations, digests).
    record.kind === 'alert' || record.kind === 'test' || event.to_state === 'up'
      ? []
      : alsoFailingOf(table, event.tenant_id, event.entity_id),
    record.kind === 'test' ? undefined : incidentIdOfEvent(table, event),
    reasonOf(reads, record.kind, event, flapping),
    failingOf(reads, record, check),
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
    ...(record.kind === 'flapping' ? { flapping } : {}),
    deliveryId: record.id,
    entity: {
      id: event.entity_id,
      name: entity?.name ?? event.entity_name,
      blueprint_slug: entity?.blueprint_slug ?? '',
      slug: entity?.slug ?? '',
    },
    checkName: checkNameFrom(check),
    checkLabel: checkLabelOf(check),
    // Redacted as the reason is: the text shows it when it says more than the reason.
    lastError: error === null ? null : reasonRedactor(check)(error),
    reason,
    ...(alsoFailing.length > 0 ? { alsoFailing } : {}),
    ...(incidentId ? { incidentId } : {}),
    ...failing,
  };
}
