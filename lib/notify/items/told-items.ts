import * as z from 'zod';
import { defineItem } from '../../store/item-definition.ts';
import { itemType } from '../../store/item-type.ts';
import { migrationMarker } from '../../store/marked-migration.ts';
import { MAX_QUERY_LIMIT, type Table, type WriteOp } from '../../store/table.ts';

/**
 * Owner of `notify_told`: each channel's last word about an entity (DECISIONS.md "Alert truth
 * (wave 5)"), one item per entity and channel in the entity's told partition: the state the
 * channel was last told, by which change (`order`: the change's time and transition id, so an
 * older change processed late never overwrites a newer word) and which delivery. The alert flow
 * claims it in the same transaction that stores a delivery (told.ts), so two jobs racing for one
 * channel send one message. Items expire with delivery records (the tenant's retention after the
 * last word): an entity down for longer than that is told its state once more, never less.
 */

const toldSchema = z.object({
  tenant_id: z.string(),
  entity_id: z.string(),
  channel_id: z.string(),
  /** The check that owns the channel (a check's own channel), or null for a tenant channel. */
  channel_check_id: z.string().nullable(),
  /** The entity state the channel was last told. */
  state: z.string(),
  /** The delivery kind that told it (alert, also_failing, escalation). */
  kind: z.string(),
  transition_id: z.string(),
  /** `<ISO time of the change>|<transition id>`: words are only replaced by newer changes. */
  order: z.string(),
  delivery_id: z.string(),
  /** When it was told (the record's creation). */
  at: z.string(),
  version: z.number().int(),
});
export type ToldRecord = z.infer<typeof toldSchema>;

const toldPk = (tenantId: string, entityId: string) => `TOLD#${tenantId}#${entityId}`;

const told = defineItem({
  type: itemType('notify_told'),
  schema: toldSchema,
  key: (k: { tenant_id: string; entity_id: string; channel_id: string }) => ({
    pk: toldPk(k.tenant_id, k.entity_id),
    sk: `CHN#${k.channel_id}`,
  }),
  ttl: (r, c: { retentionDays: number }) => Math.floor(Date.parse(r.at) / 1000) + c.retentionDays * 86_400,
  docKey: { tenant_id: '<tnt>', entity_id: '<ent_id>', channel_id: '<chn_id>' },
});

/** Every channel's last word about the entity (consistent), at most a page of MAX_QUERY_LIMIT channels. */
export async function readToldOfEntity(
  table: Table,
  tenantId: string,
  entityId: string,
): Promise<ToldRecord[]> {
  const page = await table.query({
    pk: toldPk(tenantId, entityId),
    consistent: true,
    limit: MAX_QUERY_LIMIT,
  });
  return told.parseAll(page.items);
}

/** One channel's last word about the entity (consistent), or undefined when it was never told. */
export function readTold(
  table: Table,
  key: { tenant_id: string; entity_id: string; channel_id: string },
): Promise<ToldRecord | undefined> {
  return told.get(table, key, { consistent: true });
}

/**
 * The write of a channel's new last word, holding only while the word read before (`previous`,
 * undefined when there was none) is still the stored one: a racing job makes it fail, and its
 * caller reads again.
 */
export function toldClaimOp(
  record: Omit<ToldRecord, 'version'>,
  previous: ToldRecord | undefined,
  retentionDays: number,
): WriteOp {
  return told.put(
    { ...record, version: (previous?.version ?? 0) + 1 },
    previous
      ? { kind: 'compare', attr: 'version', op: '=', value: previous.version }
      : { kind: 'itemNotExists' },
    { retentionDays },
  );
}

/**
 * Every channel's last word about the entity read eventually consistent (half a consistent read's
 * cost), for counts shown beside other eventually consistent reads (the status board's `untold`);
 * at most a page of MAX_QUERY_LIMIT channels.
 */
export async function readToldOfEntityEventually(
  table: Table,
  tenantId: string,
  entityId: string,
): Promise<ToldRecord[]> {
  const page = await table.query({ pk: toldPk(tenantId, entityId), limit: MAX_QUERY_LIMIT });
  return told.parseAll(page.items);
}

/**
 * The put of a word seeded from the delivery log (told-seed.ts) where the channel has none: version
 * 1, only while no word is stored (one claimed meanwhile is newer and stays), expiring at `ttl`
 * (epoch seconds: the delivery record's own expiry, so the word and the record it was read from go
 * together).
 */
export function toldSeedOp(record: Omit<ToldRecord, 'version'>, ttl: number): WriteOp {
  const { tenant_id, entity_id, channel_id } = record;
  return told.upsert(
    { tenant_id, entity_id, channel_id },
    { set: { ...record, version: 1 }, ttl, condition: { kind: 'itemNotExists' } },
  );
}

/** The marker of the words' seed from the delivery log (told-seed.ts): every store written before the words has them. */
export const toldWordsMarker = migrationMarker('told-words', 'words_seeded');
