import type { ActionRecord } from '../../../lib/actions/items/action-items.ts';
import { isoTime } from '../../../lib/platform/clock.ts';
import { newId } from '../../../lib/platform/ids.ts';

/** A stored state_change action of the tenant on `checkId` (null: any target state), for a store's `create`. */
export function stateChangeAction(
  tenantId: string,
  checkId: string,
  toState: 'up' | 'down' | null = null,
  atMs = Date.parse('2026-01-01T00:00:00.000Z'),
): ActionRecord {
  return {
    id: newId('act', atMs),
    tenant_id: tenantId,
    name: 'hook',
    url: 'http://127.0.0.1:9/hook',
    method: 'POST',
    headers: {},
    body_template: '{}',
    trigger_type: 'state_change',
    check_id: checkId,
    trigger_to_state: toState,
    interval_seconds: null,
    timeout_ms: 5000,
    pipeline_timeout_seconds: 0,
    next_run_at: null,
    created_at: isoTime(atMs),
    updated_at: isoTime(atMs),
    version: 1,
  };
}
