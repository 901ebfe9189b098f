/**
 * The Lambda runtime's `awslambda` global as the streaming functions (functions/mcp.ts,
 * functions/status-stream.ts) read it when their module loads: imported for its effect, before
 * them, by a helper that loads one (test/mcp/mcp-runtimes.ts). It passes the handler and the
 * stream through, as the runtime does for a response-streaming function URL.
 */
Object.assign(globalThis, {
  awslambda: {
    streamifyResponse: (handler: unknown) => handler,
    HttpResponseStream: { from: (stream: unknown) => stream },
  },
});
