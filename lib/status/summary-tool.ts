import type { BoardState } from '../catalog/entities.ts';
import type { BuiltinTool } from '../platform/mcp-tool.ts';
import { cursor, optionalString, pageLimit, positiveInt, READS } from '../platform/mcp-tool.ts';
import {
  asToolResult,
  decodeListCursor,
  encodeListCursor,
  entityWords,
  type PagedList,
  readLists,
  someOf,
  toolResult,
} from '../platform/tool-answers.ts';
import type { BoardReads, BoardToolDeps } from './board-reads.ts';

/**
 * get_status_summary: the tenant's counts (its status counters: one read) and a page of its
 * entities, problems first. The page is read from the status board's state index, one state's
 * partition after another (down, degraded, unknown, up; within a state by blueprint and slug, the
 * index's order), so a page costs the counter read, the index entries it shows (plus one) and
 * their entity items, whatever the fleet's size; states the counters say are empty are not read.
 * A page holds at most `limit` entities and ANSWER_ITEM_BYTES of them (paging.ts), so an answer
 * stays under 50 KB; `next_cursor` continues it.
 */

/** The order of the page: problems first. */
const SUMMARY_ORDER = ['down', 'degraded', 'unknown', 'up'] as const satisfies readonly BoardState[];

const SUMMARY_LIMITS = { defaultLimit: 100, maxLimit: 500 } as const;

type Board = Awaited<ReturnType<BoardReads['status']['board']>>;
type Counts = Pick<Board, 'total' | 'up' | 'degraded' | 'down' | 'unknown'>;
type EntityView = Board['entities'][number];

/** get_status_summary: the status board in one sentence, the counts and a page of entities, problems first. */
export const getStatusSummary: BuiltinTool<BoardToolDeps> = {
  name: 'get_status_summary',
  offer: {
    toolset: 'catalog-ops',
    order: 10,
    version: '2.2.0',
    description:
      'Current status of the fleet: counts per state (up, degraded, down, unknown) and a page of entities, problems first (down, degraded, unknown, then up); next_cursor continues.',
    inputSchema: {
      type: 'object',
      properties: { limit: pageLimit(100, 500), cursor },
      additionalProperties: false,
    },
  },
  annotations: { title: 'Status summary', ...READS },
  handler: (deps, caller, args) =>
    asToolResult(async () => {
      const start = decodeListCursor(optionalString(args, 'cursor'), SUMMARY_ORDER.length);
      const limit = positiveInt(args, 'limit', SUMMARY_LIMITS.defaultLimit, SUMMARY_LIMITS.maxLimit);
      // Every board read answers the counts; the first one's tell which states need no read.
      let counts: Counts | undefined;
      const lists = SUMMARY_ORDER.map(
        (state): PagedList<EntityView> => ({
          async read(room, cursor) {
            const board = await deps.status.board(caller.tenantId, {
              state,
              limit: room,
              ...(cursor ? { cursor } : {}),
            });
            counts ??= board;
            return { items: board.entities, next_cursor: board.next_cursor };
          },
          isEmpty: () => counts?.[state] === 0,
        }),
      );
      const page = await readLists(lists, start, limit);
      const { total, up, degraded, down, unknown } =
        counts ?? (await deps.status.board(caller.tenantId, { limit: 1 }));
      const more = page.next
        ? ` Showing ${page.items.length}, problems first; pass next_cursor as cursor for more.`
        : '';
      const problems = (['down', 'degraded'] as const).flatMap((state) => {
        const those = page.items.filter((e) => e.state === state);
        return those.length
          ? [` ${state === 'down' ? 'Down' : 'Degraded'}: ${someOf(those.map(entityWords), 5)}.`]
          : [];
      });
      const summary =
        `${total} entities: ${up} up, ${degraded} degraded, ${down} down, ${unknown} unknown.` +
        `${problems.join('')}${more}`;
      const data = { total, up, degraded, down, unknown, entities: page.items };
      return toolResult(
        summary,
        { ...data, next_cursor: page.next ? encodeListCursor(page.next) : null },
        { compact: true },
      );
    }),
};
