import { changeOrder } from '../../domain/states.ts';
import { transactIf } from '../../store/items.ts';
import { type MigrationDeps, runMarkedMigration } from '../../store/marked-migration.ts';
import { getChannel } from '../items/channel-items.ts';
import { type DeliveryRecord, forEachDelivery } from '../items/delivery-items.ts';
import { toldSeedOp, toldWordsMarker } from '../items/told-items.ts';
import { claimsWord } from './told.ts';

/**
 * The channels' last words of a store written before `notify_told` (issue 75 point 1). A recovery
 * goes only to a channel whose word says the entity was not up (told.ts), and a release before the
 * store kept no word: every channel it told "down" would never hear the recovery. This one-time
 * migration (run with the others at local start and by `data migrate`, lib/migrations.ts) gives
 * each (entity, channel) with none the word its delivery log says it was last told: the newest
 * change (by `changeOrder`) among its records that claim a word now (an alert, a flapping notice,
 * an escalation, an also_failing word; stored pending, so sent, failed, retrying or folded since;
 * never a skipped or deferred one). A word stored meanwhile is newer and stays (`itemNotExists`),
 * and the word expires with the record it was read from.
 */

/** A record that claimed (or, stored now, would claim) its channel's word: as it was first stored. */
const toldBy = (record: DeliveryRecord) =>
  record.status !== 'skipped' && record.status !== 'deferred' && claimsWord({ ...record, status: 'pending' });

/** Seeds every channel's last word from the delivery log where none is stored; answers how many it wrote. */
export function seedToldWords(deps: MigrationDeps): Promise<number> {
  const { table } = deps;
  return runMarkedMigration(deps, {
    marker: toldWordsMarker,
    message: "channels' last words seeded from the delivery log",
    field: 'words',
    perTenant: async (tenant) => {
      // The newest record per entity and channel (its change's order, then its id).
      const newest = new Map<string, { record: DeliveryRecord; order: string; ttl: number | undefined }>();
      await forEachDelivery(table, tenant.id, deps.clock.now(), (record, ttl) => {
        if (!toldBy(record)) return;
        const key = `${record.entity_id}|${record.channel_id}`;
        const order = changeOrder(record.event);
        const seen = newest.get(key);
        if (!seen || order > seen.order || (order === seen.order && record.id > seen.record.id))
          newest.set(key, { record, order, ttl });
      });
      let seeded = 0;
      for (const { record, order, ttl } of newest.values()) {
        const channelId = record.channel_id ?? '';
        // Before the store a record's channel was its check's own or a tenant channel.
        const channelCheckId =
          record.channel_check_id !== undefined
            ? record.channel_check_id
            : (await getChannel(table, record.check_id, channelId))
              ? record.check_id
              : null;
        const word = {
          tenant_id: record.tenant_id,
          entity_id: record.entity_id,
          channel_id: channelId,
          channel_check_id: channelCheckId,
          state: record.event.to_state,
          kind: record.kind,
          transition_id: record.event.transition_id,
          order,
          delivery_id: record.id,
          at: record.created_at,
        };
        const expires =
          ttl ?? Math.floor(Date.parse(record.created_at) / 1000) + tenant.retention_days * 86_400;
        if (await transactIf(table, [toldSeedOp(word, expires)])) seeded += 1;
      }
      return seeded;
    },
  });
}
