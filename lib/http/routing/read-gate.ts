import { RateLimitedError } from '../../platform/errors.ts';

/**
 * The per-tenant bound on expensive keyed reads (routes marked `expensive`: the status board, the
 * tenant's transitions, metrics, uptime, the incidents list). The rate limits count requests, not
 * the work in them: one key's burst of whole-tenant reads could fill the event loop and the store
 * and slow every other caller, /healthz included (issue 36). Here at most `perTenant` of a tenant's
 * expensive reads run at once in this process; up to `queue` more wait (first come, first served)
 * at most `waitMs` for a slot; anything past that is 429 RATE_LIMITED with Retry-After at once.
 * Other tenants and cheap routes never wait on it.
 *
 * Per process: locally that is the server; in the cloud each function instance serves one request
 * at a time, so there the API's concurrency caps and API Gateway's throttling do this job.
 */

export interface ReadGateSettings {
  perTenant: number;
  queue: number;
  waitMs: number;
}

export const READ_GATE_DEFAULTS: ReadGateSettings = { perTenant: 4, queue: 8, waitMs: 2_000 };

/** Seconds a refused caller is told to wait: about one expensive read. */
const RETRY_AFTER_SECONDS = 1;

export interface ReadGate {
  /** A slot for one of the tenant's expensive reads: call the returned function when done. */
  acquire(tenantId: string): Promise<() => void>;
}

interface Lane {
  running: number;
  waiting: { grant(): void }[];
}

const busy = () =>
  new RateLimitedError(RETRY_AFTER_SECONDS, {
    message: 'too many expensive reads in flight for this account: retry shortly',
  });

export function createReadGate(settings: ReadGateSettings = READ_GATE_DEFAULTS): ReadGate {
  const lanes = new Map<string, Lane>();

  const release = (tenantId: string, lane: Lane) => {
    const next = lane.waiting.shift();
    if (next) return next.grant();
    lane.running -= 1;
    if (lane.running === 0) lanes.delete(tenantId);
  };

  /** The caller's release, once only (a second call would free another caller's slot). */
  const slot = (tenantId: string, lane: Lane) => {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      release(tenantId, lane);
    };
  };

  return {
    async acquire(tenantId) {
      let lane = lanes.get(tenantId);
      if (!lane) {
        lane = { running: 0, waiting: [] };
        lanes.set(tenantId, lane);
      }
      if (lane.running < settings.perTenant) {
        lane.running += 1;
        return slot(tenantId, lane);
      }
      if (lane.waiting.length >= settings.queue) throw busy();
      const held = lane;
      // A granted waiter takes over the releasing caller's slot: `running` stays as it is.
      return new Promise<() => void>((resolve, reject) => {
        const waiter = {
          grant: () => {
            clearTimeout(timer);
            resolve(slot(tenantId, held));
          },
        };
        const timer = setTimeout(() => {
          const at = held.waiting.indexOf(waiter);
          if (at >= 0) held.waiting.splice(at, 1);
          reject(busy());
        }, settings.waitMs);
        held.waiting.push(waiter);
      });
    },
  };
}
