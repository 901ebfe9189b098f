import { JSONRPCMessageSchema } from '@modelcontextprotocol/core';
import { isJSONRPCRequest, type JSONRPCMessage, type RequestId } from '@modelcontextprotocol/server';

/**
 * JSON-RPC bodies and answers as every MCP transport reads and writes them (the streamable
 * endpoint, the listen stream, the legacy SSE pair): the floor of lib/mcp's protocol parts, so
 * they share it without importing each other.
 */

/**
 * A JSON-RPC error answer: to the request `id` when the refused body was one request, otherwise
 * (a body that is not a message, a batch, a GET) with no request id.
 */
export function jsonRpcErrorResponse(
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
  id: RequestId | null = null,
) {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id }), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

/** The id of the one JSON-RPC request a body holds, or null (a batch, a notification, not JSON-RPC). */
export function requestIdOf(raw: Buffer | undefined): RequestId | null {
  if (raw === undefined || raw.length === 0) return null;
  const messages = parseMessages(raw);
  const [message] = messages ?? [];
  return messages?.length === 1 && message !== undefined && isJSONRPCRequest(message) ? message.id : null;
}

/** The body of a legacy POST: one JSON-RPC message or a batch; `undefined` when it is neither. */
export function parseMessages(raw: Buffer): JSONRPCMessage[] | undefined {
  let json: unknown;
  try {
    json = JSON.parse(raw.toString('utf8'));
  } catch {
    return undefined;
  }
  const list = Array.isArray(json) ? json : [json];
  const parsed: JSONRPCMessage[] = [];
  for (const entry of list) {
    const result = JSONRPCMessageSchema.safeParse(entry);
    if (!result.success) return undefined;
    parsed.push(result.data);
  }
  return parsed.length > 0 ? parsed : undefined;
}
