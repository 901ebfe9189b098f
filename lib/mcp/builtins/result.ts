import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { AppError } from '../../platform/errors.ts';

/** Tool results: a text block a model reads and the same data as structuredContent (always an object). */

/** A successful result: `summary` as text, followed by the data as JSON so a model without structured output sees it too. */
export function toolResult(summary: string, data: Record<string, unknown>): CallToolResult {
  return {
    content: [{ type: 'text', text: `${summary}\n${JSON.stringify(data, null, 2)}` }],
    structuredContent: data,
  };
}

/** A tool error the model can read and act on (MCP `isError`), not a protocol error. */
export function toolError(message: string, details?: unknown[]): CallToolResult {
  return {
    content: [{ type: 'text', text: message }],
    structuredContent: { error: message, ...(details ? { details } : {}) },
    isError: true,
  };
}

/**
 * Runs a tool body; the client errors of the services (not found, validation, limits, conflicts)
 * become isError results carrying their code and message, anything else stays a failure.
 */
export async function asToolResult(body: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await body();
  } catch (err) {
    if (err instanceof AppError && err.expose) {
      const details = err.details?.map((d) => `${d.path}: ${d.message}`);
      return toolError(`${err.code}: ${err.message}`, details);
    }
    throw err;
  }
}
