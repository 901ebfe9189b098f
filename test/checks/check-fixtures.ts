import { expect } from 'vitest';
import type { ApiHarness } from '../support/api-harness.ts';

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

/** Records one result through the app's recorder (probing is tested elsewhere). */
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

/** Records a sequence of successes (true) and failures (false), one second apart from `startMs`. */
export async function recordSequence(api: ApiHarness, checkId: string, outcomes: boolean[], startMs: number) {
  for (const [i, success] of outcomes.entries()) {
    await record(api, checkId, { success, checkedAtMs: startMs + i * 1000 });
  }
}
