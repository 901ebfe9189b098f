import { getTenant } from '../auth/records.ts';
import type { Clock } from '../platform/clock.ts';
import type { Table } from '../store/table.ts';
import { appendAuditEntry } from './audit-items.ts';

/** The actor of operator commands: whoever runs `npm run vigil --` against the store itself. */
const OPERATOR_ACTOR = { type: 'operator', id: 'operator', label: 'operator (CLI)' } as const;

/**
 * Records a write an operator command made to the store directly (lib/cli/operator.ts): actor
 * operator, via cli, no source address. Answers false when the entry could not be written: the
 * command's write stands and its output (a key shown once) is still printed, as a failing audit
 * write never fails an API request either.
 */
export async function recordOperatorWrite(
  deps: { table: Table; clock: Clock },
  write: { tenantId: string; action: string; target: { type: string; id: string }; summary: string },
): Promise<boolean> {
  const now = deps.clock.now();
  try {
    const tenant = await getTenant(deps.table, write.tenantId);
    if (!tenant) return false;
    await appendAuditEntry(
      deps.table,
      now,
      {
        tenant_id: write.tenantId,
        actor: { ...OPERATOR_ACTOR },
        via: 'cli',
        action: write.action,
        target: write.target,
        summary: write.summary,
        source_ip: null,
      },
      tenant.retention_days,
    );
    return true;
  } catch {
    return false;
  }
}
