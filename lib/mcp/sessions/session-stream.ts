import type { Principal } from '../../domain/principal.ts';
import { SSE_HEADERS, type SseSink, sseStream } from '../../http/router.ts';
import type { Logger } from '../../platform/logger.ts';
import type { FollowChanges } from '../../status/stream-follow.ts';
import type { LiveChange } from '../../status/stream-hub.ts';
import { STREAM_RETRY_AFTER_SECONDS, type StreamSlots } from '../../streams/stream-slots.ts';
import { jsonRpcErrorResponse } from '../json-rpc.ts';
import { resourceUri } from '../resources/uris.ts';
import type { SessionSubscription } from './session-items.ts';
import { type McpSessions, sessionNotFound } from './sessions.ts';

export interface SessionStreamDeps {
  sessions: McpSessions;
  /** The console live stream's follower of entity transitions and incident changes (lib/status/stream-follow.ts). */
  follow: FollowChanges;
  /** Open streams per key and per tenant, a kind of their own (`mcp_session`). */
  slots: StreamSlots;
  /** A stream ends after this long (a Lambda's timeout); the client opens it again. */
  maxDurationMs: number;
  /** A `: keep-alive` comment this often. */
  heartbeatMs: number;
  /** How often an open stream looks whether its session still is (another process may end it). */
  checkMs: number;
  logger: Logger;
}

/** How long the client waits before opening the stream again once it ended (the `retry` field). */
const RECONNECT_MS = 2000;

/** The URIs a change tells to a session subscribed to `subscriptions`. */
function updatedUris(change: LiveChange, subscriptions: SessionSubscription[]): string[] {
  if (change.kind === 'incident') {
    const incident = resourceUri({ kind: 'incident', id: change.incident.incident_id });
    return subscriptions.filter((s) => s.uri === incident).map((s) => s.uri);
  }
  const t = change.transition;
  const entity =
    t.blueprint_slug !== undefined && t.entity_slug !== undefined
      ? resourceUri({ kind: 'entity', blueprint: t.blueprint_slug, slug: t.entity_slug })
      : undefined;
  return subscriptions
    .filter((s) => (s.entity_id === undefined ? s.uri === entity : s.entity_id === t.entity_id))
    .map((s) => s.uri);
}

/**
 * GET /v1/mcp with Mcp-Session-Id (2025-era Streamable HTTP): the session's server-to-client
 * stream. Each entity transition and incident change of the caller's tenant (the follower the
 * console's live stream and `subscriptions/listen` use) is matched against the session's
 * subscriptions as the table holds them now (a subscribe answered by another process counts), and
 * each subscribed URI it touches is told as `notifications/resources/updated`: an entity's and its
 * incidents' on a transition, an incident's when it is acknowledged, noted or resolved. The stream holds a slot of the key's and the tenant's
 * caps (429 past them) and ends after `maxDurationMs`, when the session ends, when the session
 * opens another (which takes its slots), or when the client leaves.
 */
export function createSessionStream(deps: SessionStreamDeps) {
  const { sessions, logger } = deps;
  return async (caller: Principal, sessionId: string, accept: string | undefined): Promise<Response> => {
    if (!accept?.includes('text/event-stream'))
      return jsonRpcErrorResponse(406, -32000, 'Not Acceptable: the client must accept text/event-stream');
    if (!(await sessions.find(caller, sessionId, { keep: true }))) return sessionNotFound();
    // The session names the stream's client: its next stream takes this one's slots over and ends
    // it, so a session has one stream and no change is told twice.
    const answer = await deps.slots.acquire('mcp_session', {
      tenantId: caller.tenantId,
      keyId: caller.keyId,
      client: sessionId,
    });
    if ('refused' in answer)
      return jsonRpcErrorResponse(
        429,
        -32000,
        `too many open session streams for this ${answer.refused === 'key' ? 'API key' : 'account'}`,
        { 'Retry-After': String(STREAM_RETRY_AFTER_SECONDS) },
      );
    const { slot } = answer;

    const produce = async (sink: SseSink) => {
      // A first frame at once, so the head goes out now (a proxy may hold it until a body byte).
      sink.send({ retry: RECONNECT_MS });
      const ended = new AbortController();
      const offEnd = sessions.onEnd(sessionId, () => ended.abort());
      const stop = AbortSignal.any([
        sink.signal,
        slot.replaced,
        ended.signal,
        AbortSignal.timeout(deps.maxDurationMs),
      ]);
      // The session is read again for each change, in order: its subscriptions may have changed.
      let told = Promise.resolve();
      const tell = (change: LiveChange) => {
        told = told
          .then(async () => {
            const session = await sessions.find(caller, sessionId);
            if (!session) return ended.abort();
            for (const uri of updatedUris(change, session.subscriptions))
              sink.send({
                event: 'message',
                data: JSON.stringify({
                  jsonrpc: '2.0',
                  method: 'notifications/resources/updated',
                  params: { uri },
                }),
              });
          })
          .catch((error) => logger.warn('mcp session stream could not tell a change', { error }));
      };
      const check = setInterval(() => {
        void sessions
          .find(caller, sessionId)
          .then((session) => session ?? ended.abort())
          .catch(() => undefined);
      }, deps.checkMs);
      try {
        await deps.follow(caller.tenantId, stop, tell);
        await told;
      } finally {
        clearInterval(check);
        offEnd();
        await slot.release();
      }
    };
    const body = sseStream(produce, { heartbeatMs: deps.heartbeatMs, logger });
    return new Response(body, { status: 200, headers: { ...SSE_HEADERS, 'mcp-session-id': sessionId } });
  };
}
