import { resultTimeMs } from '../../checks/results.ts';
import { payloadKindOf } from '../items/payload-kind.ts';
import type { Alert } from '../items/ports.ts';

/**
 * The JSON body of the webhook and nats channels: the state-change event of SPEC.md "Events"
 * (its fields never renamed) plus `check_name`, so a receiver can say which check without
 * looking its id up, and `kind` (payload-kind.ts), so it can tell a repeat or an escalation from
 * the first alert: `down_for_seconds` on repeats, `unacknowledged_seconds` on escalations, and
 * `holding` when the entity is a root cause others are held back behind (holding.ts). `reason`
 * (string or null, alert-reason.ts) says why, redacted as results are and at most 300 characters;
 * a scripted check's alert into down or degraded adds `evidence`, where its failing result is read,
 * and an outside check's `links`, back to the sender of the alert that moved it.
 */
function eventBody(alert: Alert): Record<string, unknown> {
  return {
    ...alert.event,
    check_name: alert.checkName,
    kind: payloadKindOf(alert.kind, alert.event),
    reason: alert.reason ?? null,
    ...(alert.downForSeconds === undefined ? {} : { down_for_seconds: alert.downForSeconds }),
    ...(alert.unacknowledgedSeconds === undefined
      ? {}
      : { unacknowledged_seconds: alert.unacknowledgedSeconds }),
    ...(alert.holding ? { holding: alert.holding } : {}),
    // A flapping notice carries its figures.
    ...(alert.kind === 'flapping' ? { flapping: alert.flapping ?? null } : {}),
    ...evidenceOf(alert),
    ...(alert.sourceLinks ? { links: alert.sourceLinks } : {}),
  };
}

/**
 * A scripted check's failing result (what the human messages' Evidence line opens): its id, and
 * the API path that answers it as the first of a page, read with the receiver's own key (a slot's
 * result id is a ULID of its slot, the time the list sorts it by: docs/api.md `until`).
 */
function evidenceOf(alert: Alert): { evidence?: { result_id: string; results_path: string } } {
  const id = alert.evidenceResultId;
  const at = id === undefined ? undefined : resultTimeMs(id);
  if (id === undefined || at === undefined) return {};
  const until = new Date(at).toISOString();
  const check = encodeURIComponent(alert.event.check_id);
  return {
    evidence: { result_id: id, results_path: `/v1/checks/${check}/results?until=${until}&limit=1` },
  };
}

/** The body as the bytes sent (and signed). */
export function eventPayload(alert: Alert): Buffer {
  return Buffer.from(JSON.stringify(eventBody(alert)), 'utf8');
}
