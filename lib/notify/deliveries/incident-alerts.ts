import type { TimelineEntry, TimelineSources } from '../../incidents/timeline.ts';
import type { Table } from '../../store/table.ts';
import { readEntityDeliveriesBetween } from '../items/delivery-items.ts';

/**
 * lib/notify's part of an incident's timeline: the alerts, repeats and escalations its transitions
 * sent (sent, failed or skipped), read from the delivery log.
 */
export const incidentAlerts =
  (table: Table): TimelineSources['alerts'] =>
  async (tenantId, input) => {
    const read = await readEntityDeliveriesBetween(table, tenantId, input);
    const entries = read.deliveries
      .filter(
        // A digest names no transition (its folded alerts do, status `folded`).
        (d): d is typeof d & { kind: 'alert' | 'repeat' | 'escalation' } =>
          d.kind !== 'test' &&
          d.kind !== 'digest' &&
          d.kind !== 'acknowledge' &&
          d.transition_id !== null &&
          input.transitionIds.has(d.transition_id),
      )
      .map(
        (d): TimelineEntry => ({
          type: 'alert',
          at: d.sent_at ?? d.created_at,
          delivery_id: d.id,
          kind: d.kind,
          status: d.status,
          reason: d.reason,
          channel_id: d.channel_id,
          channel_type: d.channel_type,
        }),
      );
    return { entries, truncated: read.truncated };
  };
