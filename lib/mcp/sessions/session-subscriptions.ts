import {
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
  type Server,
} from '@modelcontextprotocol/server';
import type { Principal } from '../../domain/principal.ts';
import type { ResourceDeps } from '../resources/reader.ts';
import { isSubscribable, parseResourceUri } from '../resources/uris.ts';
import { MAX_SESSION_SUBSCRIPTIONS, type McpSessions } from './sessions.ts';

/** The session a request belongs to, and where its subscriptions are kept. */
export interface SessionScope {
  sessions: McpSessions;
  sessionId: string;
  incidents: ResourceDeps['incidents'];
}

/** JSON-RPC's implementation-defined range: the session ended while the request ran (the client re-initializes). */
const SESSION_GONE = -32001;

/**
 * `resources/subscribe` and `resources/unsubscribe` (2025-era revisions) on a session: the URIs are
 * kept on the session item, and the session's GET stream tells `notifications/resources/updated`
 * for them (session-stream.ts). As `subscriptions/listen`, only entities and incidents can be
 * subscribed to; an incident is resolved now (another tenant's is not found), its entity's
 * transitions tell it, and so do its own changes (acknowledged, a note, resolved).
 */
export function serveSubscriptions(server: Server, caller: Principal, scope: SessionScope): void {
  const refused = (answer: 'gone' | 'full' | undefined) => {
    if (answer === 'gone') throw new ProtocolError(SESSION_GONE, 'the session has ended: initialize again');
    if (answer === 'full')
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `at most ${MAX_SESSION_SUBSCRIPTIONS} resources can be subscribed to on one session: unsubscribe from one first`,
      );
    return {};
  };
  server.setRequestHandler('resources/subscribe', async (request) => {
    const { uri } = request.params;
    const address = parseResourceUri(uri);
    if (address === undefined || !isSubscribable(address))
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        'only vigil://entities/… and vigil://incidents/… can be subscribed to',
      );
    let entityId: string | undefined;
    if (address.kind === 'incident') {
      const incident = await scope.incidents.get(caller, address.id).catch(() => undefined);
      if (!incident) throw new ResourceNotFoundError(uri);
      entityId = incident.entity_id;
    }
    return refused(
      await scope.sessions.subscribe(caller, scope.sessionId, {
        uri,
        ...(entityId === undefined ? {} : { entity_id: entityId }),
      }),
    );
  });
  server.setRequestHandler('resources/unsubscribe', async (request) =>
    refused(await scope.sessions.unsubscribe(caller, scope.sessionId, request.params.uri.slice(0, 256))),
  );
}
