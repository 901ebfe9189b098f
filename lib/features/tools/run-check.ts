import { checkNameOf } from '../../check-types/check-name.ts';
import { type BuiltinTool, requiredString, writes } from '../../platform/mcp-tool.ts';
import { asToolResult, entityWords, toolResult } from '../../platform/tool-answers.ts';
import { type CheckToolDeps, namedCheck } from './deps.ts';
import { checkRef } from './schemas.ts';

/**
 * run_check: one probe of the check now (POST /v1/checks/{id}/run): a pull check's result, stored
 * like any other with `manual: true` (it counts for state); a located check's slot dispatched to
 * its locations. Limited per check and per tenant as the route is; push and disabled checks refuse.
 */
export const runCheck: BuiltinTool<CheckToolDeps> = {
  name: 'run_check',
  offer: {
    toolset: 'check-ops',
    order: 10,
    version: '1.1.0',
    description:
      'Probes a check once now: a pull check answers its result (stored like any other, marked manual; it counts for state); a check probed from other locations is dispatched to them and its result follows in get_check_results. Limited per check (2, then one every 30 s) and per account; push and disabled checks are refused.',
    inputSchema: checkRef,
  },
  references: namedCheck,
  annotations: writes('Run check now', { openWorld: true }),
  handler: (deps, caller, args) =>
    asToolResult(async () => {
      const checkId = requiredString(args, 'check_id');
      const check = await deps.checkService.requireCheck(caller.tenantId, checkId);
      const owner = await deps.entityStore.getById(caller.tenantId, check.entity_id);
      const entity = owner ? entityWords(owner) : `${check.blueprint_slug}/${check.entity_slug}`;
      const about = `Check "${checkNameOf(check)}" of ${entity}`;
      const answer = await deps.checkService.runNow(caller.tenantId, checkId);
      if (answer.status === 'dispatched') {
        return toolResult(
          `${about}: run dispatched to its locations; its result follows in its results.`,
          answer,
        );
      }
      const { result } = answer;
      const why = result.success
        ? `${result.latency_ms} ms`
        : result.error_message || `HTTP ${result.status_code}`;
      return toolResult(`${about}: ran now, ${result.outcome} (${why}).`, answer);
    }),
};
