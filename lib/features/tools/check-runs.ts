import { checkNameOf } from '../../check-types/check-name.ts';
import type { BuiltinTool } from '../../platform/mcp-tool.ts';
import { optionalString, positiveInt, READS, requiredString } from '../../platform/mcp-tool.ts';
import {
  asToolResult,
  decodeListCursor,
  encodeListCursor,
  readLists,
  toolResult,
} from '../../platform/tool-answers.ts';
import type { PushToolDeps } from './deps.ts';
import { pushCheckPageInput } from './schemas.ts';

/**
 * get_check_runs (issue 78): GET /v1/checks/{id}/runs and /normal for agents: a push check's runs
 * newest first, paged (a run's log excerpt redacted for read-only principals, as the API does),
 * with its learned normal, and a summary in words: the newest run, the flagged ones on the page,
 * and the normal's band. The check is looked up first in the caller's tenant (another tenant's is
 * not found); a pull check has no runs (a conflict, as in the API).
 */

const RUN_LIMITS = { defaultLimit: 20, maxLimit: 100 } as const;

/** "4 min 50 s": a duration in words for the summary. */
function took(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  return s % 60 === 0 ? `${m} min` : `${m} min ${s % 60} s`;
}

export const getCheckRuns: BuiltinTool<PushToolDeps> = {
  name: 'get_check_runs',
  offer: {
    toolset: 'check-ops',
    order: 70,
    version: '1.1.0',
    description:
      "A push check's runs (a /start to its end), newest first and paged: start, end, duration, outcome (success, fail, exit, running, hung, missed), exit status, run id, log excerpt and flags (too_short, too_long, overlap, early, hung, anomalous_duration, anomalous_start), with the learned normal (duration and start-offset percentiles, and whether it flags runs yet).",
    inputSchema: pushCheckPageInput,
  },
  annotations: { title: 'Check runs', ...READS },
  handler: (deps, caller, args) =>
    asToolResult(async () => {
      const checkId = requiredString(args, 'check_id');
      const check = await deps.checkService.requireCheck(caller.tenantId, checkId);
      const limit = positiveInt(args, 'limit', RUN_LIMITS.defaultLimit, RUN_LIMITS.maxLimit);
      const page = await readLists(
        [
          {
            async read(room, cursor) {
              const read = await deps.runLog.page(caller, checkId, {
                limit: room,
                ...(cursor ? { cursor } : {}),
              });
              return { items: read.runs, next_cursor: read.next_cursor };
            },
          },
        ],
        decodeListCursor(optionalString(args, 'cursor'), 1),
        limit,
      );
      const normal = await deps.runLog.normal(caller, checkId);
      const entity = `${check.blueprint_slug}/${check.entity_slug}`;
      const owner = await deps.entityStore.getById(caller.tenantId, check.entity_id);
      const about = `Runs of "${checkNameOf(check)}" of ${owner?.name ?? entity} (${entity})`;
      const newest = page.items[0];
      const newestWords = newest
        ? ` Newest: ${newest.outcome}${newest.duration_ms !== null ? ` in ${took(newest.duration_ms)}` : ''}${newest.started_at ? `, started ${newest.started_at}` : newest.ended_at ? `, at ${newest.ended_at}` : ''}${newest.flags.length ? ` (${newest.flags.join(', ')})` : ''}.`
        : '';
      const flagged = page.items.filter((r) => r.flags.length > 0).length;
      const flaggedWords = flagged ? ` ${flagged} flagged on this page.` : '';
      const band = normal.duration;
      const normalWords = band
        ? ` Normal: ${took(band.p5_ms)}–${took(band.p95_ms)} over ${normal.runs_seen} runs${normal.active ? '' : ' (learning: not flagging yet)'}.`
        : ' Normal: none learned yet.';
      const more = page.next ? ' More: pass next_cursor as cursor.' : '';
      return toolResult(
        `${about}: ${page.items.length ? `${page.items.length}, newest first.` : 'none.'}${newestWords}${flaggedWords}${normalWords}${more}`,
        {
          check_id: checkId,
          runs: page.items,
          normal,
          next_cursor: page.next ? encodeListCursor(page.next) : null,
        },
        { compact: true },
      );
    }),
};
