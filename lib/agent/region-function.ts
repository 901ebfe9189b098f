import pkg from '../../package.json' with { type: 'json' };
import { inProcessProber } from '../check-types/run-probe.ts';
import type { Clock } from '../platform/clock.ts';
import type { Config } from '../platform/config.ts';
import type { Logger } from '../platform/logger.ts';
import type { Prober } from '../probes/types.ts';
import { createAgentJobMemory } from './agent.ts';
import { createAgentClient } from './agent-client.ts';
import { type BoundedRunOutcome, runAgentFor } from './bounded-run.ts';
import { createLocationKeySource, LocationKeyUnavailable, type SecretReader } from './location-key-secret.ts';
import { type BrowserInvoke, browserLegProber, withBrowserLegs } from './region-browser.ts';

/**
 * How an AWS region's probe function (functions/probe-region.ts) spends each minute's invocation:
 * it leases for 50 s, so the next minute's invocation (EventBridge Scheduler, reserved
 * concurrency 1) starts about when this one ends; probes leased late finish and are posted
 * within the function's timeout (infra/probe-region.ts), less a margin to return in. It short-polls:
 * a lease that waited in the home's api function would bill that wait there (a 20 s long-poll
 * costs about 100 times a short poll's request), while this function is billed for its 50 s anyway;
 * a due job waits at most a pause more (the long-poll read every 0.5 s), far less than the 10 s
 * between two runs.
 */
export const REGION_RUN: Readonly<RegionRunSettings> = {
  leaseForMs: 50_000,
  idlePollMs: 1_000,
  /** Taken from the invocation's remaining time: the run is aborted this long before the timeout. */
  stopMarginMs: 5_000,
  concurrency: 20,
  maxUnsent: 1000,
  heartbeatIntervalMs: 30_000,
  maxBackoffMs: 5_000,
};

export interface RegionRunSettings {
  leaseForMs: number;
  /** The pause after a lease that found nothing (short polls: each lease waits 0 s in the home). */
  idlePollMs: number;
  stopMarginMs: number;
  concurrency: number;
  maxUnsent: number;
  heartbeatIntervalMs: number;
  maxBackoffMs: number;
}

export interface RegionFunctionDeps {
  config: Pick<Config, 'agentUrl' | 'locationKeySecret' | 'allowPrivateTargets' | 'region'>;
  readSecret: SecretReader;
  clock: Clock;
  logger: Logger;
  /** Default: the workers' prober, private targets as the config says (refused in the cloud). */
  prober?: Prober;
  /**
   * Invokes the region's browser function, which runs the browser checks leased here
   * (lib/agent/region-browser.ts); absent: a browser leg fails, no browser runs here.
   */
  browser?: BrowserInvoke | undefined;
  /** Default REGION_RUN's; tests shorten the run. */
  run?: Partial<RegionRunSettings>;
}

export type RegionRunAnswer = BoundedRunOutcome | { skipped: string };

/**
 * The region function's handler: one bounded agent run per invocation (lib/agent/bounded-run.ts)
 * against the home deployment's API, with the location key from the region's secret (read once per
 * container, again after Vigil refused it). Without a key in the secret it logs why and skips the
 * minute; it never throws for it (the schedule fires again in a minute anyway).
 */
export function createRegionHandler(deps: RegionFunctionDeps) {
  const { config, clock, logger } = deps;
  const settings = { ...REGION_RUN, ...deps.run };
  const url = config.agentUrl;
  const secretId = config.locationKeySecret ?? '';
  const key = createLocationKeySource({ secretId, read: deps.readSecret });
  const memory = createAgentJobMemory();
  const local = deps.prober ?? inProcessProber({ clock, allowPrivate: config.allowPrivateTargets });
  const prober = deps.browser
    ? withBrowserLegs(local, browserLegProber({ invoke: deps.browser, clock }))
    : local;
  const version = pkg.version;

  return async (
    _event: unknown,
    context: { getRemainingTimeInMillis(): number },
  ): Promise<RegionRunAnswer> => {
    // Checked here, not at load: the module loads (and tests import it) without the variables.
    if (!url || !secretId)
      throw new Error('VIGIL_AGENT_URL and VIGIL_LOCATION_KEY_SECRET must be set (infra/probe-region.ts)');
    let locationKey: string;
    try {
      locationKey = await key.get();
    } catch (err) {
      if (!(err instanceof LocationKeyUnavailable)) throw err;
      logger.error('no location key: nothing probed this minute', { reason: err.message });
      return { skipped: err.message };
    }
    const hardStopMs = Math.max(0, context.getRemainingTimeInMillis() - settings.stopMarginMs);
    const outcome = await runAgentFor(
      {
        client: createAgentClient({
          url: new URL(url),
          key: locationKey,
          userAgent: `vigil-agent/${version} (aws-lambda; ${config.region})`,
        }),
        prober,
        clock,
        logger,
        version,
        memory,
      },
      {
        leaseForMs: Math.min(settings.leaseForMs, hardStopMs),
        hardStopMs,
        concurrency: settings.concurrency,
        maxUnsent: settings.maxUnsent,
        heartbeatIntervalMs: settings.heartbeatIntervalMs,
        maxBackoffMs: settings.maxBackoffMs,
        idlePollMs: settings.idlePollMs,
      },
    );
    if (outcome.refused) {
      key.invalidate();
      logger.error('Vigil refused the location key: the secret is read again next minute', {
        secret: secretId,
      });
    }
    const log = outcome.unsent > 0 ? logger.warn : logger.info;
    log('probe run ended', { ...outcome });
    return outcome;
  };
}
