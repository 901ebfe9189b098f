import { checkNameOf } from '../../check-types/check-name.ts';
import { type BuiltinTool, requiredString, writes } from '../../platform/mcp-tool.ts';
import { asToolResult, toolResult } from '../../platform/tool-answers.ts';
import { entityOf } from './check-edits.ts';
import { type CheckToolDeps, namedCheck } from './deps.ts';

/**
 * silence_check: the check's own silence, its notification policy's `silenced` flag (POST
 * /v1/checks/{id}/policy's service): the check keeps running and its state keeps changing, but none
 * of its alerts is sent until the silence is lifted; lifting it while the entity is away from up
 * tells the channels the state then (policy-service.ts). A silence has no end of its own: for a
 * quiet period that ends by itself, start_maintenance covers the check's entity for a duration.
 */
export const silenceCheck: BuiltinTool<CheckToolDeps> = {
  name: 'silence_check',
  offer: {
    toolset: 'check-ops',
    order: 40,
    version: '1.1.0',
    description:
      "Silence a check's alerts (its notification policy's silenced flag): it keeps running and changing state, but no alert is sent until silenced: false lifts it (then its channels hear the state if it is not up). No end time: for a window that ends by itself use start_maintenance.",
    inputSchema: {
      type: 'object',
      properties: {
        check_id: { type: 'string', maxLength: 64, description: 'The check (chk_…)' },
        silenced: { type: 'boolean', default: true, description: 'false lifts the silence' },
      },
      required: ['check_id'],
      additionalProperties: false,
    },
  },
  references: namedCheck,
  annotations: writes('Silence check', { idempotent: true }),
  handler: (deps, caller, args) =>
    asToolResult(async () => {
      const checkId = requiredString(args, 'check_id');
      const silenced = args.silenced !== false;
      const check = await deps.checkService.read(caller.tenantId, checkId);
      const { policy } = await deps.policies.upsert(caller, checkId, { silenced });
      const about = `check "${checkNameOf(check)}" of ${entityOf(check)}`;
      return toolResult(
        policy.silenced
          ? `Silenced ${about}: it keeps running, but none of its alerts is sent until silence_check with silenced: false.`
          : `Lifted the silence of ${about}: its alerts are sent again.`,
        { check_id: checkId, silenced: policy.silenced, policy },
      );
    }),
};
