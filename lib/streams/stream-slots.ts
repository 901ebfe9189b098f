import { RateLimitedError } from '../platform/errors.ts';

/**
 * Caps on open streams (GET /v1/status/stream, the legacy MCP SSE stream, MCP's subscriptions/listen): a stream holds a slot
 * of its API key and one of its tenant while it is open. In memory in the local runtime (one
 * process holds every stream, so a count is exact); as expiring lease items in the table in the
 * cloud (`store-stream-slots.ts`, over `stream-lease-items.ts`), where every Lambda instance holds
 * streams of its own.
 */

/** Which streams share a cap: each kind is counted on its own. */
export type StreamKind = 'status' | 'mcp_sse' | 'mcp_listen' | 'mcp_session';

/** Open streams allowed per kind; 0: not capped. */
export interface StreamCaps {
  perKey: number;
  perTenant: number;
}

/** Whose stream it is. */
export interface StreamHolder {
  tenantId: string;
  keyId: string;
  /**
   * The opener's own name for its stream (the console sends one per browser). A new stream of the
   * same key and client takes over the slots of the one before it: that client has left it, which
   * the server may not have heard (a function URL never tells a Lambda that its client went away).
   */
  client?: string | undefined;
}

/** One open stream's slots; released when the stream ends (a second release does nothing). */
export interface StreamSlot {
  release(): Promise<void>;
  /** Aborted when a newer stream of the same client took these slots over: the stream should end. */
  replaced: AbortSignal;
}

export type SlotAnswer = { slot: StreamSlot } | { refused: 'key' | 'tenant' };

/** The port: takes slots for one more open stream, or says which cap is reached. */
export interface StreamSlots {
  acquire(kind: StreamKind, holder: StreamHolder): Promise<SlotAnswer>;
}

/**
 * What a refused open tells the client to wait: a slot frees when one of the caller's streams ends,
 * which the server cannot foresee, so a short fixed wait (a cloud stream ends within minutes).
 */
export const STREAM_RETRY_AFTER_SECONDS = 10;

/**
 * Takes the slots of a stream about to open, or throws 429 RATE_LIMITED with Retry-After when the
 * caller's key or tenant holds its cap already.
 */
export async function takeStreamSlot(
  slots: StreamSlots,
  kind: StreamKind,
  holder: StreamHolder,
): Promise<StreamSlot> {
  const answer = await slots.acquire(kind, holder);
  if ('slot' in answer) return answer.slot;
  const whose = answer.refused === 'key' ? 'this API key' : 'this account';
  throw new RateLimitedError(STREAM_RETRY_AFTER_SECONDS, {
    message: `too many open streams for ${whose}: close one or retry later`,
  });
}

/** Slot counts in this process's memory: exact where one process serves every stream (local). */
export function createMemoryStreamSlots(caps: StreamCaps): StreamSlots {
  const open = new Map<string, number>();
  /** The open stream of each named client (`StreamHolder.client`), by kind and key. */
  const ofClient = new Map<string, { slot: StreamSlot; replace: AbortController }>();
  const count = (name: string) => open.get(name) ?? 0;
  const change = (name: string, by: number) => {
    const next = count(name) + by;
    if (next <= 0) open.delete(name);
    else open.set(name, next);
  };
  return {
    async acquire(kind, holder) {
      const key = `${kind}#KEY#${holder.keyId}`;
      const tenant = `${kind}#TENANT#${holder.tenantId}`;
      const client = holder.client === undefined ? undefined : `${key}#${holder.client}`;
      const before = client === undefined ? undefined : ofClient.get(client);
      if (before) {
        before.replace.abort();
        await before.slot.release();
      }
      if (caps.perKey > 0 && count(key) >= caps.perKey) return { refused: 'key' };
      if (caps.perTenant > 0 && count(tenant) >= caps.perTenant) return { refused: 'tenant' };
      change(key, 1);
      change(tenant, 1);
      let released = false;
      const replace = new AbortController();
      const slot: StreamSlot = {
        async release() {
          if (released) return;
          released = true;
          change(key, -1);
          change(tenant, -1);
          if (client !== undefined && ofClient.get(client)?.slot === slot) ofClient.delete(client);
        },
        replaced: replace.signal,
      };
      if (client !== undefined) ofClient.set(client, { slot, replace });
      return { slot };
    },
  };
}
