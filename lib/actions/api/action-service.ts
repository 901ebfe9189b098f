import { requestTarget } from '../../domain/formats.ts';
import { unredactedUrl } from '../../domain/redaction.ts';
import { egressRefusal } from '../../egress/egress-advice.ts';
import { ConnectionError, EgressDeniedError, InvalidUrlError } from '../../egress/egress-errors.ts';
import { checkUrl, type Resolve } from '../../egress/egress-guard.ts';
import { type Clock, isoTime } from '../../platform/clock.ts';
import type { Runtime } from '../../platform/config.ts';
import {
  type ErrorDetail,
  LimitExceededError,
  NotFoundError,
  ValidationError,
} from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import type { PageRequest } from '../../store/paging.ts';
import { ACTION_LIMITS, type ActionRecord } from '../items/action-items.ts';
import type { ActionStore } from '../items/action-store.ts';
import type { ExecutionRecord } from '../items/execution-items.ts';
import type { ExecutionStore } from '../items/execution-store.ts';
import { templatesOrigin } from '../runs/origin.ts';
import type { CreateActionBody, EventsBody, UpdateActionBody } from './request-schemas.ts';
import { REDACTED } from './responses.ts';

/** Update attempts when another write changed the action between the read and the conditional put. */
const UPDATE_ATTEMPTS = 5;

export interface ActionServiceDeps {
  actions: ActionStore;
  executions: ExecutionStore;
  /** Whether a check exists in the tenant (a state_change action's check_id). */
  checkExists(tenantId: string, checkId: string): Promise<boolean>;
  clock: Clock;
  /** VIGIL_EGRESS_ALLOW: CIDRs exempt from the SSRF guard (metadata addresses never are). */
  egressAllow: readonly string[];
  /** Which runtime's setting a refused URL names (VIGIL_EGRESS_ALLOW, or the cloud's deployment setting); local by default. */
  runtime?: Runtime;
  resolve?: Resolve | undefined;
}

/** The rules across fields: what each trigger type requires and forbids. */
function triggerIssues(action: ActionRecord): ErrorDetail[] {
  const issues: ErrorDetail[] = [];
  const forbid = (path: string, present: boolean) => {
    if (present)
      issues.push({
        path,
        message: `Only a ${triggerOf(path).replace('_', ' ')} action has this; leave it empty.`,
      });
  };
  if (action.trigger_type === 'state_change') {
    if (!action.check_id)
      issues.push({ path: 'check_id', message: 'Choose the check whose changes run this action.' });
  } else {
    forbid('check_id', action.check_id !== null);
    forbid('trigger_to_state', action.trigger_to_state !== null);
  }
  if (action.trigger_type === 'schedule') {
    if (action.interval_seconds === null)
      issues.push({ path: 'interval_seconds', message: 'Enter how often a scheduled action runs.' });
  } else {
    forbid('interval_seconds', action.interval_seconds !== null);
  }
  return issues;
}

const triggerOf = (path: string) => (path === 'interval_seconds' ? 'schedule' : 'state_change');

/**
 * The actions API: CRUD with the limits, the create-time SSRF check and header redaction, the
 * execution history, and the pipeline write-back (status and log lines). Callers have been
 * authorised by the routes; every lookup is scoped to the caller's tenant (another's is 404).
 */
