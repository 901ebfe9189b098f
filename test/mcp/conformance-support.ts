import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as z from 'zod';

/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance) run against a server URL
 * as its CLI runs it: what it printed, its exit code, and the checks each scenario wrote.
 */

const CLI = fileURLToPath(import.meta.resolve('@modelcontextprotocol/conformance/dist/index.js'));

/** The revisions /v1/mcp speaks and the suite scores. */
export const REVISIONS = ['2026-07-28', '2025-11-25'] as const;
type Revision = (typeof REVISIONS)[number];

const checkSchema = z.object({
  id: z.string(),
  status: z.string(),
  errorMessage: z.string().optional(),
});
type Check = z.infer<typeof checkSchema>;

export interface ConformanceRun {
  /** 0: every scenario passed or failed as the expected-failures file says. */
  exitCode: number;
  /** The CLI's summary and any unexpected or stale entries it named. */
  output: string;
  /** Each scenario's checks, by scenario name. */
  scenarios: Map<string, Check[]>;
}

export interface RunOptions {
  /** `--requirements <revision>`: every server scenario the revision requires, at its wire version. */
  requirements?: Revision;
  /** One scenario (`--scenario`). */
  scenario?: string;
  /** `--expected-failures <yaml>`: scenarios or checks that do not apply, each with why. */
  expectedFailures?: string;
  /** The bound on the whole run. */
  timeoutMs?: number;
}

/** Runs the suite's server mode against `url` and reads back what every scenario checked. */
export async function runConformance(url: string, options: RunOptions): Promise<ConformanceRun> {
  const out = mkdtempSync(join(tmpdir(), 'vigil-conformance-'));
  const args = [CLI, 'server', '--url', url, '-o', out];
  if (options.requirements !== undefined) args.push('--requirements', options.requirements);
  if (options.scenario !== undefined) args.push('--scenario', options.scenario);
  if (options.expectedFailures !== undefined) args.push('--expected-failures', options.expectedFailures);
  try {
    const { exitCode, output } = await new Promise<{ exitCode: number; output: string }>((resolve) => {
      execFile(
        process.execPath,
        args,
        { timeout: options.timeoutMs ?? 240_000, maxBuffer: 64 * 1024 * 1024 },
        (error, stdout, stderr) => {
          const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
          resolve({ exitCode: code, output: `${stdout}\n${stderr}` });
        },
      );
    });
    const scenarios = new Map<string, Check[]>();
    for (const run of readdirSync(out)) {
      // Each scenario writes <out>/server-<scenario>-<ISO time with dashes>/checks.json.
      const scenario = /^server-(.+)-\d{4}-\d\d-\d\dT[\d-]+Z$/.exec(run)?.[1] ?? run;
      const file = join(out, run, 'checks.json');
      scenarios.set(scenario, z.array(checkSchema).parse(JSON.parse(readFileSync(file, 'utf8'))));
    }
    return { exitCode, output, scenarios };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}
