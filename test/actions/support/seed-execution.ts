import { expect } from 'vitest';
import type { ExecutionRecord } from '../../../lib/actions/items/execution-items.ts';
import { newCallbackToken } from '../../../lib/actions/runs/callback-token.ts';
import { type Clock, isoTime } from '../../../lib/platform/clock.ts';
import { newId } from '../../../lib/platform/ids.ts';
import type { ApiHarness } from '../../support/api-harness.ts';

/** Stores a dispatched execution of `actionId` as the runner does; answers its id and callback token. */
export async function seedExecution(api: ApiHarness, clock: Clock, tenantId: string, actionId: string) {
  const nowMs = clock.now();
  const id = newId('exe', nowMs);
  const token = newCallbackToken(id, nowMs);
  const record: ExecutionRecord = {
    id,
    tenant_id: tenantId,
    action_id: actionId,
    trigger: 'manual',
    dispatch_status: 'success',
    status_code: 204,
    latency_ms: 3,
    response_snippet: '',
    error_message: null,
    pipeline_status: null,
    transition_id: null,
    vars: {},
    callback_token_hash: token.hash,
    callback_expires_at: token.expiresAt,
    pipeline_deadline_at: isoTime(nowMs + 3_600_000),
    log_count: 0,
    created_at: isoTime(nowMs),
    updated_at: isoTime(nowMs),
  };
  expect(await api.app.executions.putNew(record)).toBe(true);
  return { id, token: token.token };
}