export function createActionService(deps: ActionServiceDeps) {
  const { actions, executions, clock } = deps;

  const requireAction = async (tenantId: string, actionId: string): Promise<ActionRecord> => {
    const action = await actions.get(tenantId, actionId);
    if (!action) throw new NotFoundError('action');
    return action;
  };

  /** The URL must be http(s); a host without placeholders must resolve to allowed addresses now. */
  const checkDestination = async (url: string): Promise<void> => {
    if (templatesOrigin(url)) return;
    try {
      await checkUrl(url, { allowPrivate: false, allow: deps.egressAllow, resolve: deps.resolve });
    } catch (err) {
      if (err instanceof EgressDeniedError)
        throw ValidationError.field('url', egressRefusal(err, deps.runtime ?? 'local'));
      if (err instanceof ConnectionError || err instanceof InvalidUrlError)
        throw ValidationError.field('url', err.message);
      throw err;
    }
  };

  /** Validates a whole action (create, or after merging an update) before it is stored. */
  const validate = async (tenantId: string, action: ActionRecord): Promise<void> => {
    const issues = triggerIssues(action);
    if (issues.length > 0) throw new ValidationError('invalid trigger settings', issues);
    if (action.check_id && !(await deps.checkExists(tenantId, action.check_id)))
      throw new NotFoundError('check');
    if (templatesOrigin(action.url) && Object.keys(action.headers).length > 0)
      throw ValidationError.field(
        'url',
        'an action with headers cannot take its scheme, host or port from a {{placeholder}}: headers are sent only to the origin they were stored with (placeholders may fill the path, query and body)',
      );
    await checkDestination(action.url);
  };

  /** A schedule's next run: kept while the interval is unchanged, else one interval from now. */
  const nextRunAt = (action: ActionRecord, previous: ActionRecord | undefined, nowMs: number) => {
    if (action.trigger_type !== 'schedule' || action.interval_seconds === null) return null;
    const unchanged =
      previous?.trigger_type === 'schedule' &&
      previous.interval_seconds === action.interval_seconds &&
      previous.next_run_at !== null;
    return unchanged ? previous.next_run_at : isoTime(nowMs + action.interval_seconds * 1000);
  };

  const requireExecution = async (tenantId: string, executionId: string): Promise<ExecutionRecord> => {
    const execution = await executions.get(executionId);
    if (!execution || execution.tenant_id !== tenantId) throw new NotFoundError('execution');
    return execution;
  };

  return {
    /** Every action of the tenant, oldest first. */
    list(tenantId: string): Promise<ActionRecord[]> {
      return actions.list(tenantId);
    },

    /** One action of the tenant (404 otherwise). */
    get: requireAction,

    /** Creates an action (403 LIMIT_EXCEEDED past ACTION_LIMITS.actionsPerTenant). */
    async create(tenantId: string, body: CreateActionBody): Promise<ActionRecord> {
      const nowMs = clock.now();
      const now = isoTime(nowMs);
      const action: ActionRecord = {
        id: newId('act', nowMs),
        tenant_id: tenantId,
        name: body.name,
        url: writtenUrl(body.url, null),
        method: body.method,
        headers: body.headers,
        body_template: body.body_template,
        trigger_type: body.trigger_type,
        check_id: body.check_id ?? null,
        trigger_to_state: body.trigger_to_state ?? null,
        interval_seconds: body.interval_seconds ?? null,
        timeout_ms: body.timeout_ms,
        pipeline_timeout_seconds: body.pipeline_timeout_seconds,
        next_run_at: null,
        created_at: now,
        updated_at: now,
        version: 1,
      };
      action.next_run_at = nextRunAt(action, undefined, nowMs);
      await validate(tenantId, action);
      if ((await actions.create(action)) === 'limit')
        throw new LimitExceededError(`a tenant has at most ${ACTION_LIMITS.actionsPerTenant} actions`);
      return action;
    },

    /**
     * Updates the given fields; a header value of `********` keeps the stored value of that header.
     * A new URL (origin, path or query) or method clears the stored header values: only headers
     * given again in full are kept.
     */
    async update(tenantId: string, actionId: string, patch: UpdateActionBody): Promise<ActionRecord> {
      for (let attempt = 0; attempt < UPDATE_ATTEMPTS; attempt += 1) {
        const stored = await requireAction(tenantId, actionId);
        const url = patch.url === undefined ? stored.url : writtenUrl(patch.url, stored.url);
        // Header values were given for one request: a new URL (origin, path or query) or method keeps none.
        const moved =
          requestTarget(stored.url) !== requestTarget(url) ||
          (patch.method !== undefined && patch.method !== stored.method);
        const kept = moved ? {} : stored.headers;
        const headers = patch.headers ? keepRedacted(patch.headers, kept, moved) : kept;
        const nowMs = clock.now();
        const { headers: _h, ...rest } = patch;
        const next: ActionRecord = {
          ...stored,
          ...definedOnly(rest),
          url,
          headers,
          updated_at: isoTime(nowMs),
          version: stored.version + 1,
        };
        // Switching away from a trigger type drops what only that type has, unless it was named.
        if (next.trigger_type !== 'state_change') {
          if (patch.check_id === undefined) next.check_id = null;
          if (patch.trigger_to_state === undefined) next.trigger_to_state = null;
        }
        if (next.trigger_type !== 'schedule' && patch.interval_seconds === undefined)
          next.interval_seconds = null;
        next.next_run_at = nextRunAt(next, stored, nowMs);
        await validate(tenantId, next);
        if (await actions.update(next, stored.version)) return next;
      }
      throw new Error(`action ${actionId} kept changing during the update`);
    },

    /** Deletes an action; its executions go in bounded rounds after (404 when it is gone). */
    async remove(tenantId: string, actionId: string): Promise<void> {
      if (!(await actions.remove(tenantId, actionId))) throw new NotFoundError('action');
    },

    /** A page of the action's executions, newest first. */
    async listExecutions(tenantId: string, actionId: string, page: PageRequest) {
      await requireAction(tenantId, actionId);
      return executions.listForAction(actionId, page);
    },

    /** One execution of the tenant (404 otherwise). */
    getExecution: requireExecution,

    /**
     * Reports pipeline events against an execution the caller may write to (the route checked the
     * tenant or the callback token): the lines first (all or none; 409 LOG_LIMIT), then the status.
     */
    async report(execution: ExecutionRecord, body: EventsBody): Promise<ExecutionRecord> {
      const now = isoTime(clock.now());
      if (body.logs && body.logs.length > 0 && !(await executions.appendLogs(execution.id, body.logs, now)))
        throw new NotFoundError('execution');
      if (body.status) {
        const updated = await executions.setPipelineStatus(execution.id, body.status, now);
        if (!updated) throw new NotFoundError('execution');
        return updated;
      }
      return (await executions.get(execution.id)) ?? execution;
    },

    /** The execution's reported log lines, in order. */
    async logs(tenantId: string, executionId: string) {
      await requireExecution(tenantId, executionId);
      return executions.readLogs(executionId);
    },
  };
}

