import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ExecutionRecord } from '../../lib/actions/items/execution-items.ts';
import { createExecutionStore } from '../../lib/actions/items/execution-store.ts';
import { INTERRUPTED_MESSAGE, RUNNING_AT_MOST_MS } from '../../lib/actions/items/run-record.ts';
import { createFakeClock, isoTime } from '../../lib/platform/clock.ts';
import { newId } from '../../lib/platform/ids.ts';
import { createCursorSeal } from '../../lib/store/cursor-seal.ts';
import { tableEngines } from '../support/table-engines.ts';

/**
 * Issue 36 item 7: a manual run's record left `running` by a process that died mid-send (kill -9,
 * a Lambda timeout: no stop marked it) reads `interrupted` once no send can still be under way;
 * the stop's own mark and the completion are conditional writes on the stored record.
 */

const engines = tableEngines();

const T0 = Date.parse('2026-03-01T12:00:00.000Z');

describe.each(engines)('a running execution record ($engine)', ({ make }) => {
  it('reads running while a send may be under way, interrupted after, and takes the stop mark once', async () => {
    const table = make();
    const clock = createFakeClock(T0);
    const store = createExecutionStore(
      table,
      createCursorSeal(async () => randomBytes(32)),
      clock,
    );
    const actionId = newId('act', T0);
    const record: ExecutionRecord = {
      id: newId('exe', T0),
      tenant_id: newId('tnt', T0),
      action_id: actionId,
      trigger: 'manual',
      dispatch_status: 'running',
      status_code: null,
      latency_ms: null,
      response_snippet: null,
      error_message: null,
      pipeline_status: null,
      transition_id: null,
      vars: {},
      callback_token_hash: 'a'.repeat(64),
      callback_expires_at: isoTime(T0 + 86_400_000),
      pipeline_deadline_at: null,
      log_count: 0,
      created_at: isoTime(T0),
      updated_at: isoTime(T0),
    };
    expect(await store.putNew(record)).toBe(true);
    clock.advance(RUNNING_AT_MOST_MS);
    expect((await store.get(record.id))?.dispatch_status).toBe('running');
    clock.advance(1);
    expect(await store.get(record.id)).toMatchObject({
      dispatch_status: 'interrupted',
      error_message: INTERRUPTED_MESSAGE,
    });
    const page = await store.listForAction(actionId, { limit: 10 });
    expect(page.executions.map((e) => e.dispatch_status)).toEqual(['interrupted']);

    // The stop's mark: once, and only on a running record.
    expect(await store.interrupt(record.id, isoTime(clock.now()), INTERRUPTED_MESSAGE)).toBe(true);
    expect(await store.interrupt(record.id, isoTime(clock.now()), INTERRUPTED_MESSAGE)).toBe(false);
    // A completion that still comes is the truth, over the mark.
    await store.complete(record.id, {
      dispatch_status: 'success',
      status_code: 200,
      latency_ms: 12,
      response_snippet: 'ok',
      error_message: null,
      callback_token_hash: record.callback_token_hash,
      callback_expires_at: record.callback_expires_at,
      pipeline_deadline_at: isoTime(T0 + 3_600_000),
      updated_at: isoTime(clock.now()),
    });
    expect(await store.get(record.id)).toMatchObject({ dispatch_status: 'success', status_code: 200 });
    await table.close();
  });
});
