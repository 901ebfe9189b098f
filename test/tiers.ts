import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/**
 * The test tiers (CONTRIBUTING.md "Tiers"): a test file's tier follows from what it uses, read from
 * its imports, so a new file lands in its tier without a list to keep. In order, the first that
 * holds:
 * - browser: it drives the console in Chromium (imports test/console/support.ts or playwright-core);
 * - system: it runs real processes or waits out real time (imports node:child_process, or a support
 *   module that starts Vigil's processes: SYSTEM_SUPPORT), or is named in SYSTEM_FILES;
 * - cloud: it lives in test/cloud, test/infra or test/streams (the Lambda handlers over DynamoDB
 *   Local and the queue engine; the stack), or runs the Lambda harness or both runtimes itself
 *   (`startLambdaHarness`, `bothRuntimes`: a contract whose behaviour differs by engine);
 * - api: it reaches, through test helpers, a harness that runs the app (HARNESSES), imports the
 *   local runtime or the app itself, or makes tables on DynamoDB Local (`inject('dynamodbEndpoint')`);
 * - cloud too: it reaches a helper of the cloud path without a harness (CLOUD_SUPPORT);
 * - unit: the rest (pure logic, in-memory tables, loopback fixtures).
 */
export const TIERS = ['unit', 'api', 'cloud', 'browser', 'system'] as const;
export type Tier = (typeof TIERS)[number];

const root = resolve(dirname(new URL(import.meta.url).pathname), '..');

/** Support modules whose users run Vigil's own processes (a server, an agent, a kill round, a cost run). */
const SYSTEM_SUPPORT = [
  'test/support/serve-process.ts',
  'test/support/agent-process.ts',
  'test/support/crash-rounds.ts',
  'test/support/cost-run.ts',
  'test/support/ping-cost-run.ts',
  'test/support/location-cost-run.ts',
  'test/support/netns.ts',
  // Its users run browser checks: each run a child process with its own Chromium (lib/probes/browser-runner.ts).
  'test/check-types/support/browser-site.ts',
];

/** Files of the system tier whose imports do not say so: they stop and start a real store. */
const SYSTEM_FILES = ['test/cloud/store-outage.test.ts'];

/** Helpers that run the app (on SQLite, or on DynamoDB Local and the queue engine). */
const HARNESSES = [
  'test/support/api-harness.ts',
  'test/support/dynamodb-local.ts',
  'test/notify/support/flow-harness.ts',
  'lib/local/runtime.ts',
  'lib/app.ts',
];

const CLOUD_FOLDERS = ['test/cloud/', 'test/infra/', 'test/streams/'];

/**
 * A file that runs the Lambda path itself: the Lambda harness, or both runtimes (`bothRuntimes`, a
 * contract whose behaviour differs by engine; `mailRigs` and `lambdaMailRig`, the e-mail rigs of
 * test/support/mail-rigs.ts). The api tier's `runtimes` is the local runtime only.
 */
const LAMBDA_PATH = /\b(?:bothRuntimes|startLambdaHarness|mailRigs|lambdaMailRig)\b/;

/** Helpers of the cloud path: the queue engine, the stack's synth, the Lambda context and stream events. */
const CLOUD_SUPPORT = [
  'test/support/fauxqs.ts',
  'test/infra/synth.ts',
  'test/support/lambda-context.ts',
  'test/support/dynamodb-stream.ts',
  'test/support/sqs-event-source.ts',
];

const IMPORT = /^\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|^\s*import\s+['"]([^'"]+)['"]/gm;

/** A file's import specifiers, each relative one resolved to a root-relative path. */
function importsOf(path: string): string[] {
  const source = readFileSync(join(root, path), 'utf8');
  const out: string[] = [];
  for (const match of source.matchAll(IMPORT)) {
    const spec = match[1] ?? match[2] ?? '';
    out.push(spec.startsWith('.') ? relative(root, resolve(dirname(join(root, path)), spec)) : spec);
  }
  return out;
}

/** Every module a file reaches through test helpers (relative imports under test/), and the packages and lib files they import. */
function reachOf(path: string, seen = new Map<string, string[]>()): Set<string> {
  const reached = new Set<string>();
  const stack = [path];
  while (stack.length > 0) {
    const at = stack.pop() ?? '';
    let imports = seen.get(at);
    if (!imports) {
      imports = importsOf(at);
      seen.set(at, imports);
    }
    for (const spec of imports) {
      if (reached.has(spec)) continue;
      reached.add(spec);
      if (spec.startsWith('test/') && spec.endsWith('.ts')) stack.push(spec);
    }
  }
  return reached;
}

/** The tier of one test file (a root-relative path). */
export function tierOf(path: string, seen = new Map<string, string[]>()): Tier {
  const reached = reachOf(path, seen);
  const direct = seen.get(path) ?? [];
  const source = readFileSync(join(root, path), 'utf8');
  const usesDynamoDb = source.includes("inject('dynamodbEndpoint')");
  if (reached.has('test/console/support.ts') || direct.includes('playwright-core')) return 'browser';
  if (
    SYSTEM_FILES.includes(path) ||
    direct.includes('node:child_process') ||
    SYSTEM_SUPPORT.some((s) => reached.has(s))
  )
    return 'system';
  if (CLOUD_FOLDERS.some((folder) => path.startsWith(folder))) return 'cloud';
  if (LAMBDA_PATH.test(source)) return 'cloud';
  if (usesDynamoDb || HARNESSES.some((h) => reached.has(h))) return 'api';
  if (CLOUD_SUPPORT.some((s) => reached.has(s))) return 'cloud';
  return 'unit';
}

function testFiles(dir = 'test'): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === 'fixtures' ? [] : testFiles(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** Every test file by tier, each path relative to the repository's root. */
export function testFilesByTier(): Record<Tier, string[]> {
  const seen = new Map<string, string[]>();
  const byTier = Object.fromEntries(TIERS.map((t) => [t, [] as string[]])) as Record<Tier, string[]>;
  for (const path of testFiles().sort()) byTier[tierOf(path, seen)].push(path);
  return byTier;
}