/** The new header set, each value `********` replaced by the stored value of the same header. */
function keepRedacted(
  next: Record<string, string>,
  stored: Record<string, string>,
  moved: boolean,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(next)) {
    if (value !== REDACTED) {
      out[name] = value;
      continue;
    }
    const kept =
      stored[name] ??
      Object.entries(stored).find(([storedName]) => storedName.toLowerCase() === name.toLowerCase())?.[1];
    if (kept === undefined)
      throw ValidationError.field(
        `headers.${name}`,
        moved
          ? `${REDACTED} cannot keep a stored value when the url (origin, path or query) or method changes: stored values are sent only to the request they were given for; give the value again`
          : `${REDACTED} keeps a stored value, but there is none`,
      );
    out[name] = kept;
  }
  return out;
}

/** The URL a write stores: an echo of the read-only view keeps the stored URL; another `********` is a 400. */
function writtenUrl(given: string, stored: string | null): string {
  const url = unredactedUrl(given, stored);
  if (url === undefined)
    throw ValidationError.field(
      'url',
      `${REDACTED} stands for a hidden part of the stored URL: send the URL back unchanged or give it in full`,
    );
  return url;
}

/** The entries of `patch` that were given (undefined means "keep"). */
function definedOnly<T extends object>(patch: T): Partial<T> {
  return Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) as Partial<T>;
}

export type ActionService = ReturnType<typeof createActionService>;
