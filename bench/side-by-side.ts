import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { AlertFigures } from './alerts.ts';
import { table } from './markdown.ts';
import type { RuntimeFigures } from './probes.ts';
import type { PushFigures } from './push.ts';
import { round } from './stats.ts';

/**
 * `--against <dir or commit>`: the maximum-rate, push and alerts scenarios run again on another checkout (its own
 * bench children, runtime and bin/serve.ts, e.g. a `git worktree` of the previous commit) in the
 * same run, `--rounds` times each, the order alternating (this, other; other, this; ...), so both
 * sides see the same machine and the same noise.
 */

export type Side = 'this' | 'against';

export interface Checkout {
  dir: string;
  commit: string;
}

export interface SideBySide {
  this: Checkout;
  against?: Checkout;
  max: Record<Side, RuntimeFigures[]>;
  push: Record<Side, PushFigures[]>;
  alerts: Record<Side, AlertFigures[]>;
}

/** A checkout's directory and short commit (`unknown` when git cannot tell). */
export function describeCheckout(dir: string): Checkout {
  const abs = resolve(dir);
  try {
    const commit = execFileSync('git', ['-C', abs, 'rev-parse', '--short', 'HEAD'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    return { dir: abs, commit: commit.trim() };
  } catch {
    return { dir: abs, commit: 'unknown' };
  }
}

/**
 * The `--against` checkout: a directory as it is (a worktree of another commit, node_modules
 * linked), or else a commit of this repository, unpacked with `git archive` into a temporary
 * directory with this checkout's node_modules linked; `remove` deletes that directory again.
 */
export function prepareAgainst(arg: string, repo: string): Checkout & { remove(): void } {
  if (existsSync(arg) && statSync(arg).isDirectory()) return { ...describeCheckout(arg), remove: () => {} };
  const git = (args: string[]) => execFileSync('git', ['-C', repo, ...args], { maxBuffer: 1 << 30 });
  let commit: string;
  try {
    commit = git(['rev-parse', '--verify', '--quiet', `${arg}^{commit}`])
      .toString('utf8')
      .trim();
  } catch {
    throw new Error(`--against ${arg}: neither a directory nor a commit of ${repo}`);
  }
  const dir = mkdtempSync(join(tmpdir(), `vigil-against-${commit.slice(0, 7)}-`));
  try {
    execFileSync('tar', ['-x', '-C', dir], { input: git(['archive', '--format=tar', commit]) });
    symlinkSync(join(repo, 'node_modules'), join(dir, 'node_modules'), 'dir');
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return { dir, commit: commit.slice(0, 7), remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export function emptySideBySide(thisDir: string, against: Checkout | undefined): SideBySide {
  return {
    this: describeCheckout(thisDir),
    ...(against ? { against: { dir: against.dir, commit: against.commit } } : {}),
    max: { this: [], against: [] },
    push: { this: [], against: [] },
    alerts: { this: [], against: [] },
  };
}

/** The sides of each round in order: this first in even rounds, the other checkout first in odd ones. */
export function roundOrder(rounds: number, against: boolean): Side[] {
  const order: Side[] = [];
  for (let r = 0; r < rounds; r += 1) {
    if (!against) order.push('this');
    else order.push(...(r % 2 === 0 ? (['this', 'against'] as const) : (['against', 'this'] as const)));
  }
  return order;
}

/** A run's flapping round in a word: settled down of expected, and the p99 wait; why not when absent. */
const flapCell = (a: AlertFigures) =>
  a.flapping
    ? `${a.flapping.settled.rightState}/${a.flapping.settled.expected}, ${round(a.flapping.settled.afterLastChangeMs.p99 / 1000, 1)}`
    : a.flapSettings
      ? 'not run'
      : 'no flap settings';

const mean = (values: number[]) => values.reduce((s, v) => s + v, 0) / Math.max(1, values.length);

/** The push level run at `concurrency` in each run of a side. */
const pushLevels = (runs: PushFigures[], concurrency: number) =>
  runs.flatMap((r) => r.levels.filter((l) => l.concurrency === concurrency));

/** The side-by-side tables: every run, then each side's mean and this side's change against the other. */
export function formatSideBySide(s: SideBySide, ceiling: number | undefined): string {
  const out: string[] = [];
  const name = (side: Side) =>
    side === 'this' ? `this (${s.this.commit})` : `against (${s.against?.commit ?? '-'})`;
  const sides: Side[] = s.against ? ['this', 'against'] : ['this'];
  if (s.max.this.length + s.max.against.length > 0) {
    const cpu = (r: RuntimeFigures) =>
      Math.round(
        (Object.values(r.threadCores).reduce((a, b) => a + b, 0) * 1e6) / Math.max(1, r.probesPerSecond),
      );
    out.push('\nMaximum rate, side by side (results/s counted per check in either layout):\n');
    out.push(
      table(
        ['side', 'runs: results/s', 'mean', 'vs bare', 'µs CPU per probe (mean)'],
        sides.map((side) => {
          const runs = s.max[side];
          const m = mean(runs.map((r) => r.resultsPerSecond));
          return [
            name(side),
            runs.map((r) => Math.round(r.resultsPerSecond)).join(', '),
            Math.round(m),
            ceiling ? `${Math.round((m / ceiling) * 100)}%` : '-',
            Math.round(mean(runs.map(cpu))),
          ];
        }),
      ),
    );
  }
  const levels = [
    ...new Set([...s.push.this, ...s.push.against].flatMap((r) => r.levels.map((l) => l.concurrency))),
  ];
  if (levels.length > 0) {
    out.push('\nPush ingestion, side by side:\n');
    out.push(
      table(
        ['in flight', 'side', 'runs: results/s', 'mean', 'p99 ms (runs)', 'µs server CPU per result (mean)'],
        levels.flatMap((c) =>
          sides.map((side) => {
            const runs = pushLevels(s.push[side], c);
            return [
              c,
              name(side),
              runs.map((l) => Math.round(l.vigil.requestsPerSecond)).join(', '),
              Math.round(mean(runs.map((l) => l.vigil.requestsPerSecond))),
              runs.map((l) => round(l.vigil.latencyMs.p99, 1)).join(', '),
              Math.round(
                mean(
                  runs.map((l) => (l.vigil.serverCpuCores * 1e6) / Math.max(1, l.vigil.requestsPerSecond)),
                ),
              ),
            ];
          }),
        ),
      ),
    );
  }
  const alerts = (side: Side) => s.alerts[side] ?? [];
  if (alerts('this').length + alerts('against').length > 0) {
    out.push(
      "\nAlerts, side by side (ms from the 201 to the receiver's read; bare: fresh HTTPS POSTs in the same run):\n",
    );
    out.push(
      table(
        [
          'side',
          'p99 ms (runs)',
          'p50 ms (runs)',
          'bare p99 ms (runs)',
          'bare p99 / p99 (runs)',
          'ms server CPU per alert (mean)',
          'flapping: settled down, s after the last change (runs)',
        ],
        sides.map((side) => {
          const runs = alerts(side);
          return [
            name(side),
            runs.map((a) => round(a.from201Ms.p99)).join(', '),
            runs.map((a) => round(a.from201Ms.p50)).join(', '),
            runs.map((a) => round(a.bare.latencyMs.p99)).join(', '),
            runs.map((a) => round(a.bare.latencyMs.p99 / Math.max(0.001, a.from201Ms.p99), 1)).join(', '),
            round(mean(runs.map((a) => a.serverCpuMsPerAlert)), 2),
            runs.map(flapCell).join(', '),
          ];
        }),
      ),
    );
  }
  return out.join('\n');
}
