import fc from 'fast-check';
import type { Alert, Digest } from '../../../lib/notify/items/ports.ts';
import {
  type CheckOutcome,
  checkTruth,
  type Told,
  type TruthFacts,
  type Violation,
} from './alert-truth-check.ts';
/**
 * The alert-truth model (issue 51 item 7, DECISIONS.md "Alert truth (wave 5)"): fast-check
 * generates timelines (entities with 1-3 push checks, policies, channels own, attached and routed,
 * grouping and the storm fold, depends_on, maintenance windows, silence toggles, acknowledgements,
 * redelivered jobs, restarts), a driver plays one on a runtime through its API and fake clock,
 * lets every hold run out, and alert-truth-check.ts judges what the fake channels received. The
 * driver only reads what a user could see (the API's states and the channels' messages), so it
 * judges any notifier core; both runtimes implement `ModelRuntime`.
 */

/** A message as a runtime's fake channel saw it (local: the sender's arguments; cloud: the webhook body). */
export type RawMessage =
  | { kind: 'alert'; channelId: string; alert: Alert; atMs: number }
  | { kind: 'digest'; channelId: string; digest: Digest; atMs: number }
  | { kind: 'acknowledge'; channelId: string; ack: unknown; atMs: number }
  | { kind: 'webhook'; path: string; body: Record<string, unknown>; atMs: number; deliveryId?: string };

/** A model outcome as a runtime records it through the result path: down a 500, degraded a slow success (900 ms). */
export function outcomeResult(tenantId: string, checkId: string, outcome: CheckOutcome, checkedAtMs: number) {
  return {
    tenantId,
    checkId,
    success: outcome !== 'down',
    ...(outcome === 'degraded' ? { degraded: true } : {}),
    status_code: outcome === 'down' ? 500 : 200,
    latency_ms: outcome === 'degraded' ? 900 : 5,
    error_message: outcome === 'down' ? 'boom' : outcome === 'degraded' ? 'slow: 900 ms' : '',
    checkedAtMs,
  };
}

/** What the driver needs of a runtime. */
export interface ModelRuntime {
  readonly name: string;
  now(): number;
  /** A fresh tenant for the next timeline: `call` and `result` act in it from now on (plan limits stay far). */
  beginTimeline(): Promise<void>;
  /** An API call with the tenant's admin key; throws on an answer of 300 or more. */
  // biome-ignore lint/suspicious/noExplicitAny: response bodies are inspected freely
  call(method: string, path: string, body?: unknown): Promise<any>;
  /** The webhook URL of a channel tagged `tag` (never dialled locally; the receiver's in the cloud). */
  channelUrl(tag: string): string;
  /** Records one result of a push check through the result path, then settles the flow. */
  result(checkId: string, outcome: CheckOutcome): Promise<void>;
  /** Moves the fake clock `ms` ahead, running every job that falls due on the way. */
  advance(ms: number): Promise<void>;
  /** Enqueues again the n-th (modulo) job already handled, same id and body; describes it, or undefined. */
  redeliver(n: number): Promise<string | undefined>;
  /** Closes and opens the runtime on the same data; false where there is nothing to restart. */
  restart(): Promise<boolean>;
  /** Every message the fake channels received so far. */
  messages(): readonly RawMessage[];
  close(): Promise<void>;
}

// ---------------------------------------------------------------------------------------------
// Timelines

interface CheckSpec {
  failureThreshold: number;
  successThreshold: number;
  cooldownS: number;
  flap: { changes: number; windowS: number } | null;
  notifyOnRecovery: boolean;
  suppressUpstream: boolean;
  ownChannel: boolean;
  /** Tenant channels attached to the check (indexes, modulo the tenant channels). */
  attach: number[];
  /** The check's first result (results start in this order, before the steps). */
  first: CheckOutcome;
}

interface EntitySpec {
  checks: CheckSpec[];
  /** An earlier entity it depends_on (index, modulo its own index), if any. */
  dependsOn: number | null;
}

