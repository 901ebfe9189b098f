import type { ToolKitDeps } from '../../catalog/entities.ts';
import type { RunNow } from '../../checks/probing.ts';
import type { CheckReadService, CheckService } from '../../checks/services.ts';
import type { Principal } from '../../domain/principal.ts';
import type { PolicyService } from '../../notify/compose.ts';
import type { Runtime } from '../../platform/config.ts';
import type { Prober } from '../../probes/types.ts';
import type { PingLogService } from '../../push/ping-log.ts';
import type { RunLogService } from '../../push/run-log.ts';
import type { BoardReads } from '../../status/board-reads.ts';

/*
 * The services the tools of the folders whose faces are full take (the catalog's, the checks',
 * the push checks'): their mounts (../core-routes.ts and the push mount) bind them.
 */

/** The catalog tools' services (list_blueprints, list_entities, get_entity), bound by the catalog's mount. */
export interface CatalogToolDeps extends ToolKitDeps, Pick<BoardReads, 'blueprints' | 'entities'> {
  /** get_entity's checks of the entity. */
  checkService: Pick<CheckService, 'list'>;
}

/** explain_entity_state's services, bound by the checks' mount (lib/features/core-routes.ts). */
export interface ExplainToolDeps extends ToolKitDeps, BoardReads {
  checkService: Pick<CheckService, 'list'>;
  checkReads: Pick<CheckReadService, 'results' | 'transitions'>;
}

/** The push checks' tools' services, bound by the push mount (lib/features/feature-routes.ts). */
export interface PushToolDeps extends ToolKitDeps {
  checkService: Pick<CheckService, 'page' | 'requireCheck'>;
  /** list_heartbeats and get_ping_log: push checks' ping logs (GET /v1/checks/{id}/pings's service). */
  pingLog: Pick<PingLogService, 'page' | 'latest'>;
  /** get_check_runs: push checks' runs and learned normal (GET /v1/checks/{id}/runs's and /normal's service). */
  runLog: Pick<RunLogService, 'page' | 'normal'>;
}

/** The checks' services their tools take, bound by the checks' mount (lib/features/core-routes.ts). */
export interface CheckToolDeps extends ToolKitDeps {
  /** runNow: run_check's probe now (POST /v1/checks/{id}/run's). */
  checkService: Pick<
    CheckService,
    'list' | 'create' | 'requireCheck' | 'page' | 'read' | 'named' | 'update' | 'remove'
  > & { runNow: RunNow };
  checkReads: Pick<CheckReadService, 'results' | 'transitions'>;
  /** The app's prober: the SSRF rules of checks (VIGIL_ALLOW_PRIVATE_TARGETS) apply. */
  prober: Prober;
  /** The runtime: create_check refuses a check type it cannot run, before probing. */
  runtime: Runtime;
  /** silence_check: the checks' notification policies (POST /v1/checks/{id}/policy's service). */
  policies: Pick<PolicyService, 'upsert'>;
}

/** The check a write's `check_id` names: 404 before the write is confirmed when the tenant has none. */
export async function namedCheck(
  deps: Pick<CheckToolDeps, 'checkService'>,
  caller: Principal,
  args: Record<string, unknown>,
): Promise<void> {
  if (typeof args.check_id === 'string') await deps.checkService.requireCheck(caller.tenantId, args.check_id);
}
