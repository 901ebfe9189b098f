import { itemType } from '../store/item-type.ts';
import { checkPartition } from '../store/partitions.ts';

/**
 * Keys of the notification items; see docs/data-model.md. A check's policy, channels and
 * notification state live in the check's partition, so purging a check removes them; delivery
 * records live in the tenant's delivery partition and expire with results (they outlive a deleted
 * check, like its transitions).
 */

/** Partition of a tenant's delivery records; sort key is the delivery id (time-ordered). */
export const deliveriesPk = (tenantId: string) => `DLV#${tenantId}`;
/** gsi1 partition of a check's delivery records (gsi1sk: the delivery id). */
export const checkDeliveriesPk = (tenantId: string, checkId: string) => `DLV#${tenantId}#CHECK#${checkId}`;
/** gsi2 partition of a channel's delivery records (gsi2sk: the delivery id). */
export const channelDeliveriesPk = (tenantId: string, channelId: string) =>
  `DLV#${tenantId}#CHN#${channelId}`;
/** gsi1 partition of a tenant's channels (gsi1sk: the channel id). */
export const tenantChannelsPk = (tenantId: string) => `CHN#${tenantId}`;
/** Partition of the alerts held back while `upstreamEntityId` is down; sort key: the dependent's transition id. */
export const suppressedPk = (tenantId: string, upstreamEntityId: string) =>
  `SUPP#${tenantId}#${upstreamEntityId}`;

export const CHANNEL_PREFIX = 'CHANNEL#';

export const notifyKeys = {
  policy: (checkId: string) => ({ pk: checkPartition(checkId), sk: 'POLICY' }),
  channel: (checkId: string, channelId: string) => ({
    pk: checkPartition(checkId),
    sk: `${CHANNEL_PREFIX}${channelId}`,
  }),
  /** How many channels the check has (holds the per-check channel limit under concurrent creates). */
  channelCount: (checkId: string) => ({ pk: checkPartition(checkId), sk: 'NOTIFY#CHANNELS' }),
  /** When the check's last alert was sent (the cooldown counts from it). */
  notifyState: (checkId: string) => ({ pk: checkPartition(checkId), sk: 'NOTIFY#STATE' }),
  delivery: (tenantId: string, deliveryId: string) => ({ pk: deliveriesPk(tenantId), sk: deliveryId }),
  suppressed: (tenantId: string, upstreamEntityId: string, transitionId: string) => ({
    pk: suppressedPk(tenantId, upstreamEntityId),
    sk: transitionId,
  }),
};

/** The notification item types: each item's `entity` and the version of its stored shape. */
export const notifyTypes = {
  policy: itemType('notify_policy'),
  channel: itemType('notify_channel'),
  channelCount: itemType('notify_channel_count'),
  notifyState: itemType('notify_state'),
  delivery: itemType('delivery'),
  suppressed: itemType('suppressed_alert'),
};
