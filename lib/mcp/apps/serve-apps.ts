import { ResourceNotFoundError, type Server } from '@modelcontextprotocol/server';
import type { Principal } from '../../domain/principal.ts';
import type { AppResources } from '../ports.ts';

/**
 * resources/list and resources/read of the app views for one caller's server. A URI that is not a
 * view of this caller (another's, or a tool it does not have) is not found (the SDK's ResourceNotFoundError: -32602).
 */
export function serveAppResources(server: Server, apps: AppResources, caller: Principal): void {
  server.setRequestHandler('resources/list', async () => ({ resources: await apps.list(caller) }));
  server.setRequestHandler('resources/read', async (request) => {
    const result = await apps.read(caller, request.params.uri);
    if (!result) throw new ResourceNotFoundError(request.params.uri);
    return result;
  });
}
