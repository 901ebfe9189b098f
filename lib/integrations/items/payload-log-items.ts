import * as z from 'zod';
import { defineItem } from '../../store/item-definition.ts';
import { itemType } from '../../store/item-type.ts';
import type { Table } from '../../store/table.ts';

/**
 * Owner of `integration_payload` and its counter (DECISIONS.md "Outside alerts (wave 6)": the last
 * 50 payloads received per integration, with what each became). A ring in the integration's
 * alert partition (`OUTSIDE#<int_id>`): each request takes the next number and overwrites the
 * slot of that number modulo 50, so the log never holds more than 50 and needs no eviction. An
 * entry keeps the body's first 2 KB, with the PagerDuty routing key masked (it is the token).
 */

const PAYLOAD_LOG_SIZE = 50;
const EXCERPT_BYTES = 2048;

export const PAYLOAD_OUTCOMES = [
  'accepted',
  'deduplicated',
  'unmatched',
  'ignored',
  'confirmed',
  'refused',
] as const;

const payloadSchema = z.object({
  integration_id: z.string(),
  seq: z.number().int(),
  received_at: z.string(),
  outcome: z.enum(PAYLOAD_OUTCOMES),
  /** What it became, in words: the counts, or why it was refused. */
  detail: z.string(),
  excerpt: z.string(),
  truncated: z.boolean(),
});
export type PayloadRecord = z.infer<typeof payloadSchema>;

const partition = (integrationId: string) => `OUTSIDE#${integrationId}`;
const PREFIX = 'PAYLOAD#';

const payload = defineItem({
  type: itemType('integration_payload'),
  schema: payloadSchema,
  key: (k: { integration_id: string; seq: number }) => ({
    pk: partition(k.integration_id),
    // The docs' placeholder (a text) is shown as it is.
    sk: `${PREFIX}${Number.isInteger(k.seq) ? String(k.seq % PAYLOAD_LOG_SIZE).padStart(2, '0') : k.seq}`,
  }),
  docKey: { integration_id: '<int_id>', seq: '<n mod 50, 2 digits>' },
});

const payloadSeq = defineItem({
  type: itemType('integration_payload_seq'),
  schema: z.object({ seq: z.number().int() }),
  key: (k: { integration_id: string }) => ({ pk: partition(k.integration_id), sk: 'PAYLOADSEQ' }),
  keyOf: null,
  docKey: { integration_id: '<int_id>' },
});

/** A body's excerpt as logged: its first 2 KB, a routing key's value masked. */
export function payloadExcerpt(raw: Buffer): { excerpt: string; truncated: boolean } {
  const text = raw.subarray(0, EXCERPT_BYTES).toString('utf8');
  return {
    excerpt: text.replace(/("routing_key"\s*:\s*")[^"]*(")/g, '$1********$2'),
    truncated: raw.length > EXCERPT_BYTES,
  };
}

/** Logs one request (its number taken, its slot overwritten). */
export async function logPayload(table: Table, entry: Omit<PayloadRecord, 'seq'>): Promise<void> {
  const counter = await table.update(
    payloadSeq.upsert({ integration_id: entry.integration_id }, { add: { seq: 1 } }),
  );
  const { seq } = payloadSeq.parse(counter);
  await table.transact([payload.put({ ...entry, seq })]);
}

/** The log, newest first. */
export async function listPayloads(table: Table, integrationId: string): Promise<PayloadRecord[]> {
  const page = await table.query({
    pk: partition(integrationId),
    sk: { op: 'beginsWith', prefix: PREFIX },
    consistent: true,
    limit: PAYLOAD_LOG_SIZE,
  });
  return payload.parseAll(page.items).sort((a, b) => b.seq - a.seq);
}
