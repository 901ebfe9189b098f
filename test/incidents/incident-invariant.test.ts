import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../lib/app.ts';
import type { TransitionRecord } from '../../lib/checks/results.ts';
import { STREAM_ENTITIES } from '../../lib/events/consumers.ts';
import { createChangePump } from '../../lib/local/change-pump.ts';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { loadConfig } from '../../lib/platform/config.ts';
import { silentLogger } from '../../lib/platform/logger.ts';
import { createSqliteTable, openSqliteDatabase } from '../../lib/sqlite/sqlite-table.ts';
import { memoryJobQueue } from '../notify/support/memory-queue.ts';

/**
 * Issue 51 as a property (DECISIONS.md "Alert truth (wave 5)"): after any sequence of results of
 * 1 to 3 checks on one entity, an entity that is down has exactly one open incident and one that
 * is up has none; and every entity transition names a check in the entity's new state (the
 * recording one when it is) with that check's reason. On the local runtime's parts: the SQLite
 * table, its change feed pumped to the app's consumers (the incident consumer among them), the
 * real result recorder, on a fake clock. The seed is printed; replay one with
 * `VIGIL_MODEL_SEED=<seed> npm exec -- vitest run test/incidents/incident-invariant.test.ts`
 * (VIGIL_MODEL_RUNS for more timelines).
 */

const OUTCOMES = ['up', 'degraded', 'down'] as const;
type Outcome = (typeof OUTCOMES)[number];
const RANK: Record<Outcome, number> = { up: 1, degraded: 2, down: 3 };

interface Step {
  check: number;
  outcome: Outcome;
}

const timelines = fc.integer({ min: 1, max: 3 }).chain((checks) =>
  fc.record({
    checks: fc.constant(checks),
    steps: fc.array(
      fc.record({ check: fc.nat({ max: checks - 1 }), outcome: fc.constantFrom(...OUTCOMES) }),
      { minLength: 1, maxLength: 14 },
    ),
  }),
);

async function startRuntime() {
  const clock = createFakeClock(Date.parse('2026-03-02T09:00:00.000Z'));
  const table = createSqliteTable({ db: openSqliteDatabase(':memory:'), streamEntities: STREAM_ENTITIES });
  const config = loadConfig('local', { VIGIL_RATE_LIMIT_RPS: '0', VIGIL_AUTH_FAILURE_LIMIT: '0' });
  const app = createApp({
    table,
    clock,
    logger: silentLogger,
    config,
    notifyQueue: memoryJobQueue('notify'),
    actionQueue: memoryJobQueue('action'),
  });
  const pump = createChangePump({ table, consumers: app.consumers, logger: silentLogger });
  const { tenant, rawKey } = await app.tenants.createTenant({ name: 'T', email: 't@example.test' });
  // biome-ignore lint/suspicious/noExplicitAny: response bodies are inspected freely
  const call = async (method: string, path: string, body?: unknown, status = 200): Promise<any> => {
    const [route = path, search = ''] = path.split('?');
    const res = await app.router.handle({
      method,
      path: route,
      query: Object.fromEntries(new URLSearchParams(search)),
      headers: { authorization: `Bearer ${rawKey}`, 'content-type': 'application/json' },
      body: body === undefined ? Buffer.alloc(0) : Buffer.from(JSON.stringify(body)),
      requestId: 'test',
    });
    expect(res.status, `${method} ${path}: ${res.body}`).toBe(status);
    return res.body ? JSON.parse(res.body) : undefined;
  };
  await call('POST', '/v1/blueprints', { slug: 'svc', name: 'Service' }, 201);
  return { app, table, pump, clock, call, tenantId: tenant.id };
}

