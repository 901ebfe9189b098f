import { z } from 'zod';
import { CELL_SIZE } from '../lib/domain/schedules.ts';

/**
 * The deployment's capacity plan, derived at synth from what it expects to run (docs/performance.md
 * "Scale model (cloud)"): the worker's concurrency from the cells due each minute, the due shards
 * the generator reads, how many scheduler targets split them, and every function's reserved
 * concurrency, checked against the account's concurrency so the deploy cannot fail on it.
 */

/**
 * A cell slot's worker time: its up to 100 probes run together, so the slowest answer plus the
 * result's writes. ~1 s for a healthy fleet (measured, docs/performance.md); twice that leaves room
 * for slow targets before a backlog builds.
 */
const CELL_SLOT_SECONDS = 2;
/** Pull checks one due shard carries: its cells (100 checks each) are one partition the generator reads. */
const CHECKS_PER_SHARD = 100_000;
/**
 * Due shards one generator invocation reads (one scheduler target each group). A group's cells at
 * CHECKS_PER_SHARD take a few seconds of the generator's minute (the per-cell time, measured by
 * `npm run bench -- --only generator`).
 */
const SHARDS_PER_GROUP = 4;
/** Lambda's quota of an SQS event source's maximum concurrency. */
const SQS_MAX_CONCURRENCY = 1_000;
/** Concurrency Lambda keeps unreserved in every account: reservations must leave it. */
const UNRESERVED_MINIMUM = 100;

/** Reserved concurrency of the functions whose load does not grow with the checks. */
export const FIXED_CONCURRENCY = {
  /** The stream function: one per stream shard in flight (the table's partitions), with room. */
  stream: 20,
  /** The notifier: at most this many batches of 10 alerts at once (its event source's maximum too). */
  notifier: 20,
  /** The action worker: outbound calls of actions (its event source's maximum too). */
  actions: 20,
  /** MCP: a legacy SSE client holds one for up to 15 minutes; the cap keeps abuse off the others. */
  mcp: 20,
  /**
   * The ping function (infra/ping.ts): pings handled at once, ~20-40 ms each, so a few thousand a
   * second; past it the function URL answers 429 and cron clients retry (docs/aws.md "Ping URLs").
   */
  ping: 200,
  /** The status stream: one per open console tab (each holds one up to its stream's end). */
  statusStream: 100,
  /**
   * The configuration function: an apply holds one for up to its timeout (infra/config-docs.ts),
   * and applies are rare admin operations; the cap keeps a burst of them off the others.
   */
  config: 10,
  /**
   * The browser function: Chromium runs at once, each a 2 GB instance for up to a minute and a half;
   * browser checks run at most once a minute, most runs take seconds.
   */
  browser: 10,
  /**
   * The draft browser function: a browser check's draft run from the console's Run now (up to 25 s
   * each, answered to the api function); more at once are throttled and answered as such.
   */
  draftBrowser: 4,
} as const;

/** The default plan's checks: 1,500 cells, 50 workers (the fixed maximum before plans). */
const DEFAULT_EXPECTED_CHECKS = 150_000;

const planSchema = z.object({
  expectedChecks: z.coerce.number().int().min(1).max(10_000_000).default(DEFAULT_EXPECTED_CHECKS),
  expectedCells: z.coerce.number().int().min(1).optional(),
  dueShards: z.coerce.number().int().min(1).max(256).default(4),
  accountConcurrency: z.coerce.number().int().min(1).default(1_000),
});

export interface CapacitySettings {
  /** `vigil:expectedChecks`: pull checks at a 1-minute interval the deployment must run (default 150,000). */
  expectedChecks?: string | number | undefined;
  /** `vigil:expectedCells`: their cells, when tenants' cells are far from full (default checks / 100). */
  expectedCells?: string | number | undefined;
  /** `vigil:dueShards`: VIGIL_DUE_SHARDS (default 4; only ever raise it). */
  dueShards?: string | number | undefined;
  /** `vigil:accountConcurrency`: the account's Lambda concurrency quota in the region (default 1,000). */
  accountConcurrency?: string | number | undefined;
}

export interface CapacityPlan {
  expectedChecks: number;
  cells: number;
  /** The worker's reserved concurrency and its event source's maximum (one cell slot each). */
  workerConcurrency: number;
  dueShards: number;
  /** Shard ranges [from, to), one scheduler target (generator invocation) each. */
  shardGroups: { from: number; to: number }[];
  /** Every function's reserved concurrency, by construct name. */
  reserved: Record<'worker' | keyof typeof FIXED_CONCURRENCY, number>;
}

const contextKey: Record<string, string> = {
  expectedChecks: 'vigil:expectedChecks',
  expectedCells: 'vigil:expectedCells',
  dueShards: 'vigil:dueShards',
  accountConcurrency: 'vigil:accountConcurrency',
};

function fail(lines: string[]): never {
  throw new Error(`invalid deployment settings:\n${lines.map((l) => `  ${l}`).join('\n')}`);
}

/** The plan for `settings`, or an error naming the context key to change. */
export function capacityPlan(settings: CapacitySettings = {}): CapacityPlan {
  const parsed = planSchema.safeParse(settings);
  if (!parsed.success)
    fail(
      parsed.error.issues.map((i) => `${contextKey[String(i.path[0])] ?? i.path.join('.')}: ${i.message}`),
    );
  const { expectedChecks, dueShards, accountConcurrency } = parsed.data;
  const cells = parsed.data.expectedCells ?? Math.ceil(expectedChecks / CELL_SIZE);
  // Every cell has a slot each minute at a 1-minute interval: the worker runs them within the minute.
  const workerConcurrency = Math.max(10, Math.ceil((cells * CELL_SLOT_SECONDS) / 60));
  if (workerConcurrency > SQS_MAX_CONCURRENCY)
    fail([
      `vigil:expectedChecks: ${cells} cells a minute need ${workerConcurrency} concurrent workers, past an SQS event source's ${SQS_MAX_CONCURRENCY}`,
    ]);
  const neededShards = Math.ceil(expectedChecks / CHECKS_PER_SHARD);
  if (neededShards > dueShards)
    fail([
      `vigil:dueShards: ${expectedChecks} checks need at least ${neededShards} due shards (${CHECKS_PER_SHARD} each); set -c vigil:dueShards=${neededShards} (only ever raise it)`,
    ]);
  const shardGroups: { from: number; to: number }[] = [];
  for (let from = 0; from < dueShards; from += SHARDS_PER_GROUP)
    shardGroups.push({ from, to: Math.min(dueShards, from + SHARDS_PER_GROUP) });
  const reserved = { worker: workerConcurrency, ...FIXED_CONCURRENCY };
  const total = Object.values(reserved).reduce((a, b) => a + b, 0);
  if (total > accountConcurrency - UNRESERVED_MINIMUM)
    fail([
      `vigil:accountConcurrency: the functions reserve ${total} concurrent executions; the account's ${accountConcurrency} must leave ${UNRESERVED_MINIMUM} unreserved (ask for a higher Lambda concurrency quota, then set -c vigil:accountConcurrency=<quota>)`,
    ]);
  return { expectedChecks, cells, workerConcurrency, dueShards, shardGroups, reserved };
}
