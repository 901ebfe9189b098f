import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import type { Principal } from '../domain/principal.ts';
import type { Clock } from '../platform/clock.ts';
import { isoTime } from '../platform/clock.ts';
import { NotFoundError } from '../platform/errors.ts';
import { ConditionFailedError, MAX_TRANSACTION_OPS, type Table } from '../store/table.ts';
import {
  getRelaySession,
  listRelayMessages,
  messagesQueuedOps,
  messagesReservedOp,
  messagesTakenOps,
  parseRelaySession,
  sessionClosedOp,
  sessionOpenedOp,
} from './relay-items.ts';

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
    const item = await getRelaySession(table, sessionId);
    if (!item || item.ttl <= nowSeconds()) return undefined;
    return {
      id: sessionId,
      tenantId: item.tenant_id,
      keyId: item.key_id,
      createdAt: item.created_at,
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
        sessionOpenedOp(session.id, {
          tenant_id: session.tenantId,
          key_id: session.keyId,
          created_at: session.createdAt,
          seq: 0,
          ttl: session.ttl,
        }),
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
        last = parseRelaySession(await table.update(messagesReservedOp(session.id, messages.length))).seq;
      } catch (err) {
        // The stream ended (and removed the session) while this POST ran.
        if (err instanceof ConditionFailedError) throw new NotFoundError('session');
        throw err;
      }
      const first = last - messages.length + 1;
      const puts = messagesQueuedOps(
        session.id,
        first,
        messages.map((message) => JSON.stringify(message)),
        session.ttl,
      );
      for (const group of chunks(puts, MAX_TRANSACTION_OPS)) await table.transact(group);
      wakes.emit(session.id);
    },

    /** Takes the queued messages in order, removing them (at most one query page per call). */
    async take(sessionId: string): Promise<JSONRPCMessage[]> {
      const queued = await listRelayMessages(table, sessionId, MAX_TRANSACTION_OPS);
      if (queued.length === 0) return [];
      await table.transact(
        messagesTakenOps(
          sessionId,
          queued.map((m) => m.seq),
        ),
      );
      return queued.map((m) => JSON.parse(m.message) as JSONRPCMessage);
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
      await table.transact([sessionClosedOp(sessionId)]);
    },
  };
}

export type McpRelay = ReturnType<typeof createMcpRelay>;
