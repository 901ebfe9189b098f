import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { generateApiKey } from '../../lib/auth/api-key.ts';
import { cellResultsBetween } from '../../lib/checks/cells/cell-result-items.ts';
import { getCheckDefinition } from '../../lib/checks/check-items.ts';
import { evaluateCellSlot } from '../../lib/domain/states/cell-state.ts';
import type { CheckStateSnapshot } from '../../lib/domain/states/check-state.ts';
import { reapplyQueuedCellSlots } from '../../lib/local/cell-recovery.ts';
import { startLocalRuntime } from '../../lib/local/runtime.ts';
import { systemClock } from '../../lib/platform/clock.ts';
import { loadConfig } from '../../lib/platform/config.ts';
import { silentLogger } from '../../lib/platform/logger.ts';
import type { Table } from '../../lib/store/table.ts';

/**
 * Kill -9 rounds of a mixed workload on one data dir (issue 35 item 8): real server processes
 * (test/support/crash-serve.ts: bin/serve.ts with the cell runner's fault seam) running pull checks
 * in cells against loopback targets that flip between 200 and 503, while push results are posted.
 * Each round starts a process on the same SQLite file (which re-applies what the previous one
 * left) and kills it: on odd rounds at the seam, between a cell slot's stored results and its state
 * moves; on even rounds from outside, with SIGKILL at a random moment. Then the stored results are
 * replayed through the state machine, and every move they imply is looked for among the stored
 * transitions by the slot that made it: what is missing is a lost move, what is left over unexpected.
 */

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface CrashRoundsOptions {
  rounds: number;
  /** Reported after each round. */
  onProgress?: (line: string) => void;
}

export interface CrashFigures {
  rounds: number;
  /** Rounds killed at the seam (between a cell slot's results and its state moves). */
  seamKills: number;
  /** Rounds killed by SIGKILL from outside at a random moment. */
  randomKills: number;
  checks: number;
  /** Results stored over all rounds (pull and push). */
  results: number;
  /** Moves (transitions) the stored results imply. */
  expectedMoves: number;
  lostMoves: number;
  /** Stored moves no result implies (made by another slot, or twice). */
  unexpectedMoves: number;
  /** Push results answered 201 but not stored. */
  lostPushResults: number;
  /** Each check whose stored moves differ from its replayed ones: both lists, to read a failure by. */
  mismatches: string[];
}

/** Pull checks: interval (s), failure threshold, and how often the target flips (ms). */
const PULL = [
  [1, 1, 1300],
  [1, 2, 2100],
  [1, 3, 3700],
  [1, 2, 2900],
  [2, 1, 2300],
  [2, 2, 4100],
  [2, 3, 5300],
  [2, 1, 3100],
] as const;
const PUSH_CHECKS = 2;

type Json = Record<string, unknown>;

