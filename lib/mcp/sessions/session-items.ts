import * as z from 'zod';
import { defineItem } from '../../store/item-definition.ts';
import { itemType } from '../../store/item-type.ts';
import type { Table, UpdateOp, WriteOp } from '../../store/table.ts';

/**
 * The owner of the Streamable HTTP session item (`mcp_http_session`; docs/data-model.md, "MCP
 * sessions"): one item per session in a partition of its own (`MCPHTTP#<id>`), holding whose it is,
 * what `initialize` negotiated and the resources it subscribed to. Every process reads it, so any
 * Lambda invocation answers any request of a session. It expires by `ttl`; readers treat an
 * expired item as gone. `version` orders concurrent subscription changes (a conditional update).
 */

const sessionKey = (k: { session_id: string }) => ({ pk: `MCPHTTP#${k.session_id}`, sk: 'SESSION' });

/** A subscribed resource: its URI and, for an incident, the entity whose transitions tell it. */
const subscriptionSchema = z.object({ uri: z.string(), entity_id: z.string().optional() });
export type SessionSubscription = z.infer<typeof subscriptionSchema>;

const httpSessionSchema = z.object({
  tenant_id: z.string(),
  key_id: z.string(),
  protocol_version: z.string(),
  /** The client's capabilities from `initialize`, as JSON text. */
  client_capabilities: z.string(),
  subscriptions: z.array(subscriptionSchema),
  created_at: z.string(),
  /** Bumped by every subscription change (the condition of the next). */
  version: z.number().int(),
  ttl: z.number(),
});
export type HttpSessionRecord = z.infer<typeof httpSessionSchema>;

const httpSession = defineItem({
  type: itemType('mcp_http_session'),
  schema: httpSessionSchema,
  key: sessionKey,
  keyOf: null,
  ttl: (r) => r.ttl,
  docKey: { session_id: '<session_id>' },
});

/** The session item, or undefined (an unreadable item reads as gone, as an expired one does). */
export async function getHttpSession(
  table: Table,
  sessionId: string,
): Promise<HttpSessionRecord | undefined> {
  const item = await table.get(sessionKey({ session_id: sessionId }), { consistent: true });
  const parsed = item ? httpSessionSchema.safeParse(item) : undefined;
  return parsed?.success ? parsed.data : undefined;
}

/** The put of a new session (its id is random: a clash fails). */
export function httpSessionOpenedOp(sessionId: string, session: HttpSessionRecord): WriteOp {
  return httpSession.putAt({ session_id: sessionId }, session, { kind: 'itemNotExists' });
}

/** Sets the session's subscriptions, if no other change came since `version` was read. */
export function subscriptionsSetOp(
  sessionId: string,
  version: number,
  subscriptions: SessionSubscription[],
): UpdateOp {
  return httpSession.update(
    { session_id: sessionId },
    {
      set: { subscriptions },
      add: { version: 1 },
      condition: { kind: 'compare', attr: 'version', op: '=', value: version },
    },
  );
}

/** Moves the session's expiry later (it stays while it is used), while it exists. */
export function httpSessionKeptOp(sessionId: string, ttl: number): UpdateOp {
  return httpSession.update({ session_id: sessionId }, { ttl, condition: { kind: 'itemExists' } });
}

/** The delete of an ended session. */
export function httpSessionClosedOp(sessionId: string): WriteOp {
  return httpSession.delete({ session_id: sessionId });
}
