import {
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  type RequestId,
  type Transport,
} from '@modelcontextprotocol/server';
import type { Principal } from '../domain/principal.ts';
import { SSE_HEADERS, sseStream } from '../http/router.ts';
import type { Clock } from '../platform/clock.ts';
import { RateLimitedError } from '../platform/errors.ts';
import type { Logger } from '../platform/logger.ts';
import { type StreamSlots, takeStreamSlot } from '../streams/stream-slots.ts';
import { jsonRpcErrorResponse } from './json-rpc.ts';
import type { McpCatalog } from './ports.ts';
import { createMcpServer } from './protocol/server.ts';
import type { McpRelay } from './relay.ts';
import type { ResourceDeps } from './resources/reader.ts';

/** How long a legacy stream lives: it ends (with its session) and the client reconnects to a new one. */
export interface LegacyStreamSettings {
  /** The stream ends after this long (the client reconnects); 0: it runs until the client leaves. */
  maxDurationMs: number;
  /** The stream ends when it had no answer to deliver for this long (an idle session); 0: never. */
  idleMs: number;
  /** How often the stream looks for messages queued by another process. */
  pollMs: number;
  /** A `: keep-alive` comment this often. */
  heartbeatMs: number;
}

/** A held stream costs the server a connection and a poll: none lives forever, an idle one ends sooner. */
export const DEFAULT_LEGACY_STREAM: LegacyStreamSettings = {
  maxDurationMs: 15 * 60_000,
  idleMs: 5 * 60_000,
  pollMs: 150,
  heartbeatMs: 15_000,
};

/**
 * Runs client messages through a fresh server for `caller` and returns what the server answered
 * (one response per request; notifications get none), as the relay queues them. The server serves
 * what the other transports serve, resources included (the app views a tool such as `show_status`
 * names are read as resources); only subscriptions are not, as no stream of this transport tells them.
 */
export async function exchange(
  catalog: McpCatalog,
  resources: ResourceDeps,
  caller: Principal,
  messages: JSONRPCMessage[],
): Promise<JSONRPCMessage[]> {
  const server = createMcpServer(catalog, caller, {}, { deps: resources, subscribe: false }, '2025');
  const out: JSONRPCMessage[] = [];
  const answered = new Map<RequestId, () => void>();
  const transport: Transport = {
    start: async () => {},
    send: async (message) => {
      out.push(message);
      if (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) {
        if (message.id !== undefined) answered.get(message.id)?.();
      }
    },
    close: async () => {
      transport.onclose?.();
    },
  };
  await server.connect(transport);
  try {
    const waits: Promise<void>[] = [];
    for (const message of messages) {
      if (isJSONRPCRequest(message)) waits.push(new Promise((resolve) => answered.set(message.id, resolve)));
      transport.onmessage?.(message);
    }
    await Promise.all(waits);
  } finally {
    await server.close();
  }
  return out;
}

export interface LegacyStreamDeps {
  relay: McpRelay;
  /** Open streams per key and per tenant (429 past the cap). */
  slots: StreamSlots;
  clock: Clock;
  logger: Logger;
  settings: LegacyStreamSettings;
}

/** JSON-RPC's implementation-defined server error range: the code of a refused stream (429). */
const RATE_LIMITED_RPC = -32000;

/**
 * The 2024-11-05 SSE stream of a new session: the `endpoint` event first, then every answer the
 * session's POSTs queued, as `message` events in order. The session ends with the stream: after
 * `maxDurationMs`, after `idleMs` without an answer, or when the client leaves. Past the caller's
 * open-stream caps: 429 with Retry-After and a JSON-RPC error body, as this route's 401.
 */
export async function openLegacyStream(deps: LegacyStreamDeps, caller: Principal): Promise<Response> {
  const { relay, clock, settings } = deps;
  let slot: Awaited<ReturnType<typeof takeStreamSlot>>;
  try {
    slot = await takeStreamSlot(deps.slots, 'mcp_sse', caller);
  } catch (err) {
    if (!(err instanceof RateLimitedError)) throw err;
    return jsonRpcErrorResponse(429, RATE_LIMITED_RPC, err.message, err.headers);
  }
  let session: Awaited<ReturnType<McpRelay['open']>>;
  try {
    session = await relay.open(caller);
  } catch (err) {
    await slot.release();
    throw err;
  }
  const limit = (ms: number) => (ms > 0 ? ms : Number.POSITIVE_INFINITY);
  const deadline = clock.now() + limit(settings.maxDurationMs);
  let activeAt = clock.now();
  const body = sseStream(
    async (sink) => {
      sink.send({ event: 'endpoint', data: `/v1/mcp?sessionId=${session.id}` });
      try {
        while (!sink.signal.aborted) {
          const messages = await relay.take(session.id);
          if (messages.length > 0) activeAt = clock.now();
          for (const message of messages) sink.send({ event: 'message', data: JSON.stringify(message) });
          await sink.ready();
          const left = Math.min(deadline, activeAt + limit(settings.idleMs)) - clock.now();
          if (left <= 0) break;
          await relay.wait(session.id, Math.min(settings.pollMs, left), sink.signal);
        }
      } finally {
        try {
          await relay.close(session.id);
        } finally {
          await slot.release();
        }
      }
    },
    { heartbeatMs: settings.heartbeatMs, logger: deps.logger },
  );
  return new Response(body, { status: 200, headers: SSE_HEADERS });
}
