import { changeOrder } from '../../domain/states.ts';
import { type Clock, isoTime } from '../../platform/clock.ts';
import { ConditionFailedError, type Table } from '../../store/table.ts';
import type { DeliveryRecord } from '../items/delivery-items.ts';
import type { DeliveryStore } from '../items/delivery-store.ts';
import { readTold, type ToldRecord, toldClaimOp } from '../items/told-items.ts';

/**
 * The gate of every state message (DECISIONS.md "Alert truth (wave 5)"): an alert is sent to a
 * channel only when it changes that channel's last word about the entity (told-items.ts). A channel
 * already told the state gets nothing ("already told"); a recovery goes only to a channel told the
 * entity was not up ("never told it was not up"); a change older than the channel's last word is
 * not sent at all ("superseded"). The record and the channel's new last word are written in one
 * transaction holding on the word read, so two jobs racing for one channel send one message, and a
 * crash between the two is impossible.
 */

/** Attempts when other jobs keep moving the channel's last word between our read and our write. */
const CLAIM_ATTEMPTS = 5;

/** Messages that say more than a state (a notice, an escalation, a check also failing): sent whatever the word, then the word. */
const ALWAYS_SENT: ReadonlySet<DeliveryRecord['kind']> = new Set(['flapping', 'escalation', 'also_failing']);

/** Why a state message is not sent to a channel whose last word is `told`, or undefined to send it. */
function toldVerdict(
  told: ToldRecord | undefined,
  record: DeliveryRecord,
  order = changeOrder(record.event),
): string | undefined {
  const { event } = record;
  if (told && told.order > order) return `superseded: this channel was told ${told.state} by a newer change`;
  // After a flapping notice the channel waits for the alert that ends it (the settled state).
  if (ALWAYS_SENT.has(record.kind) || told?.kind === 'flapping') return undefined;
  if (told ? told.state === event.to_state : event.to_state === 'up')
    return told ? `already told: ${told.state}` : 'not sent: this channel was never told it was not up';
  return undefined;
}

/** The state messages whose records claim their channel's last word (alerts and ALWAYS_SENT; a repeat re-states it, a test names nothing). */
export const claimsWord = (record: DeliveryRecord) =>
  (record.kind === 'alert' || ALWAYS_SENT.has(record.kind)) &&
  record.channel_id !== null &&
  record.status === 'pending';

/** What the gate reads and writes: the table (the channel's word), the clock, the delivery log. */
export interface ToldDeps {
  table: Table;
  clock: Clock;
  deliveries: Pick<DeliveryStore, 'putNew'>;
}

/**
 * Stores a pending alert record, or the same record `skipped` when it would not change its channel's
 * last word; answers the record stored and the word it replaced (undefined when the channel had
 * none), or undefined when a redelivered job found it stored.
 */
export async function putClaimed(
  deps: ToldDeps,
  record: DeliveryRecord,
  retentionDays: number,
  channelCheckId: string | null,
  options: {
    order?: string | undefined;
    /** The channel's word as the caller read it (absent word: never told): the first attempt holds on it without reading. */
    known?: { word: ToldRecord | undefined } | undefined;
  } = {},
): Promise<{ stored: DeliveryRecord; replaced: ToldRecord | undefined } | undefined> {
  const order = options.order ?? changeOrder(record.event);
  const channelId = record.channel_id ?? '';
  const key = { tenant_id: record.tenant_id, entity_id: record.entity_id, channel_id: channelId };
  for (let attempt = 1; ; attempt++) {
    // A word read by the caller saves a read; if it moved since, the write's condition fails and the next attempt reads.
    const told = attempt === 1 && options.known ? options.known.word : await readTold(deps.table, key);
    const why = toldVerdict(told, record, order);
    const stored: DeliveryRecord = why ? { ...record, status: 'skipped', reason: why } : record;
    // A superseded change leaves the newer word, and a recovery to a channel never told keeps it
    // untold; any other moves the word's order forward (a channel told down by an older change, now
    // told down again, keeps down but refuses the older change from then on).
    const word =
      why !== undefined && (told === undefined || why.startsWith('superseded'))
        ? []
        : [
            toldClaimOp(
              {
                ...key,
                channel_check_id: channelCheckId,
                state: why && told ? told.state : record.event.to_state,
                kind: why && told ? told.kind : record.kind,
                transition_id: record.event.transition_id,
                order,
                delivery_id: why && told ? told.delivery_id : record.id,
                at: why && told ? told.at : isoTime(deps.clock.now()),
              },
              told,
              retentionDays,
            ),
          ];
    try {
      return (await deps.deliveries.putNew(stored, retentionDays, word))
        ? { stored, replaced: told }
        : undefined;
    } catch (error) {
      if (!(error instanceof ConditionFailedError) || attempt >= CLAIM_ATTEMPTS) throw error;
    }
  }
}