describe('incidents follow the entity state over random results (issue 51, local runtime)', () => {
  let rt: Awaited<ReturnType<typeof startRuntime>>;
  let entities = 0;

  beforeAll(async () => {
    rt = await startRuntime();
  });
  afterAll(async () => {
    await rt.pump.stop();
    await rt.table.close();
  });

  /** Runs one timeline on a fresh entity; answers what broke, or undefined. */
  async function run(timeline: { checks: number; steps: Step[] }): Promise<string | undefined> {
    entities += 1;
    const slug = `e${entities}`;
    const entity = await rt.call('POST', '/v1/blueprints/svc/entities', { slug, name: slug }, 201);
    const checks: string[] = [];
    for (let i = 0; i < timeline.checks; i += 1) {
      const body = { entity_id: entity.id, check_type: 'push', interval_seconds: 3600, failure_threshold: 1 };
      checks.push((await rt.call('POST', '/v1/checks', body, 201)).id);
    }
    const model = new Map<string, Outcome>();
    for (const [n, step] of timeline.steps.entries()) {
      const checkId = checks[step.check] as string;
      rt.clock.advance(1000);
      const outcome = await rt.app.recorder.record({
        tenantId: rt.tenantId,
        checkId,
        success: step.outcome !== 'down',
        ...(step.outcome === 'degraded' ? { degraded: true } : {}),
        status_code: 0,
        latency_ms: 10,
        error_message:
          step.outcome === 'degraded' ? `slow ${checkId}` : step.outcome === 'down' ? 'boom' : '',
        checkedAtMs: rt.clock.now(),
      });
      if (outcome.status !== 'recorded') return `step ${n}: result ${outcome.status}`;
      model.set(checkId, step.outcome);
      await rt.pump.drain();

      const expected = [...model.values()].reduce<Outcome>((w, s) => (RANK[s] > RANK[w] ? s : w), 'up');
      const state = (await rt.call('GET', `/v1/blueprints/svc/entities/${slug}`)).state;
      if (state !== expected) return `step ${n}: entity ${state}, model ${expected}`;
      const open = (await rt.call('GET', `/v1/incidents?entity_id=${entity.id}&state=open`)).incidents;
      const acknowledged = (await rt.call('GET', `/v1/incidents?entity_id=${entity.id}&state=acknowledged`))
        .incidents;
      const unresolved = open.length + acknowledged.length;
      if (state === 'down' && unresolved !== 1) return `step ${n}: down with ${unresolved} open incidents`;
      if (state === 'up' && unresolved !== 0) return `step ${n}: up with ${unresolved} open incidents`;

      const moved = outcome.transitions.find((t: TransitionRecord) => t.kind === 'entity');
      if (!moved) continue;
      const named = model.get(moved.check_id);
      if (named !== moved.to_state) return `step ${n}: ${moved.to_state} names a check that is ${named}`;
      if (step.outcome === moved.to_state && moved.check_id !== checkId) {
        return `step ${n}: ${moved.to_state} names another check than the recording one, in that state too`;
      }
      const reason =
        moved.to_state === 'degraded'
          ? `degraded: slow ${moved.check_id}`
          : moved.to_state === 'down'
            ? '1 consecutive failure (threshold 1)'
            : moved.from_state === 'unknown' && moved.check_id === checkId
              ? 'first result: check succeeded'
              : 'check succeeded';
      if (moved.reason !== reason) return `step ${n}: reason "${moved.reason}", expected "${reason}"`;
    }
    return undefined;
  }

  it('has exactly one open incident while down and none while up, and names the causing check, after every result', async () => {
    const seed = process.env.VIGIL_MODEL_SEED ? Number(process.env.VIGIL_MODEL_SEED) : Date.now() % 2 ** 31;
    const numRuns = process.env.VIGIL_MODEL_RUNS ? Number(process.env.VIGIL_MODEL_RUNS) : 200;
    console.log(`incident invariant: seed ${seed}, ${numRuns} timelines`);
    const details = await fc.check(
      fc.asyncProperty(timelines, async (timeline) => {
        const broken = await run(timeline);
        if (broken) throw new Error(broken);
      }),
      { seed, numRuns },
    );
    if (details.failed) {
      throw new Error(
        [
          `incident invariant broken (seed ${details.seed}, path "${details.counterexamplePath}", ${details.numShrinks} shrinks)`,
          `replay: VIGIL_MODEL_SEED=${details.seed} npm exec -- vitest run test/incidents/incident-invariant.test.ts`,
          `timeline: ${JSON.stringify(details.counterexample)}`,
          String(details.errorInstance),
        ].join('\n'),
      );
    }
  });

  it('names the still degraded check when the down one recovers (a shrunk failure)', async () => {
    const broken = await run({
      checks: 3,
      steps: [
        { check: 1, outcome: 'degraded' },
        { check: 0, outcome: 'down' },
        { check: 0, outcome: 'up' },
      ],
    });
    expect(broken).toBeUndefined();
  });

  it('opens one incident for the named case: a slow check degraded, another up, then that one down (issue 51)', async () => {
    const broken = await run({
      checks: 2,
      steps: [
        { check: 0, outcome: 'degraded' },
        { check: 1, outcome: 'up' },
        { check: 1, outcome: 'down' },
      ],
    });
    expect(broken).toBeUndefined();
  });
});
