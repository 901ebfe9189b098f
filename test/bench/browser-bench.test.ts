import { describe, expect, it } from 'vitest';
import { browserRunCost } from '../../bench/browser-cost.ts';
import { type ProcStat, pairRuns, parseStat, treeOf, treeTicks } from '../../bench/proc-tree.ts';
import { BROWSER_FUNCTION_MEMORY_MB } from '../../lib/cloud/browser-function.ts';

/** The pure parts of `--only browser` (reading /proc) and `--only browsercost` (pricing a run). */

const stat = (pid: number, ppid: number, own: number, reaped = 0, start = 0): ProcStat => ({
  pid,
  ppid,
  ownTicks: own,
  reapedTicks: reaped,
  startTicks: start,
});

describe('the process tree read from /proc', () => {
  it('reads parent, own and reaped CPU and the start tick from a stat line, whatever the name holds', () => {
    // pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime
    // cutime cstime priority nice threads itrealvalue starttime
    const line = '4242 (node (run) 1) S 77 4242 4242 0 -1 4194560 100 0 0 0 250 75 40 2 20 0 9 0 123456 0';

    expect(parseStat(line)).toEqual({
      pid: 4242,
      ppid: 77,
      ownTicks: 325,
      reapedTicks: 42,
      startTicks: 123456,
    });
  });

  it("counts the root's own and reaped CPU and every live descendant's, and nothing outside the tree", () => {
    const stats = [
      stat(1, 0, 5000),
      stat(10, 1, 100, 300),
      stat(11, 10, 50),
      stat(12, 11, 20, 7),
      stat(20, 1, 999),
    ];

    const tree = treeOf(10, stats);

    expect(tree.map((s) => s.pid)).toEqual([10, 11, 12]);
    expect(treeTicks(tree)).toBe(100 + 300 + 50 + 20 + 7);
    expect(treeOf(99, stats)).toEqual([]);
  });

  it('pairs the jobs in the order they were handed with the runs in the order they started', () => {
    const jobs = [
      { dueMs: 1000, handedMs: 1010 },
      { dueMs: 3000, handedMs: 3005 },
      { dueMs: 2000, handedMs: 2002 },
    ];

    expect(pairRuns(jobs, [3500, 1200])).toEqual([
      { dueMs: 1000, startMs: 1200 },
      { dueMs: 2000, startMs: 3500 },
    ]);
  });
});

describe('the price of a browser run', () => {
  it('bills the run time at the function’s memory on x86_64, the invocation, SQS, the write and failing screenshots', () => {
    const cost = browserRunCost({ runMs: 3000, resultBytes: 1500, screenshotBytes: 50_000, failureRate: 0 });

    expect(BROWSER_FUNCTION_MEMORY_MB).toBe(2048);
    // 2 GB × 3 s × $0.0000166667 × 1,000 runs.
    expect(cost.lambdaCompute).toBeCloseTo(0.1000002, 6);
    expect(cost.invocation).toBeCloseTo(0.0002, 8);
    expect(cost.sqs).toBeCloseTo(0.0012, 8);
    // 2 KB of result and the state item: 3 WRU at $0.625 per million.
    expect(cost.writeUnits).toBe(3);
    expect(cost.resultWrite).toBeCloseTo(0.001875, 8);
    expect(cost.screenshots).toBe(0);
    expect(cost.total).toBeCloseTo(0.1000002 + 0.0002 + 0.0012 + 0.001875, 6);
  });

  it('adds a PUT and a month of storage for each failing run', () => {
    const none = browserRunCost({
      runMs: 1000,
      resultBytes: 100,
      screenshotBytes: 1024 ** 3,
      failureRate: 0,
    });
    const half = browserRunCost({
      runMs: 1000,
      resultBytes: 100,
      screenshotBytes: 1024 ** 3,
      failureRate: 0.5,
    });

    // 500 failing runs: 500 × ($0.005 / 1,000 + 1 GB × $0.023).
    expect(half.screenshots).toBeCloseTo(500 * (0.000005 + 0.023), 6);
    expect(half.total - none.total).toBeCloseTo(half.screenshots, 6);
  });
});
