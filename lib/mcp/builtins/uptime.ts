import { checkNameOf } from '../../check-types/check-name.ts';
import { ValidationError } from '../../platform/errors.ts';
import { UPTIME_WINDOWS, type UptimeFigures, type UptimeWindow } from '../../uptime/uptime-service.ts';
import type { BuiltinTool } from './deps.ts';
import { optionalString, READS } from './deps.ts';
import { entityWords } from './names.ts';
import { toolResult } from './result.ts';

/** get_uptime: the figures of GET /v1/checks/{id}/uptime or of an entity, by id, for one window. */

const percent = (ratio: number | null) => (ratio === null ? 'no results' : `${(ratio * 100).toFixed(3)}%`);

function summaryOf(what: string, u: UptimeFigures): string {
  const budget =
    u.slo_target !== undefined && u.error_budget_remaining !== undefined && u.error_budget_remaining !== null
      ? `; SLO ${percent(u.slo_target)}, error budget left ${percent(u.error_budget_remaining)}`
      : '';
  return `${what} over ${u.window}: uptime ${percent(u.uptime_ratio)} (${u.failures} of ${u.results} results failed), ${u.downtime_seconds} s down in ${u.incidents} incident(s)${budget}.`;
}

export const getUptime: BuiltinTool = {
  name: 'get_uptime',
  annotations: { title: 'Get uptime and SLO', ...READS },
  handler: async (deps, caller, args) => {
    const entityId = optionalString(args, 'entity_id');
    const checkId = optionalString(args, 'check_id');
    const given = optionalString(args, 'window') ?? '24h';
    if (!(UPTIME_WINDOWS as readonly string[]).includes(given)) {
      throw ValidationError.field('window', `one of ${UPTIME_WINDOWS.join(', ')}`);
    }
    const window = given as UptimeWindow;
    if ((entityId === undefined) === (checkId === undefined)) {
      throw ValidationError.field('entity_id', 'give exactly one of entity_id and check_id');
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
    const id = entityId as string;
    const uptime = await deps.uptime.entityUptimeById(caller.tenantId, id, window);
    // entityUptimeById answered, so the entity exists in the caller's tenant.
    const entity = await deps.entityStore.getById(caller.tenantId, id);
    return toolResult(summaryOf(entity ? entityWords(entity) : 'The entity', uptime), {
      entity_id: id,
      entity_name: entity?.name ?? null,
      uptime,
    });
  },
};
