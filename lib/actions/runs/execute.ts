import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { type HttpTransport, httpRequest } from '../../egress/egress.ts';
import { connectionFailureText, egressRefusal } from '../../egress/egress-advice.ts';
import {
  ConnectionError,
  EgressDeniedError,
  EgressError,
  InvalidUrlError,
} from '../../egress/egress-errors.ts';
import type { Resolve } from '../../egress/egress-guard.ts';
import { undiciRequest } from '../../egress/undici-client.ts';
import type { Clock } from '../../platform/clock.ts';
import { isoTime } from '../../platform/clock.ts';
import type { Runtime } from '../../platform/config.ts';
import { ValidationError } from '../../platform/errors.ts';
import type { Logger } from '../../platform/logger.ts';
import { ACTION_LIMITS } from '../items/action-items.ts';
import type { DispatchFields, ExecutionRecord } from '../items/execution-items.ts';
import type { ActionRunner, RunRequest } from '../items/ports.ts';
import {
  type Dispatch,
  dispatchFieldsOf,
  executionOf,
  INTERRUPTED_MESSAGE,
  notSent,
  RUNNING,
} from '../items/run-record.ts';
import { newCallbackToken } from './callback-token.ts';
import { actionRedactor, redactDispatch } from './execution-redaction.ts';
import { headersRefusal } from './origin.ts';
import { builtInVars, fillBody, fillTemplate } from './template.ts';

/** A send's lease: the action's timeout plus this, so a live sender never loses it mid-request. */
const LEASE_MARGIN_MS = 5_000;
/** How often a caller waiting on another's lease looks for its record. */
const LEASE_POLL_MS = 200;

/** What the runner needs of the execution store: a stored run is answered, a new one written once. */
interface RunnerExecutions {
  get(executionId: string): Promise<ExecutionRecord | undefined>;
  /** false when an execution with this id is already stored. */
  putNew(record: ExecutionRecord): Promise<boolean>;
  /** Takes the lease to send it until `untilMs`; false while another caller holds one. */
  reserve(executionId: string, nowMs: number, untilMs: number): Promise<boolean>;
  /** Completes a record stored before its send (a manual run's) with the send's outcome. */
  complete(executionId: string, fields: DispatchFields): Promise<void>;
  /** Marks a still-running execution interrupted; false when it is no longer running. */
  interrupt(executionId: string, nowIso: string, message: string): Promise<boolean>;
}

/** The runner's dependencies; `egressAllow` is VIGIL_EGRESS_ALLOW, `publicUrl` VIGIL_PUBLIC_URL. */
export interface ActionRunnerDeps {
  executions: RunnerExecutions;
  clock: Clock;
  logger: Logger;
  egressAllow: readonly string[];
  /** Which runtime's setting a blocked run names (VIGIL_EGRESS_ALLOW, or the cloud's deployment setting); local by default. */
  runtime?: Runtime;
  /** Extra trusted CAs (PEM) for HTTPS endpoints. */
  ca?: string[];
  resolve?: Resolve;
  /** The process's kept-alive pools (lib/egress/egress-pool.ts); a fresh connection per send without. */
  transport?: HttpTransport;
  publicUrl?: string;
  /** Called once for each newly stored execution that has a pipeline deadline (success or failed). */
  onDispatched?(execution: ExecutionRecord): Promise<void>;
}

/**
 * Sends one hop and keeps every answer, redirects included, as the final one: httpRequest follows
 * a response only when it carries a Location, so the transport drops that header and keeps the
 * body prefix, and a 3xx is recorded with its snippet instead of being followed.
 */
function noRedirect(transport: HttpTransport): HttpTransport {
  return async (req) => {
    const res = await transport({ ...req, maxBodyBytes: ACTION_LIMITS.responseSnippetBytes });
    const { location: _location, ...headers } = res.headers;
    return { ...res, headers };
  };
}

