import type { Clock } from '../../platform/clock.ts';
import { isoTime } from '../../platform/clock.ts';
import { transactIf } from '../../store/items.ts';
import type { Table, WriteOp } from '../../store/table.ts';
import type { IntegrationRecord } from '../items/integration-items.ts';
import {
  alertsOnEntity,
  getOutsideTally,
  type OutsideAlertRecord,
  openOf,
  outsideAlertWrittenOps,
  outsideTallyHold,
} from '../items/outside-alert-items.ts';
import type { IncomingAlert } from '../kinds/incoming.ts';
import { applyEvent, outsideCheckState } from './alert-lifecycle.ts';

/** An entity's outside state after a request: what the integration's outside check records. */
export interface OutsideStateChange {
  integration: IntegrationRecord;
  entityId: string;
  /** The worst open alert's state: up when none is open, or only info alerts (which move no state). */
  state: 'up' | 'degraded' | 'down';
  /** The worst open alert's summary, the result's reason (undefined when none is open). */
  reason: string | undefined;
  /** That alert: its id, its sender's key and its links back to the sender (the result's details). */
  cause: OutsideCause | undefined;
  /** Holds the recording on the tally as it was read: a newer reading refuses it (`stale`). */
  holdsOn: WriteOp;
}

/** The outside alert a reading names: what a message and the console link back to. */
interface OutsideCause {
  alert_id: string;
  dedup_key: string;
  links: OutsideAlertRecord['links'];
}

/** Reads of a tally before an entity's outside state gives up (others kept moving it). */
const READ_ATTEMPTS = 5;
/** Alerts a Vigil acknowledgement marks on one entity at most (newest heard first). */
const ACKNOWLEDGED_AT_MOST = 1_000;

/**
 * An event the service makes itself, not a sender: a resolve of the alert that gives way at the
 * bound, or Vigil's acknowledge or resolve of one (an incident acknowledged, an MCP tool).
 */
export function vigilEvent(action: 'acknowledge' | 'resolve', dedupKey: string): IncomingAlert {
  return {
    action,
    dedup_key: dedupKey,
    severity: undefined,
    summary: '',
    source: undefined,
    labels: {},
    links: [],
    at: undefined,
  };
}

/**
 * An entity's outside state (the integration's outside check there): read from the integration's
 * tally of the entity and recorded held on it, so a reading never lands after a newer one; and a
 * Vigil acknowledgement of the entity's incident recorded on its triggered outside alerts.
 */
export function createOutsideState(deps: {
  table: Table;
  clock: Clock;
  stateChanged(change: OutsideStateChange): Promise<'recorded' | 'stale' | 'gone'>;
}) {
  /** The worst open alert: one this request wrote, else the newest heard of that severity. */
  const worstOf = async (
    integration: IntegrationRecord,
    entityId: string,
    worst: OutsideAlertRecord['severity'],
    written: readonly OutsideAlertRecord[],
  ) => {
    const mine = written.findLast((a) => a.status !== 'resolved' && a.severity === worst);
    if (mine) return mine;
    const where = { tenantId: integration.tenant_id, entityId, want: 1 };
    const [found] = await alertsOnEntity(
      deps.table,
      where,
      (a) => a.integration_id === integration.id && a.status !== 'resolved' && a.severity === worst,
    );
    return found;
  };

  return {
    /**
     * The entity's outside state as its tally is now, recorded held on that tally; read again while
     * a newer write moved it (that write's request records too: the last reading lands last).
     */
    async record(integration: IntegrationRecord, entityId: string, written: readonly OutsideAlertRecord[]) {
      for (let attempt = 1; attempt <= READ_ATTEMPTS; attempt++) {
        const tally = await getOutsideTally(deps.table, integration.id, entityId);
        // No alert ever opened here (a resolve of one never heard of): no outside check to move.
        if ((tally.writes ?? 0) === 0) return;
        const open = openOf(tally);
        const worst = open.find((a) => a.severity !== 'info')?.severity;
        const alert = worst === undefined ? undefined : await worstOf(integration, entityId, worst, written);
        const cause = alert && { alert_id: alert.id, dedup_key: alert.dedup_key, links: alert.links };
        const holdsOn = outsideTallyHold(integration.id, entityId, tally);
        const state = outsideCheckState(open) ?? 'up';
        const reading = { integration, entityId, state, reason: alert?.summary, cause, holdsOn };
        if ((await deps.stateChanged(reading)) !== 'stale') return;
      }
      throw new Error(`outside state of ${entityId}: moved by others ${READ_ATTEMPTS} times`);
    },
  };
}

/**
 * A Vigil acknowledgement of an entity's incident, recorded on the entity's triggered outside
 * alerts (every integration's): each becomes `acknowledged`, over the version read (one written
 * meanwhile by its sender is left as its sender left it).
 */
export async function acknowledgeOutsideAlerts(
  deps: { table: Table; clock: { now(): number } },
  tenantId: string,
  entityId: string,
): Promise<number> {
  const triggered = await alertsOnEntity(
    deps.table,
    { tenantId, entityId, want: ACKNOWLEDGED_AT_MOST },
    (a) => a.status === 'triggered',
  );
  let marked = 0;
  for (const alert of triggered) {
    const { next } = applyEvent(alert, vigilEvent('acknowledge', alert.dedup_key), isoTime(deps.clock.now()));
    if (!next || next === alert) continue;
    const record = { ...alert, ...next, version: alert.version + 1 };
    if (await transactIf(deps.table, outsideAlertWrittenOps(alert, record))) marked += 1;
  }
  return marked;
}
