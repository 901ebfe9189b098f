import { expect } from 'vitest';
import { PULL_MAX_INTERVAL_SECONDS } from '../../lib/check-types/check-config.ts';
import type { ApiHarness } from '../support/api-harness.ts';
import { runCellSlot } from '../support/cell-fixtures.ts';

/** Shared steps of the checks and status tests: entities, checks and results recorded directly. */

let counter = 0;

/** A fresh slug per call, so tests sharing one harness never collide. */
export function uniqueSlug(label: string): string {
  counter += 1;
  return `${label}-${counter}`;
}

/** Creates a blueprint (once per slug) and an entity in it; returns the entity id. */
export async function newEntity(
  api: ApiHarness,
  options: { key?: string; blueprint?: string; name?: string } = {},
): Promise<string> {
  const key = options.key ?? api.adminKey;
  const blueprint = options.blueprint ?? 'service';
  const bp = await api.request('POST', '/v1/blueprints', { key, body: { slug: blueprint, name: blueprint } });
  expect([201, 409], bp.text).toContain(bp.status);
  const slug = uniqueSlug('svc');
  const res = await api.request('POST', `/v1/blueprints/${blueprint}/entities`, {
    key,
    body: { slug, name: options.name ?? slug },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.id;
}

/**
 * A tcp check that the scheduler leaves alone for the length of a test (one run a day) and that
 * fails if it is ever probed; results come from `record`.
 */
export function quietTcpCheck(entityId: string, extra: Record<string, unknown> = {}) {
  return {
    entity_id: entityId,
    check_type: 'tcp',
    interval_seconds: 86_400,
    config: { host: '127.0.0.1', port: 9 },
    ...extra,
  };
}

let soloInterval = PULL_MAX_INTERVAL_SECONDS;

/**
 * A quiet tcp check alone in its cell: a cell holds the pull checks of one tenant and interval, so
 * each call takes an interval of its own (a day less one second more per call). A slot of its cell
 * then runs this check only, as `recordSlot` needs.
 */
export function soloTcpCheck(entityId: string, extra: Record<string, unknown> = {}) {
  soloInterval -= 1;
  return quietTcpCheck(entityId, { interval_seconds: soloInterval, ...extra });
}

/**
 * A push check: the per-check layout (state item in the due index, results through the recorder)
 * that pull checks left for cells. Its dead man's switch stays quiet for the length of a test.
 */
export function quietPushCheck(entityId: string, extra: Record<string, unknown> = {}) {
  return { entity_id: entityId, check_type: 'push', interval_seconds: 3600, ...extra };
}

/** Creates a check through the API; returns its id. */
export async function newCheck(api: ApiHarness, body: Record<string, unknown>, key = api.adminKey) {
  const res = await api.request('POST', '/v1/checks', { key, body });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}

/**
 * Records one result of a pull check alone in its cell (`soloTcpCheck`): one slot of its cell at
 * `checkedAtMs` through the real cell runner (the result's checked_at is the slot). Slots of one
 * cell must come in order; every other member of a shared cell would answer success too.
 */
export async function recordSlot(
  api: ApiHarness,
  checkId: string,
  result: {
    success: boolean;
    latency_ms?: number;
    checkedAtMs: number;
    tenantId?: string;
    details?: { days_left?: number };
  },
) {
  return runCellSlot(api, {
    slotMs: result.checkedAtMs,
    answers: {
      [checkId]: {
        success: result.success,
        latency_ms: result.latency_ms ?? 10,
        ...(result.details ? { details: result.details } : {}),
      },
    },
    ...(result.tenantId ? { tenantId: result.tenantId } : {}),
  });
}

/** Records one result through the app's recorder: push checks (a pull check's cell records its own). */
export async function record(
  api: ApiHarness,
  checkId: string,
  result: { success: boolean; latency_ms?: number; checkedAtMs: number; tenantId?: string },
) {
  const outcome = await api.app.recorder.record({
    tenantId: result.tenantId ?? api.tenantId,
    checkId,
    success: result.success,
    status_code: 0,
    latency_ms: result.latency_ms ?? 10,
    error_message: result.success ? '' : 'connection refused',
    checkedAtMs: result.checkedAtMs,
  });
  expect(outcome.status).toBe('recorded');
  return outcome;
}
