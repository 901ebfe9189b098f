import { issueSentence } from '../../http/issue-messages.ts';
import { windowBody } from '../../maintenance/request-schemas.ts';
import { ValidationError } from '../../platform/errors.ts';
import type { BuiltinTool } from './deps.ts';
import { READS } from './deps.ts';
import { someOf } from './names.ts';
import { toolResult } from './result.ts';

/**
 * Maintenance windows for agents: list them, and create one so an agent can quiet an entity before
 * it works on it (the same service and validation as POST /v1/maintenance).
 */

/** list_maintenance: the tenant's windows with whether each is on now. */
export const listMaintenance: BuiltinTool = {
  name: 'list_maintenance',
  annotations: { title: 'List maintenance windows', ...READS },
  handler: async (deps, caller) => {
    const windows = await deps.maintenance.list(caller.tenantId);
    const active = windows.filter((w) => w.active).length;
    const summary =
      windows.length === 0
        ? 'No maintenance windows.'
        : `${windows.length} maintenance window(s), ${active} active now: ` +
          `${someOf(
            windows.map((w) => `"${w.name}"${w.active ? ' (active)' : ''}`),
            20,
          )}.`;
    return toolResult(summary, { windows });
  },
};

/** create_maintenance: a one-off or recurring window over entities and blueprints. */
export const createMaintenance: BuiltinTool = {
  name: 'create_maintenance',
  annotations: {
    title: 'Create maintenance window',
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: false,
  },
  handler: async (deps, caller, args) => {
    const parsed = windowBody.safeParse(args, { error: issueSentence });
    if (!parsed.success) {
      throw new ValidationError(
        'invalid maintenance window',
        parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
      );
    }
    const window = await deps.maintenance.create(caller.tenantId, parsed.data);
    const when = window.cron
      ? `every "${window.cron}" (${window.timezone}) for ${window.duration_seconds} s`
      : `from ${window.starts_at} to ${window.ends_at}`;
    return toolResult(`Created maintenance window "${window.name}", ${when}; active now: ${window.active}.`, {
      window,
    });
  },
};
