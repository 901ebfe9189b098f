import { JSONRPCMessageSchema, JSONRPCResponseSchema } from '@modelcontextprotocol/core';
import * as z from 'zod';

/** The 2025-era transport's batch cap (the SDK's own, which it does not export). */
const MAX_BATCH_SIZE = 100;

/**
 * What /v1/mcp exchanges, for the OpenAPI document: the SDK's own JSON-RPC schemas (the ones its
 * transport parses with), a batch of them, and the JSON-RPC error object the transport and the
 * route answer with instead of the API's `{error, code}` envelope.
 */

/** A POST body: one JSON-RPC message, or a batch of 1 to MAX_BATCH_SIZE. */
export const mcpRequestBody = z
  .union([JSONRPCMessageSchema, z.array(JSONRPCMessageSchema).min(1).max(MAX_BATCH_SIZE)])
  .meta({ description: 'A JSON-RPC 2.0 message (MCP), or a batch of them as a JSON array' });

/** A 200 answer: the response to the one request, or an array of responses to a batch. */
export const mcpResponseBody = z
  .union([JSONRPCResponseSchema, z.array(JSONRPCResponseSchema)])
  .meta({ description: 'The JSON-RPC response, or an array of responses for a batch' });

/** A JSON-RPC error, as the transport answers a request it cannot take (the request's id, or null). */
const jsonRpcErrorBody = z
  .strictObject({
    jsonrpc: z.literal('2.0'),
    error: z.object({ code: z.int(), message: z.string(), data: z.unknown().optional() }),
    id: z.union([z.string(), z.number(), z.null()]),
  })
  .meta({ id: 'JsonRpcError', description: 'A JSON-RPC 2.0 error object' });

/** An error response of an MCP route's document: answered as a JSON-RPC error, not the API's envelope. */
export const rpcError = (description: string) => ({ description, schema: jsonRpcErrorBody });
