import type { Server } from '@modelcontextprotocol/server';
import type { Principal } from '../../domain/principal.ts';
import type { PromptCatalog } from '../ports.ts';

/** prompts/list and prompts/get of one caller's server (the server declares the prompts capability). */
export function servePrompts(server: Server, prompts: PromptCatalog, caller: Principal): void {
  server.setRequestHandler('prompts/list', async () => ({ prompts: await prompts.list(caller) }));
  server.setRequestHandler('prompts/get', async (request) =>
    prompts.get(caller, request.params.name, request.params.arguments ?? {}),
  );
}
