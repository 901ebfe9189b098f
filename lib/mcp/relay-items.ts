import * as z from 'zod';
import { defineItem } from '../store/item-definition.ts';
import { itemType } from '../store/item-type.ts';
import type { Item, Table, UpdateOp, WriteOp } from '../store/table.ts';

/**
 * The owner of the legacy SSE relay's items (`mcp_session`, `mcp_message`; docs/data-model.md,
 * "MCP relay"): a session lives in a partition of its own (`MCPSESSION#<id>`) with its pending
 * messages beside it, so the stream reads them with one consistent query in order. Both expire by
 * `ttl`; readers also treat an expired item as gone.
 */

const MESSAGE_PREFIX = 'MSG#';
const sessionPk = (sessionId: string) => `MCPSESSION#${sessionId}`;

const relaySessionSchema = z.object({
  tenant_id: z.string(),
  key_id: z.string(),
  created_at: z.string(),
  /** The number of the last message queued (the counter that orders them). */
  seq: z.number().int(),
  ttl: z.number(),
});
export type RelaySessionRecord = z.infer<typeof relaySessionSchema>;

const relaySession = defineItem({
  type: itemType('mcp_session'),
  schema: relaySessionSchema,
  key: (k: { session_id: string }) => ({ pk: sessionPk(k.session_id), sk: 'SESSION' }),
  keyOf: null,
  ttl: (r) => r.ttl,
  docKey: { session_id: '<session_id>' },
});

const relayMessage = defineItem({
  type: itemType('mcp_message'),
  schema: z.object({ message: z.string(), ttl: z.number() }),
  // Zero-padded so the sort key orders messages as they were queued.
  key: (k: { session_id: string; seq: number }) => ({
    pk: sessionPk(k.session_id),
    sk: `${MESSAGE_PREFIX}${String(k.seq).padStart(12, '0')}`,
  }),
  keyOf: null,
  ttl: (r) => r.ttl,
  docKey: { session_id: '<session_id>', seq: '<seq, 12 digits>' },
});

/** A queued message: its number in the session and the JSON-RPC message as JSON text. */
export interface RelayMessage {
  seq: number;
  message: string;
}

/** The session item, or undefined (an unreadable item reads as gone, as an expired one does). */
export async function getRelaySession(
  table: Table,
  sessionId: string,
): Promise<RelaySessionRecord | undefined> {
  const item = await table.get(relaySession.key({ session_id: sessionId }), { consistent: true });
  const parsed = item ? relaySessionSchema.safeParse(item) : undefined;
  return parsed?.success ? parsed.data : undefined;
}

/** The session as an update returned it (`table.update` of `messagesReservedOp`). */
export function parseRelaySession(item: Item): RelaySessionRecord {
  return relaySession.parse(item);
}

/** The put of a new session (its id is random: a clash fails). */
export function sessionOpenedOp(sessionId: string, session: RelaySessionRecord): WriteOp {
  return relaySession.putAt({ session_id: sessionId }, session, { kind: 'itemNotExists' });
}

/** Numbers `count` more messages of the session, while it exists; the item after it holds the last `seq`. */
export function messagesReservedOp(sessionId: string, count: number): UpdateOp {
  return relaySession.update(
    { session_id: sessionId },
    { add: { seq: count }, condition: { kind: 'itemExists' } },
  );
}

/** The puts of messages numbered from `firstSeq`, expiring with their session (`ttl`). */
export function messagesQueuedOps(
  sessionId: string,
  firstSeq: number,
  messages: string[],
  ttl: number,
): WriteOp[] {
  return messages.map((message, i) =>
    relayMessage.putAt({ session_id: sessionId, seq: firstSeq + i }, { message, ttl }),
  );
}

/** The session's queued messages, in order (at most `limit`: one page). */
export async function listRelayMessages(
  table: Table,
  sessionId: string,
  limit: number,
): Promise<RelayMessage[]> {
  const page = await table.query({
    pk: sessionPk(sessionId),
    sk: { op: 'beginsWith', prefix: MESSAGE_PREFIX },
    consistent: true,
    limit,
  });
  return page.items.map((item) => ({
    seq: Number(item.sk.slice(MESSAGE_PREFIX.length)),
    message: relayMessage.parse(item).message,
  }));
}

/** The deletes of delivered messages. */
export function messagesTakenOps(sessionId: string, seqs: number[]): WriteOp[] {
  return seqs.map((seq) => relayMessage.delete({ session_id: sessionId, seq }));
}

/** The delete of an ended session (its messages left behind expire with their ttl). */
export function sessionClosedOp(sessionId: string): WriteOp {
  return relaySession.delete({ session_id: sessionId });
}