/** The action runner (ports.ts): templates, the SSRF guard, one send, one stored execution. */
export function createActionRunner(deps: ActionRunnerDeps): ActionRunner {
  const allow = [...deps.egressAllow];
  const noRedirectTransport = noRedirect(deps.transport ?? undiciRequest);

  async function send(request: RunRequest, vars: Record<string, string>): Promise<Dispatch> {
    const { action } = request;
    const url = fillTemplate(action.url, vars);
    // Headers go only to the origin they were stored with: a run elsewhere is refused, not sent bare.
    const refused = headersRefusal(action, url);
    if (refused) return notSent('blocked', `blocked: ${refused}`);
    let filled: ReturnType<typeof fillBody>;
    try {
      filled = fillBody(action.headers, action.body_template, vars, request.vars);
    } catch (err) {
      if (err instanceof ValidationError) return notSent('failed', err.message);
      throw err;
    }
    const { body, headers } = filled;
    const started = performance.now();
    try {
      const res = await httpRequest({
        url,
        method: action.method,
        headers,
        ...(body === undefined ? {} : { body }),
        timeoutMs: action.timeout_ms,
        maxRedirects: 0,
        maxBodyBytes: ACTION_LIMITS.responseSnippetBytes,
        allowPrivate: false,
        allow,
        ...(deps.resolve ? { resolve: deps.resolve } : {}),
        ...(deps.ca ? { ca: deps.ca } : {}),
        transport: noRedirectTransport,
      });
      const success = res.status >= 200 && res.status < 300;
      return {
        dispatch_status: success ? 'success' : 'failed',
        status_code: res.status,
        latency_ms: res.latencyMs,
        response_snippet: res.bodyPrefix.toString('utf8'),
        error_message: success ? null : `the endpoint answered ${res.status}`,
        sent: true,
      };
    } catch (err) {
      return failure(err, Math.round(performance.now() - started), deps.runtime ?? 'local');
    }
  }

  /**
   * A manual run whose body cannot be filled (a `vars` value in a bare JSON position that is not a
   * JSON scalar) is refused before anything is stored: 400 on `vars.<name>`, as for any bad input.
   */
  function checkManualBody(request: RunRequest): void {
    const { action } = request;
    const vars = {
      ...builtInVars(action, request.executionId, deps.clock.now(), request.event, { token: 'vcb_' }),
      ...request.vars,
    };
    fillBody(action.headers, action.body_template, vars, request.vars);
  }

  /**
   * Takes the lease to send (another process may be delivering the same run job: SQS can hand a
   * message to two workers). While another caller holds it, waits for its record; answers that
   * record, or true once the lease is this caller's (also after the holder's lease ran out).
   */
  async function holdLease(request: RunRequest): Promise<ExecutionRecord | true> {
    const { action, executionId } = request;
    const leaseMs = action.timeout_ms + LEASE_MARGIN_MS;
    for (let waited = 0; ; waited += LEASE_POLL_MS) {
      const nowMs = deps.clock.now();
      if (await deps.executions.reserve(executionId, nowMs, nowMs + leaseMs)) return true;
      const stored = await deps.executions.get(executionId);
      if (stored) return stored;
      if (waited >= leaseMs) {
        throw new Error(`execution ${executionId} is being sent by another worker; retrying later`);
      }
      await sleep(LEASE_POLL_MS);
    }
  }

  // Concurrent runs of one id in this process share the first one's send (a redelivery that
  // overlaps the delivery still running); across processes the store's putNew decides the record.
  const inFlight = new Map<string, Promise<ExecutionRecord>>();
  // Manual runs whose request is out now (their record reads `running`).
  const manualInFlight = new Set<string>();

  return {
    run(request) {
      const running = inFlight.get(request.executionId);
      if (running) return running;
      if (request.trigger === 'manual') {
        try {
          checkManualBody(request);
        } catch (err) {
          return Promise.reject(err);
        }
      }
      const started = runOnce(request).finally(() => inFlight.delete(request.executionId));
      inFlight.set(request.executionId, started);
      return started;
    },
    async interruptInFlight() {
      const nowIso = isoTime(deps.clock.now());
      let marked = 0;
      for (const executionId of manualInFlight) {
        if (await deps.executions.interrupt(executionId, nowIso, INTERRUPTED_MESSAGE)) marked += 1;
      }
      if (marked > 0) deps.logger.warn('manual action runs interrupted by the stop', { interrupted: marked });
      return marked;
    },
  };

  async function runOnce(request: RunRequest): Promise<ExecutionRecord> {
    const stored = await deps.executions.get(request.executionId);
    if (stored) return stored;
    const { action, executionId } = request;
    const held = await holdLease(request);
    if (held !== true) return held;
    const nowMs = deps.clock.now();
    const callback = newCallbackToken(executionId, nowMs);
    const vars = {
      ...builtInVars(action, executionId, nowMs, request.event, {
        token: callback.token,
        ...(deps.publicUrl ? { publicUrl: deps.publicUrl } : {}),
      }),
      ...request.vars,
    };
    // Every text the send produced is redacted here, once, before anything is stored.
    const redact = actionRedactor(action, callback.token);
    const dispatched = async () => redactDispatch(await send(request, vars), redact);
    const run = { request, nowMs, vars, callback };
    if (request.trigger === 'manual') {
      // Recorded before it is sent (issue 36): a manual run is never sent without a record, and a
      // stop while it is in flight marks it interrupted (interruptInFlight). Queued runs keep their
      // record-after-send: their job stays queued until the record is stored, and a redelivery sends.
      const pending = executionOf(run, RUNNING);
      if (!(await deps.executions.putNew(pending)))
        return (await deps.executions.get(executionId)) ?? pending;
      manualInFlight.add(executionId);
      let record: ExecutionRecord;
      try {
        record = executionOf(run, await dispatched());
      } finally {
        manualInFlight.delete(executionId);
      }
      const fields = dispatchFieldsOf(record, deps.clock.now());
      await deps.executions.complete(executionId, fields);
      return recorded({ ...record, ...fields });
    }
    const record = executionOf(run, await dispatched());
    if (!(await deps.executions.putNew(record))) {
      // A concurrent run of the same id stored first: its record is the execution.
      return (await deps.executions.get(executionId)) ?? record;
    }
    return recorded(record);
  }

  /** Logs a stored execution and schedules its pipeline deadline. */
  async function recorded(record: ExecutionRecord): Promise<ExecutionRecord> {
    const { action_id, id: executionId } = record;
    deps.logger.info('action executed', {
      action_id,
      execution_id: executionId,
      trigger: record.trigger,
      dispatch_status: record.dispatch_status,
      status_code: record.status_code,
    });
    if (record.pipeline_deadline_at !== null && deps.onDispatched) {
      try {
        await deps.onDispatched(record);
      } catch (err) {
        deps.logger.error('action deadline could not be scheduled', { execution_id: executionId, err });
      }
    }
    return record;
  }
}

/** Why the call did not get an answer: a guard denial is `blocked`, anything else `failed`. */
function failure(err: unknown, elapsedMs: number, runtime: Runtime): Dispatch {
  if (err instanceof EgressDeniedError) return notSent('blocked', `blocked: ${egressRefusal(err, runtime)}`);
  const message =
    err instanceof ConnectionError
      ? connectionFailureText(err)
      : err instanceof Error
        ? err.message
        : String(err);
  if (err instanceof InvalidUrlError) return notSent('failed', message);
  // Node rejects a header it cannot send (a CR or LF in a value) before connecting.
  if (!(err instanceof EgressError)) return notSent('failed', `the request could not be sent: ${message}`);
  return {
    dispatch_status: 'failed',
    status_code: null,
    latency_ms: elapsedMs,
    response_snippet: null,
    error_message: message,
    sent: true,
  };
}
