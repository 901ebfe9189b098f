import { checkKeys } from '../checks/check-keys.ts';
import { belowLimit } from '../store/conditions.ts';
import { type CursorSeal, createCursorSeal } from '../store/cursor-seal.ts';
import { loadCursorSecret } from '../store/cursor-secret.ts';
import { stamp } from '../store/item-type.ts';
import { parseItem, queryAll } from '../store/items.ts';
import { type Page, type PageRequest, readPage } from '../store/paging.ts';
import { checkPartition } from '../store/partitions.ts';
import { ConditionFailedError, type Table } from '../store/table.ts';
import { CHANNEL_PREFIX, notifyKeys, notifyTypes, tenantChannelsPk } from './notify-keys.ts';
import { type ChannelRecord, channelSchema } from './records.ts';

/** Channels one check may have; one more is 403 LIMIT_EXCEEDED (a fixed limit, like 50 actions). */
export const MAX_CHANNELS_PER_CHECK = 10;

/** Why a channel create did not happen: the check is gone, or it already has the most channels. */
export type ChannelCreateRefusal = 'check-missing' | 'limit';

/**
 * A check's channels: items in the check's partition (purged with it), listed across the tenant
 * through gsi1. A counter item next to them keeps the per-check limit under concurrent creates.
 */
export function createChannelStore(
  table: Table,
  cursors: CursorSeal = createCursorSeal(() => loadCursorSecret(table)),
) {
  const parse = (item: Parameters<typeof parseItem>[1]) => parseItem(channelSchema, item);

  return {
    /** Every channel of the check, oldest first. */
    async listForCheck(checkId: string): Promise<ChannelRecord[]> {
      const items = await queryAll((cursor) =>
        table.query({
          pk: checkPartition(checkId),
          sk: { op: 'beginsWith', prefix: CHANNEL_PREFIX },
          consistent: true,
          cursor,
        }),
      );
      return items.map(parse);
    },

    /** One channel of the check, or undefined. */
    async get(checkId: string, channelId: string): Promise<ChannelRecord | undefined> {
      const item = await table.get(notifyKeys.channel(checkId, channelId), { consistent: true });
      return item ? parse(item) : undefined;
    },

    /** A page of the tenant's channels across its checks, newest first; the cursor is sealed for this list. */
    async listForTenant(
      tenantId: string,
      page: PageRequest,
    ): Promise<{ channels: ChannelRecord[]; nextCursor: Page['nextCursor'] }> {
      const read = await readPage(
        { table, cursors },
        { index: 'gsi1', pk: tenantChannelsPk(tenantId), prefix: 'chn_' },
        page,
      );
      return { channels: read.items.map(parse), nextCursor: read.nextCursor };
    },

    /** Stores a new channel while its check exists and has fewer than MAX_CHANNELS_PER_CHECK. */
    async create(record: ChannelRecord): Promise<ChannelCreateRefusal | undefined> {
      try {
        await table.transact([
          {
            type: 'conditionCheck',
            key: checkKeys.check(record.tenant_id, record.check_id),
            condition: { kind: 'itemExists' },
          },
          {
            type: 'update',
            key: notifyKeys.channelCount(record.check_id),
            set: { ...stamp(notifyTypes.channelCount), tenant_id: record.tenant_id },
            add: { count: 1 },
            condition: belowLimit('count', MAX_CHANNELS_PER_CHECK),
          },
          {
            type: 'put',
            item: {
              ...notifyKeys.channel(record.check_id, record.id),
              ...stamp(notifyTypes.channel),
              gsi1pk: tenantChannelsPk(record.tenant_id),
              gsi1sk: record.id,
              ...record,
            },
            condition: { kind: 'itemNotExists' },
          },
        ]);
        return undefined;
      } catch (error) {
        if (!(error instanceof ConditionFailedError)) throw error;
        return error.failed.includes(0) ? 'check-missing' : 'limit';
      }
    },

    /** Removes a channel; false when the check has no such channel. */
    async remove(checkId: string, channelId: string): Promise<boolean> {
      try {
        await table.transact([
          {
            type: 'delete',
            key: notifyKeys.channel(checkId, channelId),
            condition: { kind: 'itemExists' },
          },
          {
            type: 'update',
            key: notifyKeys.channelCount(checkId),
            set: { ...stamp(notifyTypes.channelCount) },
            add: { count: -1 },
          },
        ]);
        return true;
      } catch (error) {
        if (error instanceof ConditionFailedError) return false;
        throw error;
      }
    },
  };
}

export type ChannelStore = ReturnType<typeof createChannelStore>;
