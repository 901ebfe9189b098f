import type { Clock } from '../platform/clock.ts';
import { isoTime } from '../platform/clock.ts';
import { isId, newId } from '../platform/ids.ts';
import type { Table } from '../store/table.ts';
import { getOauthClient, oauthClientPutOp } from './client-items.ts';
import { type ClientInfo, isMetadataUrl } from './client-metadata.ts';

export interface ClientDeps {
  table: Table;
  clock: Clock;
  /** Client ID Metadata Documents (lib/oauth/client-metadata.ts). */
  fetchMetadata(url: string): Promise<ClientInfo | undefined>;
}

/** The clients the authorize and token endpoints know: registered ones (`ocl_…`) and metadata-document URLs. */
export function createClients(deps: ClientDeps) {
  return {
    /** The client a client_id names, or undefined (unknown, or a document that did not pass). */
    async resolve(clientId: string): Promise<ClientInfo | undefined> {
      if (isId('ocl', clientId)) return getOauthClient(deps.table, clientId);
      if (isMetadataUrl(clientId)) return deps.fetchMetadata(clientId);
      return undefined;
    },

    /** Registers a public client (RFC 7591); redirect URIs were checked by the route's schema. */
    async register(input: { client_name?: string | undefined; redirect_uris: string[] }) {
      const now = deps.clock.now();
      const client = {
        client_id: newId('ocl', now),
        client_name: input.client_name ?? 'MCP client',
        redirect_uris: input.redirect_uris,
        created_at: isoTime(now),
      };
      await deps.table.transact([oauthClientPutOp(client)]);
      return { client, issuedAt: Math.floor(now / 1000) };
    },
  };
}

export type Clients = ReturnType<typeof createClients>;
