import { queryAll } from '../../lib/store/items.ts';
import type { LocalHarness } from '../support/api-harness.ts';

/**
 * The pull checks (http, tcp, tls, dns) of every tenant and the results any of them holds: a result
 * on a pull check can only come from a probe, so none may exist while the scheduler is off.
 */
export async function pullCheckResults(
  api: LocalHarness,
): Promise<{ pullChecks: number; results: string[] }> {
  let pullChecks = 0;
  const results: string[] = [];
  for (const tenant of await api.app.tenants.listTenants()) {
    const checks = await api.app.checkService.list(tenant.id, {});
    for (const check of checks.filter((c) => c.check_type !== 'push')) {
      pullChecks += 1;
      const items = await queryAll((cursor) =>
        api.table.query({ pk: `CHECK#${check.id}`, cursor, consistent: true }),
      );
      for (const item of items.filter((i) => i.entity === 'result' || i.entity === 'rollup'))
        results.push(`${check.check_type} check ${check.id} (${check.target_url ?? ''}): ${String(item.sk)}`);
    }
  }
  return { pullChecks, results };
}
