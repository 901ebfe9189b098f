import type { TenantStore } from '../auth/tenants.ts';
import type { DeadmanRuns } from '../checks/probe-job.ts';
import type { Table } from '../store/table.ts';
import { deadmanRunOps } from './pings/run-closing.ts';

/**
 * lib/push's runs as the dead man's switch closes them (lib/locations' composition gives it to the
 * job runner): a push check's missed deadline closes its overdue runs `hung` and writes a `missed`
 * run for an expected run that never started (pings/run-closing.ts), with the synthetic failure.
 */
export function deadmanRuns(deps: {
  table: Table;
  tenants: Pick<TenantStore, 'requireTenant'>;
}): DeadmanRuns {
  return async ({ tenantId, check, state, miss, slotMs }) => {
    if (check.check_type !== 'push') return [];
    const tenant = await deps.tenants.requireTenant(tenantId);
    return deadmanRunOps(deps.table, {
      check: { id: check.id, interval_seconds: check.interval_seconds, config: check.config },
      state,
      miss,
      slotMs,
      retentionDays: tenant.retention_days,
    });
  };
}