/** Runs the rounds and answers the figures (the data dir is removed afterwards). */
export async function runCrashRounds(options: CrashRoundsOptions): Promise<CrashFigures> {
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-crash-rounds-'));
  const key = generateApiKey();
  const target = createServer((req, res) => {
    const period = Number(/\/t\/(\d+)/.exec(req.url ?? '')?.[1] ?? 1000);
    res.writeHead(Math.floor(Date.now() / period) % 2 === 0 ? 200 : 503).end();
  });
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', () => resolve()));
  const targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
  const env = { VIGIL_DATA_DIR: dataDir, VIGIL_BOOTSTRAP_KEY: key, VIGIL_LOG_LEVEL: 'warn' };
  const figures: CrashFigures = {
    rounds: options.rounds,
    seamKills: 0,
    randomKills: 0,
    checks: PULL.length + PUSH_CHECKS,
    results: 0,
    expectedMoves: 0,
    lostMoves: 0,
    unexpectedMoves: 0,
    lostPushResults: 0,
    mismatches: [],
  };
  const pushed = new Map<string, number>();
  try {
    const ids = await setUp(env, key, targetUrl);
    for (const id of ids.push) pushed.set(id, 0);
    for (let round = 1; round <= options.rounds; round += 1) {
      const atSeam = round % 2 === 1;
      // At the seam: the 2nd to 7th slot stored; from outside: 1 to 5 s after the server listens.
      const server = await serve(env, atSeam ? 2 + Math.floor(Math.random() * 6) : 0);
      const pushing = pushWhile(server, key, ids.push, pushed);
      if (!atSeam) {
        await sleep(1000 + Math.random() * 4000);
        server.child.kill('SIGKILL');
      }
      // A seam that never fires (no failing slot in 30 s) ends the round from outside.
      const patience = new AbortController();
      const signal = await Promise.race([
        server.exited,
        sleep(30_000, 'timeout' as const, { signal: patience.signal }).catch(() => 'aborted' as const),
      ]);
      patience.abort();
      if (signal === 'timeout') server.child.kill('SIGKILL');
      await server.exited;
      await pushing;
      if (atSeam && signal === 'SIGKILL') figures.seamKills += 1;
      else if (!atSeam) figures.randomKills += 1;
      options.onProgress?.(`round ${round}: killed ${atSeam ? 'at the seam' : 'from outside'} (${signal})`);
    }
    await assess(dataDir, key, ids, pushed, figures);
    return figures;
  } finally {
    target.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

interface Served {
  child: ChildProcess;
  url: string;
  exited: Promise<NodeJS.Signals | number | null>;
}

async function serve(env: Record<string, string>, killAt: number): Promise<Served> {
  const child = spawn(process.execPath, ['test/support/crash-serve.ts', String(killAt)], {
    cwd: root,
    env: { ...process.env, PORT: '0', VIGIL_RATE_LIMIT_RPS: '0', VIGIL_AUTH_FAILURE_LIMIT: '0', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
    child.once('exit', (code, signal) => resolve(signal ?? code)),
  );
  let out = '';
  child.stdout?.on('data', (c: Buffer) => {
    out += c.toString('utf8');
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
    if (url) return { child, url, exited };
    if (child.exitCode !== null || child.signalCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`crash-serve printed no URL: ${out}`);
    }
    await sleep(50);
  }
}

async function api(url: string, key: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : {}) as Json };
}

async function setUp(env: Record<string, string>, key: string, targetUrl: string) {
  const server = await serve(env, 0);
  try {
    const call = async (method: string, path: string, body: unknown) => {
      const res = await api(server.url, key, method, path, body);
      if (res.status !== 201) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body;
    };
    await call('POST', '/v1/blueprints', { slug: 'svc', name: 'Service' });
    const entity = await call('POST', '/v1/blueprints/svc/entities', { slug: 'shop', name: 'Shop' });
    const pull: { id: string; threshold: number; inCell: boolean }[] = [];
    for (const [i, [interval, threshold, period]] of PULL.entries()) {
      const check = await call('POST', '/v1/checks', {
        entity_id: entity.id,
        check_type: 'http',
        name: `pull ${i}`,
        target_url: `${targetUrl}/t/${period}`,
        interval_seconds: interval,
        failure_threshold: threshold,
      });
      pull.push({ id: String(check.id), threshold, inCell: true });
    }
    const push: string[] = [];
    for (let i = 0; i < PUSH_CHECKS; i += 1) {
      const check = await call('POST', '/v1/checks', {
        entity_id: entity.id,
        check_type: 'push',
        name: `push ${i}`,
        interval_seconds: 3600,
        failure_threshold: 2,
      });
      push.push(String(check.id));
    }
    return { pull, push };
  } finally {
    server.child.kill('SIGTERM');
    await server.exited;
  }
}

/** Posts results to the push checks (three failures, then two successes, over and over) until the server is gone. */
async function pushWhile(server: Served, key: string, ids: string[], pushed: Map<string, number>) {
  let alive = true;
  void server.exited.then(() => {
    alive = false;
  });
  for (let n = 0; alive; n += 1) {
    for (const id of ids) {
      const res = await api(server.url, key, 'POST', `/v1/checks/${id}/results`, {
        success: n % 5 >= 3,
        latency_ms: 1,
        error_message: n % 5 >= 3 ? '' : 'failing',
      }).catch(() => undefined);
      if (res?.status === 201) pushed.set(id, (pushed.get(id) ?? 0) + 1);
    }
    await sleep(150);
  }
}

/** One more start (in this process, scheduler off): it re-applies what the last kill left, then the replay. */
async function assess(
  dataDir: string,
  key: string,
  ids: { pull: { id: string; threshold: number; inCell: boolean }[]; push: string[] },
  pushed: Map<string, number>,
  figures: CrashFigures,
) {
  const config = { ...loadConfig('local', { VIGIL_BOOTSTRAP_KEY: key }), dataDir, port: 0 };
  const runtime = await startLocalRuntime({
    config,
    logger: silentLogger,
    host: '127.0.0.1',
    scheduler: false,
    actionSchedule: false,
  });
  try {
    await reapplyQueuedCellSlots({
      table: runtime.table,
      cells: runtime.cells,
      clock: systemClock,
      logger: silentLogger,
    });
    const all = <T>(path: string, field: string) => pages<T>(runtime.url, key, path, field);
    const checks = [...ids.pull, ...ids.push.map((id) => ({ id, threshold: 2, inCell: false }))];
    const tenantId = (await runtime.app.tenants.listTenants())[0]?.id ?? '';
    for (const { id, threshold, inCell } of checks) {
      const results = inCell
        ? await cellResultsOf(runtime.table, tenantId, id)
        : (await all<{ success: boolean; checked_at: string }>(`/v1/checks/${id}/results`, 'results'))
            .map((r) => ({ success: r.success, atMs: Date.parse(r.checked_at) }))
            .sort((a, b) => a.atMs - b.atMs);
      const stored = (
        await all<{ id: string; to_state: string }>(`/v1/checks/${id}/transitions`, 'transitions')
      )
        .reverse()
        .map((t) => ({ state: t.to_state, slotMs: idTime(t.id) }));
      const expected = replay(id, threshold, results);
      // A cell slot's transition is named after its slot: a move made by a later slot is a lost one.
      const matched = inCell
        ? matchBySlot(expected, stored)
        : matchInOrder(
            expected.map((m) => m.state),
            stored.map((t) => t.state),
          );
      figures.results += results.length;
      figures.expectedMoves += expected.length;
      figures.lostMoves += expected.length - matched;
      if (matched !== expected.length || matched !== stored.length)
        figures.mismatches.push(
          `check ${id} (threshold ${threshold}, ${inCell ? 'cell' : 'push'}): replayed ${expected
            .map((m) => `${m.state}@${m.atMs}`)
            .join(' ')}; stored ${stored.map((t) => `${t.state}@${t.slotMs}`).join(' ')}; results ${results
            .map((r) => `${r.success ? 'ok' : 'fail'}@${r.atMs}`)
            .join(' ')}`,
        );
      figures.unexpectedMoves += stored.length - matched;
      if (pushed.has(id)) figures.lostPushResults += Math.max(0, (pushed.get(id) ?? 0) - results.length);
    }
  } finally {
    await runtime.stop();
  }
}

async function pages<T>(url: string, key: string, path: string, field: string): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  do {
    const query = `?limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const res = await api(url, key, 'GET', `${path}${query}`);
    if (res.status !== 200) throw new Error(`GET ${path}: ${res.status}`);
    items.push(...((res.body[field] as T[] | undefined) ?? []));
    cursor = typeof res.body.next_cursor === 'string' ? res.body.next_cursor : undefined;
  } while (cursor);
  return items;
}

/** The moves a check's stored results make, from its first (unknown) state: each state and its result's slot (or time). */
function replay(
  id: string,
  threshold: number,
  results: { success: boolean; atMs: number }[],
): { state: string; atMs: number }[] {
  let states: Record<string, CheckStateSnapshot> = {};
  const moves: { state: string; atMs: number }[] = [];
  for (const result of results) {
    const slot = evaluateCellSlot(states, [{ check_id: id, success: result.success }], { [id]: threshold });
    states = slot.next;
    for (const t of slot.transitions) moves.push({ state: t.to, atMs: result.atMs });
  }
  return moves;
}

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** The time a ULID-shaped id carries (a cell transition's: its slot, see deterministicId). */
function idTime(id: string): number {
  const time = id.slice(id.indexOf('_') + 1, id.indexOf('_') + 11);
  return [...time].reduce((ms, c) => ms * 32 + CROCKFORD.indexOf(c), 0);
}

/** Expected moves found among the stored ones: the same state, made by the same slot. */
function matchBySlot(
  expected: { state: string; atMs: number }[],
  stored: { state: string; slotMs: number }[],
): number {
  const unused = [...stored];
  let matched = 0;
  for (const move of expected) {
    const at = unused.findIndex((t) => t.state === move.state && t.slotMs === move.atMs);
    if (at < 0) continue;
    unused.splice(at, 1);
    matched += 1;
  }
  return matched;
}

/** A pull check's stored results, oldest slot first: the check's entry of each of its cell's slots. */
async function cellResultsOf(
  table: Table,
  tenantId: string,
  checkId: string,
): Promise<{ success: boolean; atMs: number }[]> {
  const cell = (await getCheckDefinition(table, tenantId, checkId))?.cell;
  if (!cell) throw new Error(`check ${checkId} is in no cell`);
  const slots = await cellResultsBetween(table, cell.cell_id, {
    from: '2000-01-01T00:00:00.000Z',
    to: '2100-01-01T00:00:00.000Z',
    max: 100_000,
    consistent: true,
  });
  return slots.flatMap((slot) =>
    slot.results.filter((r) => r.c === checkId).map((r) => ({ success: r.ok, atMs: Date.parse(slot.slot) })),
  );
}

/** How many of `expected` appear in `stored` in the same order (a greedy subsequence match). */
function matchInOrder(expected: string[], stored: string[]): number {
  let j = 0;
  let matched = 0;
  for (const state of expected) {
    const at = stored.indexOf(state, j);
    if (at < 0) continue;
    matched += 1;
    j = at + 1;
  }
  return matched;
}
