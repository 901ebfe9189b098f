import type { CreateSkillBody } from '../../../skills/manifest.ts';
import { getActionRun } from '../action-runs.ts';
import { getAuditLog } from '../audit-log.ts';
import { auditLogInput, pageLimit } from '../catalog-ops-schemas.ts';
import { CONFIG_TOOL_ENTRIES } from '../config.ts';

/** The config-ops toolset: plan and apply configuration documents, read the audit log and action runs. */
export const CONFIG_OPS_MANIFEST = {
  slug: 'config-ops',
  name: 'Configuration operations',
  description: 'Plan and apply configuration documents, read who changed what, follow action runs.',
  version: '1.0.0',
  enabled: true,
  tools: [
    ...CONFIG_TOOL_ENTRIES,
    {
      name: 'get_audit_log',
      description:
        'Who changed what (admins only): audit entries newest first, each with actor, via (api, console, mcp, cli, agent), action, target, a redacted summary, source address and time. Filters: actor (an id), target (type:id or id), since (ISO time); next_cursor continues.',
      inputSchema: auditLogInput,
      annotations: getAuditLog.annotations,
    },
    {
      name: 'get_action_run',
      description:
        'One run of an action (an execution): dispatch outcome, the pipeline status its pipeline reported, and its log lines.',
      inputSchema: {
        type: 'object',
        properties: {
          execution_id: { type: 'string', description: 'The execution (exe_…)' },
          after_seq: {
            type: 'integer',
            minimum: 0,
            maximum: 1000,
            default: 0,
            description: 'Log lines after this one',
          },
          limit: pageLimit(200, 1000),
        },
        required: ['execution_id'],
        additionalProperties: false,
      },
      annotations: getActionRun.annotations,
    },
  ],
} satisfies CreateSkillBody;
