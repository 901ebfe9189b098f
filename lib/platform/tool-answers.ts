import type { CallToolResult } from '@modelcontextprotocol/server';
import * as z from 'zod';
import { AppError, ValidationError } from './errors.ts';

/*
 * What the built-in tools answer (./mcp-tool.ts is what they are): results, a text block a model
 * reads and the same data as structuredContent (always an object); how their texts name things;
 * and the paging of the tools that read several lists.
 */

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

/**
 * How tool texts name things (docs/mcp.md "Names in tool answers"): an entity by its name and
 * address, `DB (service/db)`, since the entity tools take blueprint_slug and entity_slug; a check,
 * a maintenance window, an action or a channel by its name in quotes. Ids never appear in the
 * summary line: they are in the data that follows it (and in structuredContent) for follow-up calls.
 */

/** `Name (blueprint/slug)`. */
export const entityWords = (e: { name: string; blueprint_slug: string; slug: string }) =>
  `${e.name} (${e.blueprint_slug}/${e.slug})`;

/** `Name (blueprint/slug, state)`. */
export const entityWithState = (e: { name: string; blueprint_slug: string; slug: string; state: string }) =>
  `${e.name} (${e.blueprint_slug}/${e.slug}, ${e.state})`;

/** At most `max` of `names`, joined, and how many more there are. */
export function someOf(names: readonly string[], max = 10): string {
  const shown = names.slice(0, max).join(', ');
  return names.length > max ? `${shown} and ${names.length - max} more` : shown;
}

/**
 * Paging for the tools that read several lists one after another (get_status_summary: the down,
 * degraded, unknown and up lists of the state index; search_entities: names, then slugs). The
 * tool's cursor names the list it stopped in and that list's own cursor (sealed by the store's
 * paging, so it cannot be forged to point into another tenant's partition: the list's own opening
 * checks it). Pages are bounded in items and in the bytes they add to the answer.
 */

/** One answer's bound: the whole JSON-RPC answer stays under 50 KB with this much for the items. */
export const ANSWER_ITEM_BYTES = 44_000;

const cursorSchema = z.object({ l: z.number().int().min(0).max(16), c: z.string().max(2048).nullable() });

/** Where a page starts: the list's number and its own cursor (null: its start). */
export interface ListPosition {
  list: number;
  cursor: string | null;
}

/** The tool cursor of a position. */
export function encodeListCursor(at: ListPosition): string {
  return Buffer.from(JSON.stringify({ l: at.list, c: at.cursor })).toString('base64url');
}

/** The position of a tool cursor (the first list's start without one); a malformed one is a 400-style tool error. */
export function decodeListCursor(cursor: string | undefined, lists: number): ListPosition {
  if (cursor === undefined) return { list: 0, cursor: null };
  try {
    const parsed = cursorSchema.parse(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')));
    if (parsed.l < lists) return { list: parsed.l, cursor: parsed.c };
  } catch {
    // falls through to the error below
  }
  throw ValidationError.field('cursor', 'invalid cursor: pass the next_cursor of the previous answer');
}

/**
 * How many of `items` (in order) fit in `budget` bytes of answer (their structured and text
 * copies); at least one when `atLeastOne` (a page always moves on), at most all of them.
 */
export function countThatFit(items: readonly unknown[], budget: number, atLeastOne: boolean): number {
  let used = 0;
  for (const [i, item] of items.entries()) {
    used += answerBytes(item) + 2;
    if (used > budget) return i === 0 && atLeastOne ? 1 : i;
  }
  return items.length;
}

/** One list of a multi-list page: a read of up to `limit` items after its own cursor. */
export interface PagedList<T> {
  read(limit: number, cursor: string | null): Promise<{ items: T[]; next_cursor: string | null }>;
  /** Known to be empty without reading it (get_status_summary: a state the counters say is). */
  isEmpty?(): boolean;
}

/**
 * A page of up to `limit` items from `lists` read in order from `start`, within
 * ANSWER_ITEM_BYTES of answer (at least one item, so a page always moves on). When the bytes run
 * out inside a read, the same read is repeated cut where they did, for the cursor after it (a
 * list's cursors are its own: the position after an arbitrary item is not ours to make).
 */
export async function readLists<T>(
  lists: readonly PagedList<T>[],
  start: ListPosition,
  limit: number,
): Promise<{ items: T[]; next: ListPosition | null }> {
  const items: T[] = [];
  let bytes = 0;
  const after = (list: number) => (list + 1 < lists.length ? { list: list + 1, cursor: null } : null);
  for (let list = start.list; list < lists.length; list += 1) {
    const cursor = list === start.list ? start.cursor : null;
    const source = lists[list];
    if (!source || (cursor === null && source.isEmpty?.())) continue;
    const room = limit - items.length;
    if (room === 0) return { items, next: { list, cursor } };
    const read = await source.read(room, cursor);
    const fit = countThatFit(read.items, ANSWER_ITEM_BYTES - bytes, items.length === 0);
    if (fit < read.items.length) {
      if (fit === 0) return { items, next: { list, cursor } };
      const cut = await source.read(fit, cursor);
      items.push(...cut.items);
      // No cursor after the cut: the rest of the list went meanwhile; the next list follows.
      return { items, next: cut.next_cursor ? { list, cursor: cut.next_cursor } : after(list) };
    }
    items.push(...read.items);
    bytes += read.items.reduce((sum, item) => sum + answerBytes(item) + 2, 0);
    if (read.next_cursor) return { items, next: { list, cursor: read.next_cursor } };
  }
  return { items, next: null };
}
