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
 *
 * Issue 77 point 4 as a property (DECISIONS.md "One incident per root cause (wave 6)"): over a
 * chain of 2 or 3 entities, each depending on the one before, with random results on their checks,
 * after every result each entity that is down is covered by exactly one open incident (its own, or
 * its root cause's as an affected entity still down there), and one that is up has none of its own
 * and is no unrecovered affected entry of an open incident.
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

const chains = fc.integer({ min: 2, max: 3 }).chain((entities) =>
  fc.record({
    entities: fc.constant(entities),
    checks: fc.array(fc.integer({ min: 1, max: 2 }), { minLength: entities, maxLength: entities }),
    steps: fc.array(
      fc.record({
        entity: fc.nat({ max: entities - 1 }),
        check: fc.nat({ max: 1 }),
        outcome: fc.constantFrom(...OUTCOMES),
      }),
      { minLength: 1, maxLength: 16 },
    ),
  }),
);

/** Prints the seed, runs the property, and throws with the replay line when it broke. */
async function checkProperty<T>(
  name: string,
  arbitrary: fc.Arbitrary<T>,
  run: (value: T) => Promise<string | undefined>,
) {
  const seed = process.env.VIGIL_MODEL_SEED ? Number(process.env.VIGIL_MODEL_SEED) : Date.now() % 2 ** 31;
  const numRuns = process.env.VIGIL_MODEL_RUNS ? Number(process.env.VIGIL_MODEL_RUNS) : 200;
  console.log(`${name}: seed ${seed}, ${numRuns} timelines`);
  const details = await fc.check(
    fc.asyncProperty(arbitrary, async (value) => {
      const broken = await run(value);
      if (broken) throw new Error(broken);
    }),
    { seed, numRuns },
  );
  if (details.failed) {
    throw new Error(
      [
        `${name} broken (seed ${details.seed}, path "${details.counterexamplePath}", ${details.numShrinks} shrinks)`,
        `replay: VIGIL_MODEL_SEED=${details.seed} npm exec -- vitest run test/incidents/incident-invariant.test.ts`,
        `timeline: ${JSON.stringify(details.counterexample)}`,
        String(details.errorInstance),
      ].join('\n'),
    );
  }
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
    await checkProperty('incident invariant', timelines, run);
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

describe('one incident per root cause over a dependency chain with random results (issue 77, local runtime)', () => {
  let rt: Awaited<ReturnType<typeof startRuntime>>;
  let made = 0;
  const blueprints = new Set<string>();

  beforeAll(async () => {
    rt = await startRuntime();
  });
  afterAll(async () => {
    await rt.pump.stop();
    await rt.table.close();
  });

  // biome-ignore lint/suspicious/noExplicitAny: response bodies are inspected freely
  type Json = any;

  /** The open incidents covering the entity: its own unresolved ones, and those it is an unrecovered affected entry of. */
  async function covering(entityId: string): Promise<{ own: Json[]; affected: Json[] }> {
    const listed: Json[] = (await rt.call('GET', `/v1/incidents?entity_id=${entityId}&limit=200`)).incidents;
    const unresolved = listed.filter((i) => i.state !== 'resolved');
    const own = unresolved.filter((i) => i.entity_id === entityId);
    const affected: Json[] = [];
    for (const i of unresolved.filter((x) => x.entity_id !== entityId)) {
      const entry = (await rt.call('GET', `/v1/incidents/${i.id}`)).affected.find(
        (a: Json) => a.entity_id === entityId,
      );
      if (entry && entry.state !== 'up' && entry.own_incident_id === null) affected.push(i);
    }
    return { own, affected };
  }

  /** What covers an entity in the model: nothing, its own incident, or the incident of the root entity (its index). */
  type Cover = { kind: 'none' } | { kind: 'own' } | { kind: 'affected'; root: number };
  type State = Outcome | 'unknown';
  const worst = (states: State[]): State =>
    states.includes('down')
      ? 'down'
      : states.includes('degraded')
        ? 'degraded'
        : states.includes('up')
          ? 'up'
          : 'unknown';

  /**
   * The rule as a model: entity `e` moved from `from` to `to`; `states` and `covers` are the chain's
   * (each entity depends on the one before it, so its upstreams nearest first are e-1, e-2, …).
   */
  function modelMove(states: State[], covers: Cover[], e: number, from: State, to: State) {
    const cover = covers[e] as Cover;
    if (to === 'up') {
      covers[e] = { kind: 'none' };
      // Its own incident resolves: each entity affected in it and still away from up opens its own.
      if (cover.kind === 'own')
        for (const [d, other] of covers.entries())
          if (other.kind === 'affected' && other.root === e && states[d] !== 'up')
            covers[d] = { kind: 'own' };
      return;
    }
    if (cover.kind !== 'none') return;
    const opening =
      (from === 'up' && (to === 'down' || to === 'degraded')) ||
      (to === 'down' && (from === 'unknown' || from === 'degraded'));
    if (!opening) return;
    for (let u = e - 1; u >= 0; u -= 1) {
      const up = covers[u] as Cover;
      if ((states[u] === 'down' || states[u] === 'degraded') && up.kind !== 'none') {
        covers[e] = { kind: 'affected', root: up.kind === 'own' ? u : up.root };
        return;
      }
    }
    covers[e] = { kind: 'own' };
  }

  /** Runs one timeline on a fresh chain; answers what broke, or undefined. */
  async function run(timeline: {
    entities: number;
    checks: number[];
    steps: { entity: number; check: number; outcome: Outcome }[];
  }): Promise<string | undefined> {
    const chain: { id: string; path: string; checks: string[] }[] = [];
    // A blueprint per 900 entities: the plan allows 1,000 (VIGIL_MODEL_RUNS may ask for many).
    const blueprint = `ch${Math.floor(made / 900)}`;
    if (!blueprints.has(blueprint)) {
      await rt.call('POST', '/v1/blueprints', { slug: blueprint, name: blueprint }, 201);
      blueprints.add(blueprint);
    }
    for (let e = 0; e < timeline.entities; e += 1) {
      made += 1;
      const slug = `c${made}`;
      const path = `/v1/blueprints/${blueprint}/entities`;
      const entity = await rt.call('POST', path, { slug, name: `Chain ${made}` }, 201);
      const checks: string[] = [];
      for (let c = 0; c < (timeline.checks[e] ?? 1); c += 1) {
        const body = {
          entity_id: entity.id,
          check_type: 'push',
          interval_seconds: 3600,
          failure_threshold: 1,
        };
        checks.push((await rt.call('POST', '/v1/checks', body, 201)).id);
      }
      const before = chain.at(-1);
      if (before) {
        const relation = { from_entity_id: entity.id, to_entity_id: before.id, relation_type: 'depends_on' };
        await rt.call('POST', '/v1/relations', relation, 201);
      }
      chain.push({ id: entity.id, path: `${path}/${slug}`, checks });
    }
    const checkStates = chain.map((link) => link.checks.map((): State => 'unknown'));
    const states: State[] = chain.map(() => 'unknown');
    const covers: Cover[] = chain.map(() => ({ kind: 'none' }));
    for (const [n, step] of timeline.steps.entries()) {
      const entity = chain[step.entity] as (typeof chain)[number];
      const index = step.check % entity.checks.length;
      const checkId = entity.checks[index] as string;
      rt.clock.advance(1000);
      const outcome = await rt.app.recorder.record({
        tenantId: rt.tenantId,
        checkId,
        success: step.outcome !== 'down',
        ...(step.outcome === 'degraded' ? { degraded: true } : {}),
        status_code: 0,
        latency_ms: 10,
        error_message: step.outcome === 'up' ? '' : 'boom',
        checkedAtMs: rt.clock.now(),
      });
      if (outcome.status !== 'recorded') return `step ${n}: result ${outcome.status}`;
      await rt.pump.drain();
      (checkStates[step.entity] as State[])[index] = step.outcome;
      const from = states[step.entity] as State;
      const to = worst(checkStates[step.entity] as State[]);
      states[step.entity] = to;
      if (to !== from) modelMove(states, covers, step.entity, from, to);

      for (const [e, link] of chain.entries()) {
        const state = (await rt.call('GET', link.path)).state;
        if (state !== states[e]) return `step ${n}: entity ${e} ${state}, model ${states[e]}`;
        const cover = await covering(link.id);
        const count = cover.own.length + cover.affected.length;
        const said = `step ${n}: entity ${e} ${state} (model ${JSON.stringify(covers[e])}), own ${cover.own.length}, affected in ${JSON.stringify(cover.affected.map((i) => i.entity_name))}`;
        // The invariant: down, exactly one open incident covers it; up, none.
        if (state === 'down' && count !== 1) return `${said}: not covered by exactly one open incident`;
        if (state === 'up' && count !== 0) return `${said}: up and still covered`;
        // And which one: one incident per root cause.
        const expected = covers[e] as Cover;
        const root = expected.kind === 'affected' ? chain[expected.root]?.id : undefined;
        const fits =
          expected.kind === 'none'
            ? count === 0
            : expected.kind === 'own'
              ? cover.own.length === 1 && cover.affected.length === 0
              : cover.own.length === 0 && cover.affected.length === 1 && cover.affected[0].entity_id === root;
        if (!fits) return `${said}: not what one incident per root cause says`;
      }
    }
    return undefined;
  }

  it('covers every down entity by exactly one open incident, its own or its root cause’s, and none that is up', async () => {
    await checkProperty('root-cause invariant', chains, run);
  });

  it('covers the named case: the root down, its dependent down (joins), the root up (the dependent opens its own), then up', async () => {
    const broken = await run({
      entities: 2,
      checks: [1, 1],
      steps: [
        { entity: 0, check: 0, outcome: 'up' },
        { entity: 1, check: 0, outcome: 'up' },
        { entity: 0, check: 0, outcome: 'down' },
        { entity: 1, check: 0, outcome: 'down' },
        { entity: 0, check: 0, outcome: 'up' },
        { entity: 1, check: 0, outcome: 'up' },
      ],
    });
    expect(broken).toBeUndefined();
  });
});