interface RouteSpec {
  /** One entity the route matches (index modulo), or null: every entity of the timeline's blueprint. */
  entity: number | null;
  toStates: CheckOutcome[] | null;
  channel: number;
  groupBy: 'entity' | 'blueprint' | 'tenant';
  groupWaitS: number;
  groupIntervalS: number;
  escalateAfterS: number | null;
}

type Step =
  | { op: 'result'; entity: number; check: number; outcome: CheckOutcome }
  | { op: 'wait'; seconds: number }
  | { op: 'silence'; entity: number; check: number; on: boolean }
  | { op: 'maintenance'; entity: number; minutes: number }
  | { op: 'ack'; entity: number }
  | { op: 'redeliver'; nth: number }
  | { op: 'restart' };

interface Timeline {
  entities: EntitySpec[];
  tenantChannels: number;
  routes: RouteSpec[];
  foldPerMinute: number;
  steps: Step[];
}

const outcome = fc.constantFrom<CheckOutcome>('up', 'degraded', 'down');

const checkSpec: fc.Arbitrary<CheckSpec> = fc.record({
  failureThreshold: fc.constantFrom(1, 1, 2),
  successThreshold: fc.constantFrom(1, 1, 2),
  cooldownS: fc.oneof(fc.constantFrom(0, 20, 300), fc.integer({ min: 0, max: 300 })),
  flap: fc.option(
    fc.record({ changes: fc.integer({ min: 2, max: 4 }), windowS: fc.integer({ min: 60, max: 600 }) }),
    { freq: 3 },
  ),
  notifyOnRecovery: fc.constantFrom(true, true, true, false),
  suppressUpstream: fc.boolean(),
  ownChannel: fc.boolean(),
  attach: fc.uniqueArray(fc.integer({ min: 0, max: 2 }), { maxLength: 2 }),
  first: fc.oneof(
    { weight: 4, arbitrary: fc.constant<CheckOutcome>('up') },
    { weight: 1, arbitrary: outcome },
  ),
});

