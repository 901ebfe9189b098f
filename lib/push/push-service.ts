import type { TenantStore } from '../auth/tenants.ts';
import { createTenantCache } from '../auth/tenants.ts';
import type { ResultRecorder } from '../checks/probing.ts';
import { publicResult } from '../checks/records.ts';
import type { CheckService } from '../checks/services.ts';
import type { Clock } from '../platform/clock.ts';
import { ConflictError, NotFoundError, ValidationError } from '../platform/errors.ts';
import type { PushResultBody } from './push-input.ts';

/** How far in the future a pushed checked_at may be (clock skew allowance). */
const MAX_FUTURE_MS = 60_000;

export interface PushServiceDeps {
  checkService: CheckService;
  recorder: ResultRecorder;
  tenants: TenantStore;
  clock: Clock;
}

/** Results and heartbeats pushed by customers' agents: the same state machine and transaction as probes. */
export function createPushService(deps: PushServiceDeps) {
  // The retention window is read from a briefly cached tenant (TENANT_CACHE_MS).
  const tenants = createTenantCache(deps);

  /** The check as the recorder takes it: the run read here saves it a read. */
  const pushCheck = async (tenantId: string, checkId: string) => {
    const run = await deps.checkService.requireRun(tenantId, checkId);
    if (run.definition.execution_mode !== 'push') {
      throw new ConflictError('this is a pull-mode check: the service runs it; results cannot be pushed');
    }
    if (run.definition.check_type !== 'push') {
      throw new ConflictError("this is an outside check: its integration's alerts are its results");
    }
    if (!run.definition.enabled) {
      throw new ConflictError('this check is disabled: enable it to accept results');
    }
    return run;
  };

  const record = async (
    tenantId: string,
    checkId: string,
    input: Omit<Parameters<ResultRecorder['record']>[0], 'tenantId' | 'checkId'>,
  ) => {
    const outcome = await deps.recorder.record({ tenantId, checkId, ...input });
    if (outcome.status === 'gone') throw new NotFoundError('check');
    if (outcome.status !== 'recorded') throw new ConflictError('this result was already recorded');
    return publicResult(outcome.result);
  };

  return {
    /** Records a pushed result after checking checked_at against the allowed window. */
    async pushResult(tenantId: string, checkId: string, body: PushResultBody) {
      const run = await pushCheck(tenantId, checkId);
      const now = deps.clock.now();
      const checkedAtMs = body.checked_at ? Date.parse(body.checked_at) : now;
      if (checkedAtMs > now + MAX_FUTURE_MS) {
        throw ValidationError.field('checked_at', 'Use a time at most 1 minute in the future.');
      }
      const tenant = await tenants.requireTenant(tenantId);
      if (checkedAtMs < now - tenant.retention_days * 86_400_000) {
        throw ValidationError.field(
          'checked_at',
          `Use a time within the retention window (the last ${tenant.retention_days} days).`,
        );
      }
      return record(tenantId, checkId, {
        success: body.success,
        latency_ms: body.latency_ms ?? 0,
        error_message: body.error_message ?? '',
        status_code: body.status_code ?? 0,
        checkedAtMs,
        run,
      });
    },

    /** Records an unconditional success, whatever the request carried. */
    async heartbeat(tenantId: string, checkId: string) {
      const run = await pushCheck(tenantId, checkId);
      return record(tenantId, checkId, {
        success: true,
        latency_ms: 0,
        error_message: '',
        status_code: 0,
        checkedAtMs: deps.clock.now(),
        run,
      });
    },
  };
}

export type PushService = ReturnType<typeof createPushService>;
