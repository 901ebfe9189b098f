import type { CallToolResult } from '@modelcontextprotocol/server';
import { AppError } from '../../platform/errors.ts';

/** Tool results: a text block a model reads and the same data as structuredContent (always an object). */

/**
 * A successful result: `summary` as text, followed by the data as JSON so a model without
 * structured output sees it too. `compact` writes that JSON without indentation: the tools whose
 * answers are bounded in bytes (get_status_summary, search_entities, get_action_run) use it.
 */
export function toolResult(
  summary: string,
  data: Record<string, unknown>,
  options: { compact?: boolean } = {},
): CallToolResult {
  const json = options.compact ? JSON.stringify(data) : JSON.stringify(data, null, 2);
  return { content: [{ type: 'text', text: `${summary}\n${json}` }], structuredContent: data };
}

/** The bytes `value` adds to a tool answer: once as structuredContent, once inside the text block (escaped again). */
export function answerBytes(value: unknown): number {
  const json = JSON.stringify(value);
  return Buffer.byteLength(json, 'utf8') + Buffer.byteLength(JSON.stringify(json), 'utf8') - 2;
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
      // The text says what to fix too: many clients show the model the text, not structuredContent.
      const fix = details?.length ? ` (${details.join('; ')})` : '';
      return toolError(`${err.code}: ${err.message}${fix}`, details);
    }
    throw err;
  }
}
