import * as z from 'zod';
import { REDACTED, redactUrl } from '../../domain/redaction.ts';
import { idSchema, timestampSchema } from '../../http/route-schemas.ts';
import { pick } from '../../platform/pick.ts';
import { ACTION_METHODS, type ActionRecord, TRIGGER_STATES, TRIGGER_TYPES } from '../items/action-items.ts';
import {
  DISPATCH_STATUSES,
  type ExecutionRecord,
  type LogLine,
  PIPELINE_STATUSES,
} from '../items/execution-items.ts';

/**
 * Public views of actions and executions. Header values are write-only: every response shows
 * `********` for each (their names show). For read-only keys the URL's credentials and
 * secret-looking query values read `********` too (lib/domain/redaction/url-redaction.ts). An execution
 * never shows its callback token's hash.
 */

export { REDACTED };

export const publicActionSchema = z
  .strictObject({
    id: idSchema('act'),
    name: z.string(),
    url: z.string().meta({
      description:
        'For read-only keys, userinfo and secret-looking query values (token, key, secret, password, sig, ...) read ********',
    }),
    method: z.enum(ACTION_METHODS),
    headers: z.record(z.string(), z.literal(REDACTED)).meta({ description: 'Every value reads ********' }),
    body_template: z.string(),
    trigger_type: z.enum(TRIGGER_TYPES),
    check_id: z.string().nullable(),
    trigger_to_state: z.enum(TRIGGER_STATES).nullable().meta({ description: 'null: any target state' }),
    interval_seconds: z.number().int().nullable(),
    timeout_ms: z.number().int(),
    pipeline_timeout_seconds: z.number().int(),
    next_run_at: timestampSchema.nullable().meta({ description: 'schedule actions: the next run' }),
    created_at: timestampSchema,
    updated_at: timestampSchema,
  })
  .meta({ id: 'Action' });

/** The action as responses show it: each header value `********`; for read-only keys the URL's secrets too. */
export function publicAction(
  action: ActionRecord,
  options: { readOnly: boolean },
): z.output<typeof publicActionSchema> {
  return {
    id: action.id,
    name: action.name,
    url: options.readOnly ? redactUrl(action.url) : action.url,
    method: action.method,
    headers: Object.fromEntries(Object.keys(action.headers).map((name) => [name, REDACTED])),
    body_template: action.body_template,
    trigger_type: action.trigger_type,
    check_id: action.check_id,
    trigger_to_state: action.trigger_to_state,
    interval_seconds: action.interval_seconds,
    timeout_ms: action.timeout_ms,
    pipeline_timeout_seconds: action.pipeline_timeout_seconds,
    next_run_at: action.next_run_at,
    created_at: action.created_at,
    updated_at: action.updated_at,
  };
}

export const publicExecutionSchema = z
  .strictObject({
    id: idSchema('exe'),
    action_id: idSchema('act'),
    trigger: z.enum(TRIGGER_TYPES),
    dispatch_status: z.enum(DISPATCH_STATUSES).meta({ description: 'success means HTTP 2xx' }),
    status_code: z.number().int().nullable(),
    latency_ms: z.number().int().nullable(),
    response_snippet: z.string().nullable().meta({ description: 'The first 4 KB of the response body' }),
    error_message: z.string().nullable(),
    pipeline_status: z
      .enum(PIPELINE_STATUSES)
      .nullable()
      .meta({ description: 'null until the pipeline reports; the last write wins' }),
    transition_id: z.string().nullable(),
    vars: z.record(z.string(), z.string()),
    callback_expires_at: timestampSchema.nullable(),
    created_at: timestampSchema,
    updated_at: timestampSchema,
  })
  .meta({ id: 'ActionExecution' });

/** The execution as responses show it (DECISIONS.md "Actions"): no token hash, no deadline internals. */
export function publicExecution(execution: ExecutionRecord): z.output<typeof publicExecutionSchema> {
  return pick(execution, [
    'id',
    'action_id',
    'trigger',
    'dispatch_status',
    'status_code',
    'latency_ms',
    'response_snippet',
    'error_message',
    'pipeline_status',
    'transition_id',
    'vars',
    'callback_expires_at',
    'created_at',
    'updated_at',
  ]);
}

export const executionsPageSchema = z
  .strictObject({
    executions: z.array(publicExecutionSchema),
    next_cursor: z
      .string()
      .nullable()
      .meta({ description: 'Pass as `cursor` for the next page; null on the last page' }),
  })
  .meta({ id: 'ActionExecutionPage' });

export const publicLogLineSchema = z
  .strictObject({
    seq: z.number().int().meta({ description: '1 to 1000, in report order' }),
    line: z.string(),
    at: timestampSchema,
  })
  .meta({ id: 'ActionLogLine' });

/** A reported log line as responses show it. */
export function publicLogLine(line: LogLine): z.output<typeof publicLogLineSchema> {
  return { seq: line.seq, line: line.line, at: line.at };
}
