import { checkExistsOp } from '../../checks/check-items.ts';
import { type CursorSeal, createCursorSeal } from '../../store/cursor-seal.ts';
import { loadCursorSecret } from '../../store/cursor-secret.ts';
import { transactIf } from '../../store/items.ts';
import type { Page, PageRequest } from '../../store/paging.ts';
import { ConditionFailedError, type Table } from '../../store/table.ts';
import {
  type AttachmentRecord,
  attachmentAddedOps,
  attachmentRemovedOps,
  type ChannelRecord,
  channelAddedOps,
  channelRemovedOps,
  getChannel,
  getTenantChannel,
  getTenantChannels,
  listAttachmentsOfChannel,
  listAttachmentsOfCheck,
  listChannelsOfCheck,
  readTenantChannels,
  type TenantChannelRecord,
  tenantChannelChangedOp,
  tenantChannelCreatedOps,
  tenantChannelDeletedOps,
} from './channel-items.ts';

/** Why a channel create did not happen: the check is gone, or it already has the most channels. */
export type ChannelCreateRefusal = 'check-missing' | 'limit';
/** Why an attach did not happen: also, the channel is attached already or does not exist. */
export type AttachRefusal = ChannelCreateRefusal | 'attached' | 'channel-missing';

/** A tenant channel as seen from one check: what senders and delivery records take. */
export function channelSeenFrom(channel: TenantChannelRecord, checkId: string): ChannelRecord {
  const { updated_at: _updated, ...rest } = channel;
  return { ...rest, check_id: checkId };
}

/** Channels reached several ways, each once, in the order first reached (own, attached, routed). */
export function uniqueChannels(channels: readonly ChannelRecord[]): ChannelRecord[] {
  const seen = new Set<string>();
  return channels.filter((channel) => !seen.has(channel.id) && seen.add(channel.id));
}

/**
 * The channels (channel-items.ts): a check's own, in the check's partition (purged with it), with a
 * counter that keeps the per-check limit under concurrent creates; the tenant's shared channels and
 * their attachments to checks. Both kinds are listed across the tenant through gsi1.
 */
export function createChannelStore(
  table: Table,
  cursors: CursorSeal = createCursorSeal(() => loadCursorSecret(table)),
) {
  /** The attached tenant channels of a check (an attachment whose channel is gone is left out). */
  const attachedTo = async (checkId: string): Promise<TenantChannelRecord[]> => {
    const links = await listAttachmentsOfCheck(table, checkId);
    const first = links[0];
    if (!first) return [];
    const found = await getTenantChannels(
      table,
      first.tenant_id,
      links.map((link) => link.channel_id),
    );
    const byId = new Map(found.map((channel) => [channel.id, channel]));
    return links.flatMap((link) => byId.get(link.channel_id) ?? []);
  };

  return {
    /** Every channel the check's alerts go to by itself: its own (oldest first), then its attached tenant channels. */
    async listForCheck(checkId: string): Promise<ChannelRecord[]> {
      const [own, attached] = await Promise.all([listChannelsOfCheck(table, checkId), attachedTo(checkId)]);
      return uniqueChannels([...own, ...attached.map((channel) => channelSeenFrom(channel, checkId))]);
    },

    /** The check's own channels and its attached tenant channels apart (the policy view). */
    async listApart(checkId: string): Promise<{ own: ChannelRecord[]; attached: TenantChannelRecord[] }> {
      const [own, attached] = await Promise.all([listChannelsOfCheck(table, checkId), attachedTo(checkId)]);
      return { own, attached };
    },

    /**
     * One channel a delivery of the check names: its own, else (given the tenant) a tenant channel
     * seen from the check (attached or reached by a route); undefined when gone.
     */
    async get(checkId: string, channelId: string, tenantId?: string): Promise<ChannelRecord | undefined> {
      const own = await getChannel(table, checkId, channelId);
      if (own || tenantId === undefined) return own;
      const shared = await getTenantChannel(table, tenantId, channelId);
      return shared && channelSeenFrom(shared, checkId);
    },

    /** A page of the tenant's channels (own ones of its checks and tenant channels), newest first. */
    listForTenant: (
      tenantId: string,
      page: PageRequest,
    ): Promise<{ channels: (ChannelRecord | TenantChannelRecord)[]; nextCursor: Page['nextCursor'] }> =>
      readTenantChannels({ table, cursors }, tenantId, page),

    /** Stores a new channel while its check exists and has fewer than MAX_CHANNELS_PER_CHECK. */
    async create(record: ChannelRecord): Promise<ChannelCreateRefusal | undefined> {
      try {
        await table.transact([checkExistsOp(record.tenant_id, record.check_id), ...channelAddedOps(record)]);
        return undefined;
      } catch (error) {
        if (!(error instanceof ConditionFailedError)) throw error;
        return error.failed.includes(0) ? 'check-missing' : 'limit';
      }
    },

    /** Removes a check's own channel; false when the check has no such channel. */
    remove: (checkId: string, channelId: string): Promise<boolean> =>
      transactIf(table, channelRemovedOps(checkId, channelId)),

    /** One tenant channel, or undefined. */
    getShared: (tenantId: string, channelId: string): Promise<TenantChannelRecord | undefined> =>
      getTenantChannel(table, tenantId, channelId),

    /** The tenant channels of these ids that exist. */
    getSharedMany: (tenantId: string, ids: readonly string[]): Promise<TenantChannelRecord[]> =>
      getTenantChannels(table, tenantId, ids),

    /** Stores a new tenant channel; false when the tenant has MAX_TENANT_CHANNELS already. */
    createShared: (record: TenantChannelRecord): Promise<boolean> =>
      transactIf(table, tenantChannelCreatedOps(record)),

    /** Replaces a tenant channel unless it changed since read (`expected`: its updated_at then). */
    replaceShared: (record: TenantChannelRecord, expected: string): Promise<boolean> =>
      transactIf(table, [tenantChannelChangedOp(record, expected)]),

    /** Deletes a tenant channel and every attachment of it; false when there was none. */
    async deleteShared(tenantId: string, channelId: string): Promise<boolean> {
      if (!(await transactIf(table, tenantChannelDeletedOps(tenantId, channelId)))) return false;
      for (const link of await listAttachmentsOfChannel(table, tenantId, channelId)) {
        await transactIf(table, attachmentRemovedOps(link.check_id, channelId));
      }
      return true;
    },

    /** The checks a tenant channel is attached to. */
    attachmentsOf: (tenantId: string, channelId: string): Promise<AttachmentRecord[]> =>
      listAttachmentsOfChannel(table, tenantId, channelId),

    /** Attaches a tenant channel to a check (both in the record's tenant). */
    async attach(record: AttachmentRecord): Promise<AttachRefusal | undefined> {
      try {
        await table.transact([
          checkExistsOp(record.tenant_id, record.check_id),
          ...attachmentAddedOps(record),
        ]);
        return undefined;
      } catch (error) {
        if (!(error instanceof ConditionFailedError)) throw error;
        const refusals: AttachRefusal[] = ['check-missing', 'limit', 'attached', 'channel-missing'];
        return refusals[error.failed[0] ?? 1] ?? 'limit';
      }
    },

    /** Detaches a tenant channel from a check; false when it was not attached. */
    detach: (checkId: string, channelId: string): Promise<boolean> =>
      transactIf(table, attachmentRemovedOps(checkId, channelId)),
  };
}

export type ChannelStore = ReturnType<typeof createChannelStore>;