const routeSpec: fc.Arbitrary<RouteSpec> = fc.record({
  entity: fc.option(fc.nat(3), { freq: 2 }),
  toStates: fc.option(
    fc.constantFrom<CheckOutcome[]>(['down', 'up'], ['down', 'degraded', 'up'], ['down', 'degraded']),
    { freq: 3 },
  ),
  channel: fc.nat(2),
  groupBy: fc.constantFrom('entity', 'entity', 'blueprint', 'tenant'),
  groupWaitS: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 120 })),
  groupIntervalS: fc.oneof(fc.constant(60), fc.integer({ min: 60, max: 600 })),
  escalateAfterS: fc.option(fc.integer({ min: 60, max: 300 }), { freq: 4 }),
});

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 12,
    arbitrary: fc.record({ op: fc.constant('result'), entity: fc.nat(3), check: fc.nat(2), outcome }),
  },
  {
    weight: 8,
    arbitrary: fc.record({
      op: fc.constant('wait'),
      seconds: fc.oneof(fc.constantFrom(5, 15, 30, 61, 120, 301), fc.integer({ min: 1, max: 400 })),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant('silence'),
      entity: fc.nat(3),
      check: fc.nat(2),
      on: fc.boolean(),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant('maintenance'),
      entity: fc.nat(3),
      minutes: fc.integer({ min: 1, max: 20 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('ack'), entity: fc.nat(3) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('redeliver'), nth: fc.nat(1000) }) },
  { weight: 1, arbitrary: fc.constant<Step>({ op: 'restart' }) },
) as fc.Arbitrary<Step>;

/** Timelines: 1-4 entities of 1-3 checks, 0-3 tenant channels, 0-2 routes, 1-24 steps. */
const timelines: fc.Arbitrary<Timeline> = fc.record({
  entities: fc.array(
    fc.record({
      checks: fc.array(checkSpec, { minLength: 1, maxLength: 3 }),
      dependsOn: fc.option(fc.nat(3), { freq: 3 }),
    }),
    { minLength: 1, maxLength: 4 },
  ),
  tenantChannels: fc.integer({ min: 0, max: 3 }),
  routes: fc.array(routeSpec, { maxLength: 2 }),
  foldPerMinute: fc.constantFrom(10, 10, 1, 2, 3),
  steps: fc.array(step, { minLength: 1, maxLength: 24 }),
});

// ---------------------------------------------------------------------------------------------
// Reading a timeline

const ent = (t: Timeline, i: number) => i % t.entities.length;
const chk = (t: Timeline, e: number, i: number) => i % (t.entities[e]?.checks.length ?? 1);
const dependsOnOf = (t: Timeline, e: number) => {
  const d = t.entities[e]?.dependsOn;
  return d === null || d === undefined || e === 0 ? null : d % e;
};

function describeCheck(c: CheckSpec): string {
  const parts = [`first ${c.first}`, `cooldown ${c.cooldownS}s`];
  if (c.failureThreshold !== 1) parts.push(`failure_threshold ${c.failureThreshold}`);
  if (c.successThreshold !== 1) parts.push(`success_threshold ${c.successThreshold}`);
  parts.push(c.flap ? `flap ${c.flap.changes} in ${c.flap.windowS}s` : 'flap off');
  if (!c.notifyOnRecovery) parts.push('notify_on_recovery false');
  if (!c.suppressUpstream) parts.push('suppress_when_upstream_down false');
  return parts.join(', ');
}

/** The timeline as a reader wants it: the world, then each step. */
function describeTimeline(t: Timeline): string {
  const lines: string[] = [];
  t.entities.forEach((e, i) => {
    const dep = dependsOnOf(t, i);
    lines.push(`entity e${i}${dep === null ? '' : ` depends_on e${dep}`}`);
    e.checks.forEach((c, j) => {
      const channels = [
        ...(c.ownChannel ? [`own channel e${i}c${j}`] : []),
        ...(t.tenantChannels > 0 ? [...new Set(c.attach.map((a) => `t${a % t.tenantChannels}`))] : []).map(
          (name) => `attached ${name}`,
        ),
      ];
      lines.push(`  check e${i}c${j}: ${describeCheck(c)}; ${channels.join(', ') || 'no channels'}`);
    });
  });
  lines.push(`tenant channels: ${t.tenantChannels}; alert_fold_per_minute ${t.foldPerMinute}`);
  if (t.tenantChannels > 0)
    for (const r of t.routes) {
      const esc = r.escalateAfterS === null ? '' : `, escalate after ${r.escalateAfterS}s`;
      lines.push(
        `route ${r.entity === null ? 'all' : `e${ent(t, r.entity)}`}${r.toStates ? ` to ${r.toStates.join('|')}` : ''} → t${r.channel % t.tenantChannels} (group_by ${r.groupBy}, wait ${r.groupWaitS}s, interval ${r.groupIntervalS}s${esc})`,
      );
    }
  lines.push('steps:');
  for (const s of t.steps) lines.push(`  ${describeStep(t, s)}`);
  return lines.join('\n');
}

function describeStep(t: Timeline, s: Step): string {
  switch (s.op) {
    case 'result': {
      const e = ent(t, s.entity);
      return `result e${e}c${chk(t, e, s.check)} ${s.outcome}`;
    }
    case 'wait':
      return `wait ${s.seconds}s`;
    case 'silence': {
      const e = ent(t, s.entity);
      return `${s.on ? 'silence' : 'unsilence'} e${e}c${chk(t, e, s.check)}`;
    }
    case 'maintenance':
      return `maintenance e${ent(t, s.entity)} for ${s.minutes} min`;
    case 'ack':
      return `acknowledge e${ent(t, s.entity)}'s open incident`;
    case 'redeliver':
      return `redeliver handled job #${s.nth}`;
    case 'restart':
      return 'restart';
  }
}

// ---------------------------------------------------------------------------------------------
// The driver

let timelineCounter = 0;

interface Built {
  bp: string;
  entityIds: string[];
  entitySlugs: string[];
  checkIds: string[][];
  /** channel id or webhook path -> tag */
  tags: Map<string, string>;
  /** per entity, per check: the tags of its own and attached channels */
  checkChannels: string[][][];
}

async function build(rt: ModelRuntime, t: Timeline): Promise<Built> {
  timelineCounter += 1;
  await rt.beginTimeline();
  const bp = `m${timelineCounter}-${Math.floor(rt.now() / 1000) % 100_000}`;
  await rt.call('POST', '/v1/blueprints', { slug: bp, name: bp });
  await rt.call('PUT', '/v1/settings/alerting', { alert_fold_per_minute: t.foldPerMinute });
  const tags = new Map<string, string>();
  const channel = (id: string, tag: string) => {
    tags.set(id, tag);
    tags.set(new URL(rt.channelUrl(`${bp}/${tag}`)).pathname, tag);
  };
  const tenantChannelIds: string[] = [];
  for (let i = 0; i < t.tenantChannels; i += 1) {
    const tag = `t${i}`;
    const made = await rt.call('POST', '/v1/notify/channels', {
      name: `${bp}-${tag}`,
      channel_type: 'webhook',
      config: { url: rt.channelUrl(`${bp}/${tag}`) },
    });
    channel(made.id, tag);
    tenantChannelIds.push(made.id);
  }
  const entityIds: string[] = [];
  const entitySlugs: string[] = [];
  const checkIds: string[][] = [];
  const checkChannels: string[][][] = [];
  for (const [i, e] of t.entities.entries()) {
    const slug = `e${i}`;
    const made = await rt.call('POST', `/v1/blueprints/${bp}/entities`, { slug, name: `${bp} e${i}` });
    entityIds.push(made.id);
    entitySlugs.push(slug);
    const ids: string[] = [];
    const chans: string[][] = [];
    for (const [j, c] of e.checks.entries()) {
      const check = await rt.call('POST', '/v1/checks', {
        entity_id: made.id,
        name: `e${i}c${j}`,
        check_type: 'push',
        interval_seconds: 86_400,
        failure_threshold: c.failureThreshold,
        success_threshold: c.successThreshold,
      });
      ids.push(check.id);
      await rt.call('POST', `/v1/checks/${check.id}/policy`, {
        cooldown_seconds: c.cooldownS,
        notify_on_recovery: c.notifyOnRecovery,
        suppress_when_upstream_down: c.suppressUpstream,
        flap_changes: c.flap ? c.flap.changes : 0,
        ...(c.flap ? { flap_window_seconds: c.flap.windowS } : {}),
      });
      const mine: string[] = [];
      if (c.ownChannel) {
        const tag = `e${i}c${j}`;
        const own = await rt.call('POST', `/v1/checks/${check.id}/policy/channels`, {
          channel_type: 'webhook',
          config: { url: rt.channelUrl(`${bp}/${tag}`) },
        });
        channel(own.id, tag);
        mine.push(tag);
      }
      if (t.tenantChannels > 0)
        for (const a of new Set(c.attach.map((x) => x % t.tenantChannels))) {
          await rt.call('POST', `/v1/checks/${check.id}/policy/channels`, {
            channel_id: tenantChannelIds[a],
          });
          mine.push(`t${a}`);
        }
      chans.push(mine);
    }
    checkIds.push(ids);
    checkChannels.push(chans);
  }
  for (let i = 0; i < t.entities.length; i += 1) {
    const dep = dependsOnOf(t, i);
    if (dep !== null)
      await rt.call('POST', '/v1/relations', {
        from_entity_id: entityIds[i],
        to_entity_id: entityIds[dep],
        relation_type: 'depends_on',
      });
  }
  if (t.tenantChannels > 0)
    for (const r of t.routes) {
      const channelId = tenantChannelIds[r.channel % t.tenantChannels];
      await rt.call('POST', '/v1/notify/routes', {
        match: {
          blueprint_slugs: [bp],
          ...(r.entity === null ? {} : { entity_ids: [entityIds[ent(t, r.entity)]] }),
          ...(r.toStates ? { to_states: r.toStates } : {}),
        },
        channel_ids: [channelId],
        group_by: r.groupBy,
        group_wait_seconds: r.groupWaitS,
        group_interval_seconds: r.groupIntervalS,
        ...(r.escalateAfterS === null
          ? {}
          : { escalate_after_seconds: r.escalateAfterS, escalate_channel_ids: [channelId] }),
      });
    }
  return { bp, entityIds, entitySlugs, checkIds, tags, checkChannels };
}

const isRecoveryEvent = (e: { from_state: string; to_state: string }) =>
  e.to_state === 'up' && (e.from_state === 'down' || e.from_state === 'degraded');

/** The state a message kind names (DECISIONS.md "Alert truth (wave 5)"; the choices are explained in alert-truth-check.ts). */
function named(word: string, toState: string): Told['names'] {
  if (word === 'test' || word === 'acknowledge') return null;
  if (word === 'flapping') return 'flapping';
  if (word === 'also_failing') return 'down';
  return toState as Told['names'];
}

/**
 * The runtime's raw messages as the judge reads them: one per channel and entity named; a digest
 * is read as its events in order (oldest first), so its last event about an entity is the word it
 * leaves, and a down between two degradeds in one digest is no repeat.
 */
function toldOf(raw: readonly RawMessage[], built: Built): Told[] {
  const mine = new Set(built.entityIds);
  const out: Told[] = [];
  const push = (
    channel: string | undefined,
    entityId: string,
    atMs: number,
    word: string,
    to: string,
    i: number,
  ) => {
    if (channel === undefined || !mine.has(entityId)) return;
    const entity = built.entityIds.indexOf(entityId);
    out.push({ channel, entity, atMs, word, names: named(word, to), seq: i });
  };
  // Delivery is at least once: a send retried after a lost record write, or a deliver job run twice
  // at once, carries the same X-Service-Delivery id, by which a receiver tells the copy (docs/notifications.md).
  const received = new Set<string>();
  raw.forEach((m, i) => {
    const id = m.kind === 'alert' ? m.alert.deliveryId : m.kind === 'webhook' ? m.deliveryId : undefined;
    const channel = m.kind === 'webhook' ? m.path : m.channelId;
    if (id !== undefined) {
      if (received.has(`${channel}|${id}`)) return;
      received.add(`${channel}|${id}`);
    }
    if (m.kind === 'alert') {
      const word =
        m.alert.kind === 'alert'
          ? isRecoveryEvent(m.alert.event)
            ? 'recovery'
            : 'alert'
          : String(m.alert.kind);
      push(built.tags.get(m.channelId), m.alert.event.entity_id, m.atMs, word, m.alert.event.to_state, i);
    } else if (m.kind === 'digest') {
      for (const e of m.digest.events)
        push(
          built.tags.get(m.channelId),
          e.event.entity_id,
          m.atMs,
          `digest(${e.kind})`,
          e.event.to_state,
          i,
        );
    } else if (m.kind === 'webhook') {
      const tag = built.tags.get(m.path);
      const body = m.body;
      if (body.kind === 'digest' && Array.isArray(body.events)) {
        for (const e of body.events as Record<string, unknown>[])
          push(tag, String(e.entity_id), m.atMs, `digest(${e.kind})`, String(e.to_state), i);
      } else
        push(tag, String(body.entity_id), m.atMs, String(body.kind ?? 'alert'), String(body.to_state), i);
    }
    // acknowledge messages (local) name no state: the judge never needs them.
  });
  return out;
}

/** One timeline's run: what happened, and the judge's verdict. */
interface TimelineRun {
  violations: Violation[];
  report: string;
}

/** A fixed margin after the last hold's end: jobs run in hops and digests flush on their minute. */
const SLACK_MS = 15_000;

/** Plays `t` on `rt`, lets everything settle, judges it. */
async function playTimeline(rt: ModelRuntime, t: Timeline): Promise<TimelineRun> {
  const built = await build(rt, t);
  const startMs = rt.now();
  const log: string[] = [];
  const at = () => `t+${Math.round((rt.now() - startMs) / 1000)}s`;
  const stateOf = async (e: number): Promise<string> =>
    (await rt.call('GET', `/v1/blueprints/${built.bp}/entities/${built.entitySlugs[e]}`)).state;
  const states = t.entities.map(() => 'unknown');
  const silenced = t.entities.map((e) => e.checks.map(() => false));
  const windows: { entity: number; startMs: number; endMs: number }[] = [];
  const facts: TruthFacts = {
    entities: t.entities.map((e, i) => ({
      checkChannels: built.checkChannels[i] ?? [],
      dependsOn: dependsOnOf(t, i),
      suppressUpstream: e.checks.some((c) => c.suppressUpstream),
      recoveryOff: e.checks.some((c) => !c.notifyOnRecovery),
      changes: [],
      lastResultMs: startMs,
      holdMs: 0,
      finalState: 'unknown',
      finalCheckStates: [],
      silencedAtEnd: false,
      maintenanceAtEnd: false,
      maintenanceEnds: [],
    })),
    routes:
      t.tenantChannels === 0
        ? []
        : t.routes.map((r) => ({
            entity: r.entity === null ? null : ent(t, r.entity),
            toStates: r.toStates,
            channel: `t${r.channel % t.tenantChannels}`,
          })),
    told: [],
  };
  const inMaintenance = (e: number) =>
    windows.some((w) => w.entity === e && w.startMs <= rt.now() && rt.now() < w.endMs);

  const result = async (e: number, c: number, o: CheckOutcome) => {
    await rt.advance(1000);
    const checkId = built.checkIds[e]?.[c];
    if (!checkId) return;
    await rt.result(checkId, o);
    const f = facts.entities[e];
    if (!f) return;
    f.lastResultMs = rt.now();
    const now = await stateOf(e);
    if (now !== states[e]) {
      const spec = t.entities[e];
      const dropped =
        (silenced[e]?.some(Boolean) ?? false) ||
        inMaintenance(e) ||
        (now === 'up' && (spec?.checks.some((x) => !x.notifyOnRecovery) ?? false));
      // The change names the check in the entity's new state (DECISIONS.md "Alert truth (wave 5)",
      // Cause): the one whose result moved it when it is, else the oldest check in it (ids are made
      // in index order), else the mover (lib/domain's causingCheck).
      const checkStates: string[] = [];
      for (const id of built.checkIds[e] ?? [])
        checkStates.push((await rt.call('GET', `/v1/checks/${id}`)).state);
      const inState = checkStates.indexOf(now);
      const cause = checkStates[c] === now || inState === -1 ? c : inState;
      f.changes.push({ atMs: rt.now(), from: states[e] ?? 'unknown', to: now, cause, dropped });
      log.push(
        `${at()} e${e}: ${states[e]} → ${now} (result of e${e}c${c}${cause === c ? '' : `, naming e${e}c${cause}`})${dropped ? ' [a drop exception applied]' : ''}`,
      );
      states[e] = now;
    }
  };

  // First results, in check order within each entity, entities in order.
  for (const [i, e] of t.entities.entries())
    for (const [j, c] of e.checks.entries()) {
      log.push(`${at()} first result e${i}c${j} ${c.first}`);
      await result(i, j, c.first);
    }
  for (const s of t.steps) {
    log.push(`${at()} ${describeStep(t, s)}`);
    switch (s.op) {
      case 'result': {
        const e = ent(t, s.entity);
        await result(e, chk(t, e, s.check), s.outcome);
        break;
      }
      case 'wait':
        await rt.advance(s.seconds * 1000);
        break;
      case 'silence': {
        const e = ent(t, s.entity);
        const c = chk(t, e, s.check);
        await rt.call('POST', `/v1/checks/${built.checkIds[e]?.[c]}/policy`, { silenced: s.on });
        const row = silenced[e];
        if (row) row[c] = s.on;
        break;
      }
      case 'maintenance': {
        const e = ent(t, s.entity);
        const startMs = rt.now();
        const endMs = startMs + s.minutes * 60_000;
        await rt.call('POST', '/v1/maintenance', {
          name: `w${windows.length}`,
          entity_ids: [built.entityIds[e]],
          starts_at: new Date(startMs).toISOString(),
          ends_at: new Date(endMs).toISOString(),
        });
        windows.push({ entity: e, startMs, endMs });
        facts.entities[e]?.maintenanceEnds.push(endMs);
        break;
      }
      case 'ack': {
        const e = ent(t, s.entity);
        const page = await rt.call('GET', `/v1/incidents?entity_id=${built.entityIds[e]}`);
        const open = (page.incidents as { id: string; state: string }[]).find((i) => i.state === 'open');
        if (open) await rt.call('POST', `/v1/incidents/${open.id}/acknowledge`, {});
        else log.push('    (no open incident)');
        break;
      }
      case 'redeliver': {
        const what = await rt.redeliver(s.nth);
        log.push(`    ${what ?? '(no job handled yet)'}`);
        break;
      }
      case 'restart':
        if (!(await rt.restart())) log.push('    (nothing to restart in this runtime)');
        break;
    }
  }

  // Results stop changing. Each entity's holds: the longest cooldown, flap window, route group
  // wait and interval, and the fold's minute (its 5 s wait included), chained; a window's end
  // starts the same chain again.
  const routeHoldMs = Math.max(
    0,
    ...(t.tenantChannels === 0 ? [] : t.routes.map((r) => (r.groupWaitS + r.groupIntervalS) * 1000)),
  );
  for (const [i, e] of t.entities.entries()) {
    const f = facts.entities[i];
    if (!f) continue;
    const cooldown = Math.max(...e.checks.map((c) => c.cooldownS)) * 1000;
    const flap = Math.max(0, ...e.checks.map((c) => (c.flap ? c.flap.windowS * 1000 : 0)));
    f.holdMs = cooldown + flap + routeHoldMs + 65_000;
  }
  const deadline = facts.entities.map((_, i) => deadlineOf(facts, i));
  const endMs = Math.max(rt.now(), ...deadline) + 60_000;
  log.push(`${at()} results stop; holds end by t+${Math.round((Math.max(...deadline) - startMs) / 1000)}s`);
  // Bounded: a few large steps (each runs every job due on the way).
  for (let guard = 0; rt.now() < endMs && guard < 20; guard += 1)
    await rt.advance(Math.min(endMs - rt.now(), 600_000));
  log.push(`${at()} settled`);

  for (const [i, f] of facts.entities.entries()) {
    f.finalState = await stateOf(i);
    f.finalCheckStates = [];
    for (const id of built.checkIds[i] ?? [])
      f.finalCheckStates.push((await rt.call('GET', `/v1/checks/${id}`)).state);
    f.silencedAtEnd = silenced[i]?.some(Boolean) ?? false;
    f.maintenanceAtEnd = inMaintenance(i);
  }
  facts.told = toldOf(rt.messages(), built);
  const violations = checkTruth(facts, deadline, startMs);
  // The delivery log (what the notifier decided, skips and their reasons), read only for a failure.
  const deliveryLog: string[] = [];
  if (violations.length > 0)
    for (const [i, id] of built.entityIds.entries()) {
      const page = await rt.call('GET', `/v1/notify/logs?entity_id=${id}&limit=200`);
      const logs = [...(page.logs as Record<string, unknown>[])].reverse();
      for (const l of logs) {
        const tag = built.tags.get(String(l.channel_id)) ?? String(l.channel_id ?? '-');
        const created = Date.parse(String(l.created_at));
        const reason = l.reason ? ` (${String(l.reason)})` : l.error ? ` (${String(l.error)})` : '';
        deliveryLog.push(
          `  t+${Math.round((created - startMs) / 1000)}s e${i} → ${tag}: ${String(l.kind)} ${String(l.event)} ${String(l.status)}${reason}`,
        );
      }
    }
  const report = [
    `runtime: ${rt.name}`,
    describeTimeline(t),
    'what happened:',
    ...log.map((l) => `  ${l}`),
    `final states: ${facts.entities.map((f, i) => `e${i} ${f.finalState}`).join(', ')}`,
    'messages (channel ← entity: kind names):',
    ...facts.told.map(
      (m) =>
        `  t+${Math.round((m.atMs - startMs) / 1000)}s ${m.channel} ← e${m.entity}: ${m.word} ${m.names ?? '-'}`,
    ),
    'delivery log (created, entity → channel: kind event status (reason)):',
    ...deliveryLog,
  ].join('\n');
  return { violations, report };
}

/** When the truth about entity `i` must have arrived: its holds after its last result, a window's end, its upstream's deadline. */
function deadlineOf(facts: TruthFacts, i: number, depth = 0): number {
  const f = facts.entities[i];
  if (!f) return 0;
  const own = Math.max(f.lastResultMs, ...f.maintenanceEnds) + f.holdMs + SLACK_MS;
  const up = f.dependsOn === null || depth > 8 ? 0 : deadlineOf(facts, f.dependsOn, depth + 1) + f.holdMs;
  return Math.max(own, up);
}

// ---------------------------------------------------------------------------------------------
// Running the property

/**
 * The seed (VIGIL_MODEL_SEED) and number of timelines (VIGIL_MODEL_RUNS, else `defaultRuns`);
 * VIGIL_MODEL_PATH with a seed replays the counterexample a failure printed.
 * VIGIL_MODEL_IGNORE (comma-separated rules of alert-truth-check.ts) sets rules aside, to explore
 * past a failure already known; CI sets none.
 */
export function modelSettings(defaultRuns: number): { seed: number; numRuns: number; replaying: boolean } {
  const seed = process.env.VIGIL_MODEL_SEED ? Number(process.env.VIGIL_MODEL_SEED) : Date.now() % 2 ** 31;
  const numRuns = process.env.VIGIL_MODEL_RUNS ? Number(process.env.VIGIL_MODEL_RUNS) : defaultRuns;
  return { seed, numRuns, replaying: Boolean(process.env.VIGIL_MODEL_PATH) };
}

/**
 * Runs `numRuns` generated timelines on the runtime `open` gives (one per timeline, or shared);
 * on a failure throws with the seed, fast-check's path and the shrunk timeline's report.
 */
export async function assertAlertTruth(
  open: () => Promise<ModelRuntime>,
  options: { seed: number; numRuns: number; release?: (rt: ModelRuntime) => Promise<void> },
): Promise<{ runs: number; ms: number }> {
  // Real time (the cloud runtime fakes Date).
  const started = performance.now();
  let runs = 0;
  let lastFailure: TimelineRun | undefined;
  const property = fc.asyncProperty(timelines, async (t) => {
    runs += 1;
    const rt = await open();
    try {
      let run: TimelineRun;
      try {
        run = await playTimeline(rt, t);
      } catch (error) {
        // A driver or API error fails the timeline too (fast-check shrinks it); its report is the error.
        lastFailure = { violations: [], report: `${describeTimeline(t)}\nerror: ${String(error)}` };
        throw error;
      }
      const ignored = new Set((process.env.VIGIL_MODEL_IGNORE ?? '').split(',').filter(Boolean));
      run.violations = run.violations.filter((v) => !ignored.has(v.rule));
      if (run.violations.length > 0) {
        lastFailure = run;
        return false;
      }
      return true;
    } finally {
      await options.release?.(rt);
    }
  });
  // VIGIL_MODEL_PATH (with its seed) replays one counterexample as printed, shrunk further if it can be.
  const path = process.env.VIGIL_MODEL_PATH;
  const details = await fc.check(property, {
    seed: options.seed,
    numRuns: options.numRuns,
    ...(path ? { path } : {}),
  });
  if (details.failed) {
    // The last failing run is the shrunk counterexample (the candidates after it all passed).
    const failure = lastFailure;
    const message = [
      `alert truth broken (seed ${details.seed}, path "${details.counterexamplePath}", after ${details.numRuns} timelines, ${details.numShrinks} shrinks)`,
      `replay: VIGIL_MODEL_SEED=${details.seed} VIGIL_MODEL_PATH=${details.counterexamplePath} npm exec -- vitest run <this file>`,
      'violations:',
      ...(failure?.violations ?? []).map((v) => `  - [${v.rule}] ${v.what}`),
      failure?.report ?? String(details.errorInstance ?? ''),
    ].join('\n');
    throw new Error(message);
  }
  return { runs, ms: performance.now() - started };
}
