import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { Principal } from '../../domain/principal.ts';
import type { Clock } from '../../platform/clock.ts';
import { isoTime } from '../../platform/clock.ts';
import { ConditionFailedError, type Table } from '../../store/table.ts';
import {
  getHttpSession,
  type HttpSessionRecord,
  httpSessionClosedOp,
  httpSessionKeptOp,
  httpSessionOpenedOp,
  type SessionSubscription,
  subscriptionsSetOp,
} from './session-items.ts';

/** A session unused this long expires (each use moves its expiry later). */
const SESSION_IDLE_SECONDS = 3600;
/** At most this many resources subscribed on one session (as on one `subscriptions/listen` stream). */
export const MAX_SESSION_SUBSCRIPTIONS = 100;
/** Tries of a subscription change that meets another's (two POSTs of one session at once). */
const CHANGE_TRIES = 5;

/** 32 random bytes, base64url: visible ASCII, as the transport spec asks, and not guessable. */
const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;

/** A Streamable HTTP session (2025-era revisions) as stored. */
export interface McpSession {
  id: string;
  tenantId: string;
  keyId: string;
  protocolVersion: string;
  clientCapabilities: Record<string, unknown>;
  subscriptions: SessionSubscription[];
  version: number;
  ttl: number;
}

function sessionOf(id: string, r: HttpSessionRecord): McpSession {
  let capabilities: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(r.client_capabilities);
    if (parsed !== null && typeof parsed === 'object') capabilities = parsed as Record<string, unknown>;
  } catch {
    // An unreadable value reads as no capabilities.
  }
  return {
    id,
    tenantId: r.tenant_id,
    keyId: r.key_id,
    protocolVersion: r.protocol_version,
    clientCapabilities: capabilities,
    subscriptions: r.subscriptions,
    version: r.version,
    ttl: r.ttl,
  };
}

/** Why a subscription change did not apply. */
export type SubscriptionRefusal = 'gone' | 'full';

/**
 * MCP Streamable HTTP sessions (docs/mcp.md "Sessions"), kept in the table so any process answers
 * any request of one: opened by `initialize`, found again by id for the caller that opened it only
 * (another key's, another tenant's, an expired or unknown one is none), ended by DELETE or by
 * `SESSION_IDLE_SECONDS` unused. In one process, an ended session's streams hear it at once; in
 * another, their next look at the item finds it gone.
 */
export function createMcpSessions(deps: { table: Table; clock: Clock }) {
  const { table, clock } = deps;
  const ends = new EventEmitter();
  ends.setMaxListeners(0);
  const nowSeconds = () => Math.floor(clock.now() / 1000);

  const load = async (caller: Principal, id: string): Promise<McpSession | undefined> => {
    if (!SESSION_ID.test(id)) return undefined;
    const record = await getHttpSession(table, id);
    if (!record || record.ttl <= nowSeconds()) return undefined;
    if (record.tenant_id !== caller.tenantId || record.key_id !== caller.keyId) return undefined;
    return sessionOf(id, record);
  };

  /** Applies `change` to the session's subscriptions, again when another change came between. */
  const change = async (
    caller: Principal,
    id: string,
    next: (current: SessionSubscription[]) => SessionSubscription[] | 'full',
  ): Promise<SubscriptionRefusal | undefined> => {
    for (let attempt = 0; attempt < CHANGE_TRIES; attempt++) {
      const session = await load(caller, id);
      if (!session) return 'gone';
      const subscriptions = next(session.subscriptions);
      if (subscriptions === 'full') return 'full';
      try {
        await table.update(subscriptionsSetOp(id, session.version, subscriptions));
        return undefined;
      } catch (err) {
        if (!(err instanceof ConditionFailedError)) throw err;
      }
    }
    throw new Error('an MCP session whose subscriptions keep changing');
  };

  return {
    /** Opens a session for the caller with what `initialize` negotiated; answers its id. */
    async open(
      caller: Principal,
      negotiated: { protocolVersion: string; clientCapabilities: Record<string, unknown> },
    ): Promise<string> {
      const id = randomBytes(32).toString('base64url');
      await table.transact([
        httpSessionOpenedOp(id, {
          tenant_id: caller.tenantId,
          key_id: caller.keyId,
          protocol_version: negotiated.protocolVersion,
          client_capabilities: JSON.stringify(negotiated.clientCapabilities),
          subscriptions: [],
          created_at: isoTime(clock.now()),
          version: 0,
          ttl: nowSeconds() + SESSION_IDLE_SECONDS,
        }),
      ]);
      return id;
    },

    /**
     * The caller's session by id, or undefined; `keep` moves its expiry later when half of it
     * has passed (a used session stays, at most one write per half hour).
     */
    async find(
      caller: Principal,
      id: string,
      options: { keep?: boolean } = {},
    ): Promise<McpSession | undefined> {
      const session = await load(caller, id);
      if (session && options.keep === true && session.ttl - nowSeconds() < SESSION_IDLE_SECONDS / 2) {
        const ttl = nowSeconds() + SESSION_IDLE_SECONDS;
        try {
          await table.update(httpSessionKeptOp(id, ttl));
          session.ttl = ttl;
        } catch (err) {
          if (!(err instanceof ConditionFailedError)) throw err;
          return undefined;
        }
      }
      return session;
    },

    /** Adds a subscription (a URI already subscribed is kept once); 'full' past MAX_SESSION_SUBSCRIPTIONS. */
    subscribe(caller: Principal, id: string, subscription: SessionSubscription) {
      return change(caller, id, (current) => {
        if (current.some((s) => s.uri === subscription.uri)) return current;
        if (current.length >= MAX_SESSION_SUBSCRIPTIONS) return 'full';
        return [...current, subscription];
      });
    },

    /** Removes a subscription (one not held is nothing to remove). */
    unsubscribe(caller: Principal, id: string, uri: string) {
      return change(caller, id, (current) => current.filter((s) => s.uri !== uri));
    },

    /** Ends the caller's session: false when it has none by that id. Its streams end too. */
    async close(caller: Principal, id: string): Promise<boolean> {
      if (!(await load(caller, id))) return false;
      await table.transact([httpSessionClosedOp(id)]);
      ends.emit(id);
      return true;
    },

    /** Calls `listener` when this process ends the session; answers the unsubscribe. */
    onEnd(id: string, listener: () => void): () => void {
      ends.once(id, listener);
      return () => ends.off(id, listener);
    },
  };
}

export type McpSessions = ReturnType<typeof createMcpSessions>;

/** The transport spec's answer to a request of an unknown, ended or another caller's session: the client initializes again. */
export function sessionNotFound(): Response {
  const error = { code: -32001, message: 'Session not found: send initialize again' };
  return new Response(JSON.stringify({ jsonrpc: '2.0', error, id: null }), {
    status: 404,
    headers: { 'content-type': 'application/json' },
  });
}
