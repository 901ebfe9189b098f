import { type Server, specTypeSchemas } from '@modelcontextprotocol/server';
import type { Principal } from '../../domain/principal.ts';
import type { PromptCatalog } from '../ports.ts';

/**
 * prompts/list, prompts/get and completion/complete of one caller's server (the server declares
 * the prompts and completions capabilities).
 */
export function servePrompts(server: Server, prompts: PromptCatalog, caller: Principal): void {
  server.setRequestHandler('prompts/list', async () => ({ prompts: await prompts.list(caller) }));
  server.setRequestHandler('prompts/get', async (request) =>
    prompts.get(caller, request.params.name, request.params.arguments ?? {}),
  );
  // With its params schema, so a request missing `ref` or `argument` is -32602 (Invalid params), as
  // the spec says, where the SDK's spec-method form answers -32603.
  server.setRequestHandler(
    'completion/complete',
    { params: specTypeSchemas.CompleteRequestParams },
    async (params) => prompts.complete(caller, params),
  );
}
