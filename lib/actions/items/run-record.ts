import { REDACTED } from '../../domain/redaction.ts';
import { isoTime } from '../../platform/clock.ts';
import type { DispatchFields, ExecutionRecord } from './execution-items.ts';
import type { RunRequest } from './ports.ts';

/** The outcome of the one outbound call, before it becomes a record. */
export interface Dispatch {
  dispatch_status: ExecutionRecord['dispatch_status'];
  status_code: number | null;
  latency_ms: number | null;
  response_snippet: string | null;
  error_message: string | null;
  /** Whether anything may have reached the endpoint (so a pipeline may report back). */
  sent: boolean;
}

/** A manual run's record before its send (issue 36): the callback token is about to leave Vigil. */
export const RUNNING: Dispatch = {
  dispatch_status: 'running',
  status_code: null,
  latency_ms: null,
  response_snippet: null,
  error_message: null,
  sent: true,
};

/** What an execution stopped mid-send says: nobody can tell whether the endpoint got the request. */
export const INTERRUPTED_MESSAGE =
  'interrupted: Vigil stopped while the request was in flight; the endpoint may or may not have received it';

/**
 * How long a `running` record may be before it reads `interrupted`: longer than any send can take
 * (ACTION_LIMITS.timeoutMs.max, 15 s, plus the request's own time and margin). A process that died
 * mid-send (kill -9, a Lambda timeout) never completed it, and no stop marked it.
 */
export const RUNNING_AT_MOST_MS = 60_000;

/** The record as read at `nowMs`: a `running` one older than RUNNING_AT_MOST_MS reads `interrupted`. */
export function settledRunning(record: ExecutionRecord, nowMs: number): ExecutionRecord {
  if (record.dispatch_status !== 'running') return record;
  if (nowMs - Date.parse(record.created_at) <= RUNNING_AT_MOST_MS) return record;
  return { ...record, dispatch_status: 'interrupted', error_message: INTERRUPTED_MESSAGE };
}

/** An outcome where nothing left Vigil: refused before sending. */
export function notSent(status: 'blocked' | 'failed', message: string): Dispatch {
  return {
    dispatch_status: status,
    status_code: null,
    latency_ms: null,
    response_snippet: null,
    error_message: message,
    sent: false,
  };
}

/** One run's record from its send's outcome; `nowMs` is when the run started. */
export function executionOf(
  run: {
    request: RunRequest;
    nowMs: number;
    vars: Record<string, string>;
    callback: { token: string; hash: string; expiresAt: string };
  },
  outcome: Dispatch,
): ExecutionRecord {
  const { request, nowMs, callback } = run;
  const { sent, ...dispatch } = outcome;
  const now = isoTime(nowMs);
  return {
    id: request.executionId,
    tenant_id: request.action.tenant_id,
    action_id: request.action.id,
    trigger: request.trigger,
    ...dispatch,
    pipeline_status: null,
    transition_id: request.event?.transition_id ?? null,
    vars: storedVars(run.vars, callback.token),
    // A token that never left Vigil authorises nothing: only a sent request gets one.
    callback_token_hash: sent ? callback.hash : null,
    callback_expires_at: sent ? callback.expiresAt : null,
    pipeline_deadline_at:
      sent && outcome.dispatch_status !== 'running'
        ? isoTime(nowMs + request.action.pipeline_timeout_seconds * 1000)
        : null,
    log_count: 0,
    created_at: now,
    updated_at: now,
  };
}

/** The fields of `record` its send decided (what completes a record stored before the send). */
export function dispatchFieldsOf(record: ExecutionRecord, nowMs: number): DispatchFields {
  return {
    dispatch_status: record.dispatch_status,
    status_code: record.status_code,
    latency_ms: record.latency_ms,
    response_snippet: record.response_snippet,
    error_message: record.error_message,
    callback_token_hash: record.callback_token_hash,
    callback_expires_at: record.callback_expires_at,
    pipeline_deadline_at: record.pipeline_deadline_at,
    updated_at: isoTime(nowMs),
  };
}

/** The variables as stored: the callback token is a secret and never kept. */
function storedVars(vars: Record<string, string>, token: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(vars))
    out[name] = name === 'callback_token' ? REDACTED : value.replaceAll(token, REDACTED);
  return out;
}
