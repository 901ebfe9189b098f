import type { EntityStore } from '../../catalog/entities.ts';
import { draftRefusal, runsAlone } from '../../check-types/registry.ts';
import type { Runtime } from '../../platform/config.ts';
import { ConflictError, NotFoundError, ValidationError } from '../../platform/errors.ts';
import type { RateLimiter } from '../../platform/rate-limiter.ts';
import { newestScreenshots } from '../../probes/outcome.ts';
import type { ProbeOutcome, Prober } from '../../probes/types.ts';
import { type CreateCheckBody, definitionFromCreate } from '../check-input.ts';
import { probeDefinition } from '../probe-job.ts';
import { spendManualRun } from './run-now.ts';

export interface DraftRunDeps {
  /** The app's prober: the checks' SSRF rules, their secrets' redaction (runProbe). */
  prober: Prober;
  /**
   * Where a draft of a type whose runs go alone (a browser check) runs when this process does not
   * run it: the cloud's draft browser function (lib/agent/region-browser.ts, invoked synchronously).
   * Absent, such a draft runs in `prober`, or is refused where the runtime cannot (draftRefusal).
   */
  aloneProber?: Prober | undefined;
  entities: Pick<EntityStore, 'existing'>;
  /** The manual runs' limiter: a draft spends the tenant's run budget as a saved check's run does. */
  limiter: RateLimiter;
  runtime?: Runtime | undefined;
}

/** What a draft's run answers: the outcome it would have stored, nothing stored. */
export interface DraftRunAnswer {
  stored: false;
  checked_at: string;
  outcome: 'up' | 'degraded' | 'down';
  success: boolean;
  degraded?: true;
  status_code: number;
  latency_ms: number;
  error_message: string;
  details?: ProbeOutcome['details'];
  /** browser: the run's screenshots inline (nothing is stored for a draft), bounded: see draftScreenshots. */
  screenshots?: DraftScreenshot[];
  /** Screenshots the bound left out (the earliest go first). */
  screenshots_left_out?: number;
}

/** One screenshot of a draft's browser run: its step (one-based, as a result's artifacts count) and the JPEG, base64. */
export interface DraftScreenshot {
  step: number;
  jpeg: string;
}

/** A draft's screenshots as its answer carries them (newestScreenshots' bound), with those left out wherever the run was. */
function draftScreenshots(outcome: ProbeOutcome): {
  screenshots?: DraftScreenshot[];
  screenshots_left_out?: number;
} {
  const shots = outcome.screenshots ?? [];
  if (shots.length === 0) return {};
  const { kept, leftOut } = newestScreenshots(shots);
  const left = leftOut + (outcome.screenshots_left_out ?? 0);
  return {
    screenshots: kept.map((shot) => ({ step: shot.step + 1, jpeg: shot.jpeg })),
    ...(left > 0 ? { screenshots_left_out: left } : {}),
  };
}

/**
 * POST /v1/checks/run-draft: a check that is not saved yet, probed once in this process as its
 * saved form would be (the create body's rules, the runtime's refusals, the SSRF guard, secrets
 * hidden in what comes back), for the console editor's "Run now" before saving (docs/api.md). A
 * browser draft runs where `aloneProber` runs it (the cloud's API function has no browser), and its
 * screenshots come back inline, as no result stores them.
 * Nothing is stored, no state moves and nobody is told; it spends the tenant's manual-run budget
 * (429 with Retry-After). The entity must be the caller's (404), as a create's must.
 */
export function createDraftRun(deps: DraftRunDeps) {
  return async (tenantId: string, body: CreateCheckBody): Promise<DraftRunAnswer> => {
    const definition = definitionFromCreate(body, deps.runtime);
    const alone = runsAlone(definition.check_type) ? deps.aloneProber : undefined;
    const refused = !alone && deps.runtime ? draftRefusal(definition.check_type, deps.runtime) : undefined;
    if (refused) throw ValidationError.field('check_type', refused);
    if (!(await deps.entities.existing(tenantId, [body.entity_id])).has(body.entity_id))
      throw new NotFoundError('entity');
    const job = probeDefinition(definition);
    if (!job || definition.execution_mode !== 'pull')
      throw new ConflictError('push checks are not probed: their agent reports results');
    await spendManualRun(deps.limiter, tenantId);
    const { outcome, startedMs } = await (alone ?? deps.prober)(job);
    const degraded = outcome.success && outcome.degraded === true;
    return {
      stored: false,
      checked_at: new Date(startedMs).toISOString(),
      outcome: !outcome.success ? 'down' : degraded ? 'degraded' : 'up',
      success: outcome.success,
      ...(degraded ? { degraded: true as const } : {}),
      status_code: outcome.status_code,
      latency_ms: outcome.latency_ms,
      error_message: outcome.error_message,
      ...(outcome.details ? { details: outcome.details } : {}),
      ...draftScreenshots(outcome),
    };
  };
}

export type DraftRun = ReturnType<typeof createDraftRun>;
