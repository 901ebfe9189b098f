import { entityNaming, namesEntity, requiredEntity, type ToolKitDeps } from '../catalog/entities.ts';
import { checkNameOf } from '../check-types/check-name.ts';
import type { CheckService } from '../checks/services.ts';
import { ValidationError } from '../platform/errors.ts';
import type { BuiltinTool } from '../platform/mcp-tool.ts';
import { optionalString, READS } from '../platform/mcp-tool.ts';
import { entityWords, toolResult } from '../platform/tool-answers.ts';
import type { UptimeService } from './uptime-service.ts';
import { UPTIME_WINDOWS, type UptimeFigures, type UptimeWindow } from './uptime-service.ts';

/** get_uptime's services, bound by the uptime mount (lib/features/feature-routes.ts). */
export interface UptimeToolDeps extends ToolKitDeps {
  uptime: Pick<UptimeService, 'checkUptime' | 'entityUptimeById'>;
  checkService: Pick<CheckService, 'requireCheck'>;
}

/** get_uptime: the figures of GET /v1/checks/{id}/uptime or of an entity, by id, for one window. */

const percent = (ratio: number | null) => (ratio === null ? 'no results' : `${(ratio * 100).toFixed(3)}%`);

function summaryOf(what: string, u: UptimeFigures): string {
  const budget =
    u.slo_target !== undefined && u.error_budget_remaining !== undefined && u.error_budget_remaining !== null
      ? `; SLO ${percent(u.slo_target)}, error budget left ${percent(u.error_budget_remaining)}`
      : '';
  return `${what} over ${u.window}: uptime ${percent(u.uptime_ratio)} (${u.failures} of ${u.results} results failed), ${u.downtime_seconds} s down in ${u.incidents} incident(s)${budget}.`;
}

export const getUptime: BuiltinTool<UptimeToolDeps> = {
  name: 'get_uptime',
  offer: {
    toolset: 'catalog-ops',
    order: 100,
    version: '2.2.0',
    description:
      "Uptime of an entity (its checks' results summed) or of a check over 24h, 7d, 30d or 90d: uptime ratio, results, failures, downtime, incidents, MTTR, latency p50/p95/p99, and a check's SLO target and error budget left.",
    inputSchema: {
      type: 'object',
      properties: {
        ...entityNaming('The entity, its checks summed; or check_id instead'),
        check_id: { type: 'string', description: 'The check (chk_…); or the entity instead' },
        window: { type: 'string', enum: ['24h', '7d', '30d', '90d'], default: '24h' },
      },
      additionalProperties: false,
    },
  },
  annotations: { title: 'Get uptime and SLO', ...READS },
  handler: async (deps, caller, args) => {
    const checkId = optionalString(args, 'check_id');
    const given = optionalString(args, 'window') ?? '24h';
    if (!(UPTIME_WINDOWS as readonly string[]).includes(given)) {
      throw ValidationError.field('window', `one of ${UPTIME_WINDOWS.join(', ')}`);
    }
    const window = given as UptimeWindow;
    if ((checkId === undefined) === !namesEntity(args)) {
      throw ValidationError.field(
        'entity_id',
        'Give exactly one of check_id and the entity (entity_id, or blueprint_slug and entity_slug).',
      );
    }
    if (checkId !== undefined) {
      const uptime = await deps.uptime.checkUptime(caller.tenantId, checkId, window);
      const check = await deps.checkService.requireCheck(caller.tenantId, checkId);
      const owner = await deps.entityStore.getById(caller.tenantId, check.entity_id);
      const of = owner ? entityWords(owner) : `${check.blueprint_slug}/${check.entity_slug}`;
      return toolResult(summaryOf(`Check "${checkNameOf(check)}" of ${of}`, uptime), {
        check_id: checkId,
        check_name: checkNameOf(check),
        entity_id: check.entity_id,
        uptime,
      });
    }
    const entity = await requiredEntity(deps, caller.tenantId, args);
    const uptime = await deps.uptime.entityUptimeById(caller.tenantId, entity.id, window);
    return toolResult(summaryOf(entityWords(entity), uptime), {
      entity_id: entity.id,
      entity_name: entity.name,
      uptime,
    });
  },
};
