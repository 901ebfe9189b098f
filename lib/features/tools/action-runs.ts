import { publicExecution, publicLogLine } from '../../actions/api.ts';
import type { ActionStore, ExecutionStore } from '../../actions/stores.ts';
import type { ToolKitDeps } from '../../catalog/entities.ts';
import { NotFoundError } from '../../platform/errors.ts';
import { isId } from '../../platform/ids.ts';
import type { BuiltinTool } from '../../platform/mcp-tool.ts';
import { pageLimit, positiveInt, READS, requiredString } from '../../platform/mcp-tool.ts';
import {
  ANSWER_ITEM_BYTES,
  answerBytes,
  asToolResult,
  countThatFit,
  toolResult,
} from '../../platform/tool-answers.ts';

/**
 * get_action_run: one execution of an action (an action run) as GET
 * /v1/actions/{id}/executions and GET /v1/actions/executions/{exec_id}/logs show it: the dispatch
 * outcome, the pipeline status its pipeline reported, and the log lines it reported, after
 * `after_seq`, at most `limit` of them and ANSWER_ITEM_BYTES of them (the answer stays under
 * 50 KB; `next_after_seq` continues). Reads: the execution record (one get), its action (one get)
 * and its log lines (at most 1,000, one partition). Another tenant's execution is NOT_FOUND, as
 * over the API. The execution is the API's public view (the callback token's hash never shows;
 * the response snippet was stored with the action's header values and token already replaced by
 * ********); of the action only its id, name and trigger show, never its URL, headers or body.
 */

const ACTION_RUN_LIMITS = { defaultLines: 200, maxLines: 1000 } as const;

/** What get_action_run takes, bound by the actions' mount: executions (any tenant's: the tool checks the caller's) and their log lines, and the actions. */
type ActionRunToolDeps = ToolKitDeps & {
  executions: Pick<ExecutionStore, 'get' | 'readLogs'>;
  actions: Pick<ActionStore, 'get'>;
};

export const getActionRun: BuiltinTool<ActionRunToolDeps> = {
  name: 'get_action_run',
  offer: {
    toolset: 'config-ops',
    order: 40,
    version: '1.0.0',
    description:
      'One run of an action (an execution): dispatch outcome, the pipeline status its pipeline reported, and its log lines.',
    inputSchema: {
      type: 'object',
      properties: {
        execution_id: { type: 'string', description: 'The execution (exe_…)' },
        after_seq: {
          type: 'integer',
          minimum: 0,
          maximum: 1000,
          default: 0,
          description: 'Log lines after this one',
        },
        limit: pageLimit(200, 1000),
      },
      required: ['execution_id'],
      additionalProperties: false,
    },
  },
  annotations: { title: 'Get action run', ...READS },
  handler: (deps, caller, args) =>
    asToolResult(async () => {
      const executionId = requiredString(args, 'execution_id');
      const record = isId('exe', executionId) ? await deps.executions.get(executionId) : undefined;
      if (!record || record.tenant_id !== caller.tenantId) throw new NotFoundError('execution');
      const afterSeq = typeof args.after_seq === 'number' && args.after_seq > 0 ? args.after_seq : 0;
      const limit = positiveInt(args, 'limit', ACTION_RUN_LIMITS.defaultLines, ACTION_RUN_LIMITS.maxLines);
      const [action, lines] = await Promise.all([
        deps.actions.get(caller.tenantId, record.action_id),
        deps.executions.readLogs(executionId),
      ]);
      const after = lines.filter((line) => line.seq > afterSeq).map(publicLogLine);
      const execution = publicExecution(record);
      const about = action ? { id: action.id, name: action.name, trigger_type: action.trigger_type } : null;
      // The record and the action take their share of the answer first; the lines get the rest.
      const room = ANSWER_ITEM_BYTES - answerBytes({ execution, action: about });
      const wanted = after.slice(0, limit);
      const logs = wanted.slice(0, countThatFit(wanted, room, true));
      const last = logs.at(-1);
      const more = logs.length < after.length && last !== undefined;
      const name = action ? `"${action.name}"` : '(deleted)';
      const pipeline = execution.pipeline_status ?? 'not reported';
      const summary =
        `Run of action ${name} at ${execution.created_at} (${execution.trigger}): dispatch ${execution.dispatch_status}` +
        `${execution.status_code !== null ? ` (HTTP ${execution.status_code})` : ''}, pipeline ${pipeline}; ` +
        `${logs.length} log line(s)${more ? `, more after seq ${last.seq}` : ''}.`;
      return toolResult(
        summary,
        {
          execution,
          action: about,
          logs,
          next_after_seq: more ? last.seq : null,
        },
        { compact: true },
      );
    }),
};
