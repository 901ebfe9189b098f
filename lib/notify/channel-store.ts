import { checkExistsOp } from '../checks/check-items.ts';
import { type CursorSeal, createCursorSeal } from '../store/cursor-seal.ts';
import { loadCursorSecret } from '../store/cursor-secret.ts';
import type { Page, PageRequest } from '../store/paging.ts';
import { ConditionFailedError, type Table } from '../store/table.ts';
import {
  type ChannelRecord,
  channelAddedOps,
  channelRemovedOps,
  getChannel,
  listChannelsOfCheck,
  readTenantChannels,
} from './channel-items.ts';

/** Why a channel create did not happen: the check is gone, or it already has the most channels. */
export type ChannelCreateRefusal = 'check-missing' | 'limit';

/**
 * A check's channels (channel-items.ts): in the check's partition (purged with it), listed across
 * the tenant through gsi1, with a counter that keeps the per-check limit under concurrent creates.
 */
export function createChannelStore(
  table: Table,
  cursors: CursorSeal = createCursorSeal(() => loadCursorSecret(table)),
) {
  return {
    /** Every channel of the check, oldest first. */
    listForCheck: (checkId: string): Promise<ChannelRecord[]> => listChannelsOfCheck(table, checkId),

    /** One channel of the check, or undefined. */
    get: (checkId: string, channelId: string): Promise<ChannelRecord | undefined> =>
      getChannel(table, checkId, channelId),

    /** A page of the tenant's channels across its checks, newest first; the cursor is sealed for this list. */
    listForTenant: (
      tenantId: string,
      page: PageRequest,
    ): Promise<{ channels: ChannelRecord[]; nextCursor: Page['nextCursor'] }> =>
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

    /** Removes a channel; false when the check has no such channel. */
    async remove(checkId: string, channelId: string): Promise<boolean> {
      try {
        await table.transact(channelRemovedOps(checkId, channelId));
        return true;
      } catch (error) {
        if (error instanceof ConditionFailedError) return false;
        throw error;
      }
    },
  };
}

export type ChannelStore = ReturnType<typeof createChannelStore>;
