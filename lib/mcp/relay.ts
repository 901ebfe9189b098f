import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Principal } from '../domain/principal.ts';
import type { Clock } from '../platform/clock.ts';
import { isoTime } from '../platform/clock.ts';
import { NotFoundError } from '../platform/errors.ts';
import { stamp } from '../store/item-type.ts';
import { ConditionFailedError, MAX_TRANSACTION_OPS, type Table, type WriteOp } from '../store/table.ts';
import { MCP_MESSAGE_PREFIX, relayKeys, relayTypes } from './relay-keys.ts';

/** A session lives at most this long; a stream ends well before (the client opens a new one). */
export const SESSION_TTL_SECONDS = 3600;

const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A legacy SSE session as stored: whose it is and until when. */
export interface RelaySession {
  id: string;
  tenantId: string;
  keyId: string;
  createdAt: string;
  ttl: number;
}

export interface McpRelayDeps {
  table: Table;
  clock: Clock;
}

function chunks<T>(list: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

/**
 * The table relay of the 2024-11-05 SSE transport. The POSTs of a session and its stream may run
 * in different processes (Lambda invocations), so answers pass through the table: a POST queues
 * them under the session, the stream takes them in order. In one process `wait` is also woken
 * at once when a message is queued; across processes it is the poll interval that finds them.
 */
export function createMcpRelay(deps: McpRelayDeps) {
  const { table, clock } = deps;
  const wakes = new EventEmitter();
  wakes.setMaxListeners(0);
  const nowSeconds = () => Math.floor(clock.now() / 1000);

  const load = async (sessionId: string): Promise<RelaySession | undefined> => {
    if (!SESSION_ID.test(sessionId)) return undefined;
    const item = await table.get(relayKeys.session(sessionId), { consistent: true });
    if (!item || typeof item.ttl !== 'number' || item.ttl <= nowSeconds()) return undefined;
    return {
      id: sessionId,
      tenantId: String(item.tenant_id),
      keyId: String(item.key_id),
      createdAt: String(item.created_at),
      ttl: item.ttl,
    };
  };

  return {
    /** Opens a session for the caller's tenant; its id goes into the stream's `endpoint` event. */
    async open(caller: Principal): Promise<RelaySession> {
      const session: RelaySession = {
        id: randomUUID(),
        tenantId: caller.tenantId,
        keyId: caller.keyId,
        createdAt: isoTime(clock.now()),
        ttl: nowSeconds() + SESSION_TTL_SECONDS,
      };
      await table.transact([
        {
          type: 'put',
          item: {
            ...relayKeys.session(session.id),
            ...stamp(relayTypes.session),
            tenant_id: session.tenantId,
            key_id: session.keyId,
            created_at: session.createdAt,
            seq: 0,
            ttl: session.ttl,
          },
          condition: { kind: 'itemNotExists' },
        },
      ]);
      return session;
    },

    /**
     * The caller's session: opened with the caller's own key. Another key's (even of the same
     * tenant: a read-only key must not post into an admin's session), an expired or an unknown
     * one is 404 alike.
     */
    async sessionOf(caller: Principal, sessionId: string): Promise<RelaySession> {
      const session = await load(sessionId);
      if (!session || session.tenantId !== caller.tenantId || session.keyId !== caller.keyId)
        throw new NotFoundError('session');
      return session;
    },

    /** Queues messages for the session's stream, after any queued before them. */
    async push(session: RelaySession, messages: JSONRPCMessage[]): Promise<void> {
      if (messages.length === 0) return;
      let last: number;
      try {
        const counter = await table.update({
          type: 'update',
          key: relayKeys.session(session.id),
          add: { seq: messages.length },
          condition: { kind: 'itemExists' },
        });
        last = Number(counter.seq);
      } catch (err) {
        // The stream ended (and removed the session) while this POST ran.
        if (err instanceof ConditionFailedError) throw new NotFoundError('session');
        throw err;
      }
      const first = last - messages.length + 1;
      const puts: WriteOp[] = messages.map((message, i) => ({
        type: 'put',
        item: {
          ...relayKeys.message(session.id, first + i),
          ...stamp(relayTypes.message),
          message: JSON.stringify(message),
          ttl: session.ttl,
        },
      }));
      for (const group of chunks(puts, MAX_TRANSACTION_OPS)) await table.transact(group);
      wakes.emit(session.id);
    },

    /** Takes the queued messages in order, removing them (at most one query page per call). */
    async take(sessionId: string): Promise<JSONRPCMessage[]> {
      const page = await table.query({
        pk: relayKeys.messages(sessionId),
        sk: { op: 'beginsWith', prefix: MCP_MESSAGE_PREFIX },
        consistent: true,
        limit: MAX_TRANSACTION_OPS,
      });
      if (page.items.length === 0) return [];
      await table.transact(page.items.map((item) => ({ type: 'delete', key: { pk: item.pk, sk: item.sk } })));
      return page.items.map((item) => JSON.parse(String(item.message)) as JSONRPCMessage);
    },

    /** Resolves after `ms`, when a message is queued in this process, or when `signal` aborts. */
    wait(sessionId: string, ms: number, signal: AbortSignal): Promise<void> {
      if (signal.aborted) return Promise.resolve();
      return new Promise((resolve) => {
        const done = () => {
          clearTimeout(timer);
          wakes.off(sessionId, done);
          signal.removeEventListener('abort', done);
          resolve();
        };
        const timer = setTimeout(done, ms);
        wakes.on(sessionId, done);
        signal.addEventListener('abort', done, { once: true });
      });
    },

    /** Ends a session: later POSTs to it get 404; messages left behind expire with their ttl. */
    async close(sessionId: string): Promise<void> {
      await table.transact([{ type: 'delete', key: relayKeys.session(sessionId) }]);
    },
  };
}

export type McpRelay = ReturnType<typeof createMcpRelay>;
