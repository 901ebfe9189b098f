import { z } from 'zod';

/**
 * Stored shapes of actions and executions (SPEC.md "Action", "Action execution"; DECISIONS.md
 * "Actions"), parsed on every read. Public views and redaction: responses.ts.
 */

export const ACTION_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export const TRIGGER_TYPES = ['manual', 'state_change', 'schedule'] as const;
export const TRIGGER_STATES = ['down', 'degraded', 'up'] as const;
export const DISPATCH_STATUSES = ['success', 'failed', 'blocked'] as const;
export const PIPELINE_STATUSES = ['queued', 'running', 'succeeded', 'failed'] as const;
export type PipelineStatus = (typeof PIPELINE_STATUSES)[number];

/** SPEC.md "Limits". */
export const ACTION_LIMITS = {
  actionsPerTenant: 50,
  headers: 20,
  bodyTemplateBytes: 16 * 1024,
  minIntervalSeconds: 60,
  timeoutMs: { min: 100, max: 15_000, default: 10_000 },
  responseSnippetBytes: 4 * 1024,
  logLinesPerRequest: 100,
  logLinesPerExecution: 1000,
  logLineBytes: 2 * 1024,
  executionsPage: { default: 50, max: 200 },
  pipelineTimeoutSeconds: { default: 3600 },
  callbackTokenSeconds: 24 * 3600,
} as const;

export const actionSchema = z.object({
  id: z.string(),
  tenant_id: z.string(),
  name: z.string(),
  url: z.string(),
  method: z.enum(ACTION_METHODS),
  /** Stored in full; every response shows `********` for each value. */
  headers: z.record(z.string(), z.string()),
  body_template: z.string(),
  trigger_type: z.enum(TRIGGER_TYPES),
  check_id: z.string().nullable(),
  /** null: any target state. */
  trigger_to_state: z.enum(TRIGGER_STATES).nullable(),
  interval_seconds: z.number().int().nullable(),
  timeout_ms: z.number().int(),
  pipeline_timeout_seconds: z.number().int(),
  /** schedule actions: the next slot (the due index keys on it); null otherwise. */
  next_run_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  /** Bumped by every write (optimistic updates; a claim of a stale schedule slot fails). */
  version: z.number().int(),
});
export type ActionRecord = z.infer<typeof actionSchema>;

export const executionSchema = z.object({
  id: z.string(),
  tenant_id: z.string(),
  action_id: z.string(),
  trigger: z.enum(TRIGGER_TYPES),
  dispatch_status: z.enum(DISPATCH_STATUSES),
  status_code: z.number().int().nullable(),
  latency_ms: z.number().int().nullable(),
  /** The first 4 KB of the response body. */
  response_snippet: z.string().nullable(),
  error_message: z.string().nullable(),
  /** null until the pipeline reports; the last write wins. */
  pipeline_status: z.enum(PIPELINE_STATUSES).nullable(),
  transition_id: z.string().nullable(),
  /** The variables the templates were filled with (manual `vars` included). */
  vars: z.record(z.string(), z.string()),
  /** SHA-256 (hex) of the execution's callback token; the token itself is never stored. */
  callback_token_hash: z.string().nullable(),
  callback_expires_at: z.string().nullable(),
  /** When a queued or running pipeline status turns failed (dispatch + pipeline_timeout_seconds). */
  pipeline_deadline_at: z.string().nullable(),
  log_count: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type ExecutionRecord = z.infer<typeof executionSchema>;

export const logLineSchema = z.object({ seq: z.number().int(), line: z.string(), at: z.string() });
export type LogLine = z.infer<typeof logLineSchema>;
