import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';
import { TIERS, type Tier } from '../tiers.ts';
import { LONG_FILES } from './long-first-sequencer.ts';

/**
 * Each tier's budget: the files' own times summed, in seconds, as the fresh-clone CI run of
 * ce89f0ea measured them on the 2-core machine (docs/performance.md, the suite row). A tier over
 * its budget is reported, never failed: a run's time is the machine's as much as the code's.
 */
export const TIER_BUDGETS: Record<Tier, number> = {
  unit: 86,
  api: 809,
  cloud: 528,
  browser: 1278,
  system: 2077,
};

/** A file that takes this long belongs in LONG_FILES, so its tier starts it first. */
const LONG_FILE_SECONDS = 20;

export interface FileTime {
  tier: Tier;
  /** The path from the repository's root. */
  file: string;
  seconds: number;
}

/** The report's lines: each tier that ran, its own time beside its budget; then the long files LONG_FILES lacks. */
export function tierReport(times: readonly FileTime[]): string[] {
  const lines = ['Tiers (files\u2019 own times summed, against the budget of test/support/tier-report.ts):'];
  for (const tier of TIERS) {
    const files = times.filter((t) => t.tier === tier);
    if (files.length === 0) continue;
    const seconds = Math.round(files.reduce((sum, t) => sum + t.seconds, 0));
    const budget = TIER_BUDGETS[tier];
    const verdict = seconds > budget ? `OVER BUDGET by ${seconds - budget} s` : 'within budget';
    lines.push(
      `  ${tier.padEnd(8)} ${String(seconds).padStart(5)} s of ${budget} s, ${files.length} files: ${verdict}`,
    );
  }
  const unlisted = times
    .filter((t) => t.seconds >= LONG_FILE_SECONDS && LONG_FILES[t.file] === undefined)
    .sort((a, b) => b.seconds - a.seconds);
  if (unlisted.length > 0) {
    lines.push(
      `Files of ${LONG_FILE_SECONDS} s or more missing from LONG_FILES (test/support/long-first-sequencer.ts):`,
    );
    for (const t of unlisted) lines.push(`  ${t.file} (${t.tier}): ${Math.round(t.seconds)} s`);
  }
  return lines;
}

/**
 * A vitest reporter: at the end of a run, each tier's own time beside its budget and the files over
 * the long-file bound that the sequencer does not know; also written to test-artifacts/tier-times.json.
 */
export default class TierReport implements Reporter {
  private readonly times: FileTime[] = [];

  onTestModuleEnd(module: TestModule): void {
    const d = module.diagnostic();
    const root = `${module.project.config.root}/`;
    this.times.push({
      tier: module.project.name as Tier,
      file: module.moduleId.replace(root, ''),
      seconds: (d.prepareDuration + d.collectDuration + d.setupDuration + d.duration) / 1000,
    });
  }

  onTestRunEnd(): void {
    if (this.times.length === 0) return;
    const out = join(process.cwd(), 'test-artifacts');
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, 'tier-times.json'), `${JSON.stringify(this.times, null, 2)}\n`);
    console.log(`\n${tierReport(this.times).join('\n')}`);
  }
}
