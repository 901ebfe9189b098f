/**
 * Coverage of lib/ by folder and by engine adapter, as Markdown tables (CONTRIBUTING.md "Coverage").
 *
 *   npm run coverage                                   # the suite with v8 coverage, then the tables
 *   npx tsx bin/coverage-tables.ts <summary.json> [--before <summary.json> --before-rev <rev>]
 *
 * A summary is vitest's `json-summary` report (`coverage/coverage-summary.json`). With a summary of
 * an earlier commit, each table gets a column for it: a file that has moved since is counted where
 * it is now (git's rename detection between `--before-rev` and HEAD), so a folder's two figures
 * cover the same code.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import * as z from 'zod';

const Count = z.object({ total: z.number(), covered: z.number() });
const Summary = z.record(z.string(), z.object({ lines: Count, branches: Count }));
type Counts = { lines: z.infer<typeof Count>; branches: z.infer<typeof Count> };

/** The engine adapters: each port's local and cloud implementations, by path prefix under lib/. */
const ADAPTERS: [port: string, engine: string, prefixes: string[]][] = [
  ['table', 'SQLite', ['sqlite/']],
  ['table', 'DynamoDB', ['dynamodb/']],
  ['job queue', 'SQLite', ['local/sqlite-job-queue.ts', 'local/job-queue-', 'local/job-runner.ts']],
  ['job queue', 'SQS', ['cloud/queues/sqs-', 'cloud/queues/notify-queue.ts', 'cloud/queues/action-queue.ts']],
  ['change feed', 'SQLite outbox', ['local/change-pump.ts']],
  ['change feed', 'DynamoDB Streams', ['events/stream-handler.ts', 'events/stream-record.ts']],
  ['HTTP edge', 'node:http', ['local/http-server.ts', 'local/connection-limits.ts']],
  ['HTTP edge', 'Lambda', ['lambda-http/', 'cloud/edge/lambda-edge.ts', 'cloud/edge/function-url-stream.ts']],
  ['schedule', 'timer heap', ['local/scheduler.ts', 'local/tick-loop.ts', 'local/timer-heap.ts']],
  ['schedule', 'EventBridge generator', ['cloud/workers/generator']],
  ['dead letters', 'SQLite', ['local/dlq-redrive.ts']],
  ['dead letters', 'SQS', ['cloud/queues/dlq-redrive.ts']],
];

/** Per file under lib/ (a path relative to lib/), its line and branch counts. */
function read(path: string, renamed: Map<string, string> = new Map()): Map<string, Counts> {
  const summary = Summary.parse(JSON.parse(readFileSync(path, 'utf8')));
  const files = new Map<string, Counts>();
  for (const [file, counts] of Object.entries(summary)) {
    const at = file.lastIndexOf('/lib/');
    if (file === 'total' || at < 0) continue;
    const rel = file.slice(at + '/lib/'.length);
    files.set(renamed.get(rel) ?? rel, counts);
  }
  return files;
}

/** Files renamed under lib/ between `rev` and HEAD: old path → new path, both relative to lib/. */
function renamesSince(rev: string): Map<string, string> {
  const out = execFileSync('git', ['diff', '-M', '--name-status', rev, 'HEAD', '--', 'lib'], {
    encoding: 'utf8',
  });
  const renames = new Map<string, string>();
  for (const line of out.split('\n')) {
    const [status, from, to] = line.split('\t');
    if (status?.startsWith('R') && from && to) renames.set(from.slice(4), to.slice(4));
  }
  return renames;
}

const folderOf = (file: string) => (file.includes('/') ? `${file.split('/')[0]}/` : '(lib root)');

function add(into: Map<string, Counts>, key: string, counts: Counts): void {
  const sum = into.get(key) ?? { lines: { total: 0, covered: 0 }, branches: { total: 0, covered: 0 } };
  sum.lines.total += counts.lines.total;
  sum.lines.covered += counts.lines.covered;
  sum.branches.total += counts.branches.total;
  sum.branches.covered += counts.branches.covered;
  into.set(key, sum);
}

function grouped(files: Map<string, Counts>, groupOf: (file: string) => string[]): Map<string, Counts> {
  const groups = new Map<string, Counts>();
  for (const [file, counts] of files) for (const group of groupOf(file)) add(groups, group, counts);
  return groups;
}

const pct = (c: { total: number; covered: number } | undefined) =>
  c === undefined ? '–' : c.total === 0 ? '100.0' : ((100 * c.covered) / c.total).toFixed(1);

function table(title: string, after: Map<string, Counts>, before: Map<string, Counts> | undefined): string {
  const head = before
    ? `| ${title} | lines | lines before | branches | branches before |\n| --- | ---: | ---: | ---: | ---: |`
    : `| ${title} | lines | branches |\n| --- | ---: | ---: |`;
  const rows = [...after.keys()].sort().map((key) => {
    const a = after.get(key);
    const b = before?.get(key);
    return before
      ? `| ${key} | ${pct(a?.lines)} | ${pct(b?.lines)} | ${pct(a?.branches)} | ${pct(b?.branches)} |`
      : `| ${key} | ${pct(a?.lines)} | ${pct(a?.branches)} |`;
  });
  return [head, ...rows].join('\n');
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { before: { type: 'string' }, 'before-rev': { type: 'string' } },
});
const afterPath = positionals[0] ?? 'coverage/coverage-summary.json';
const after = read(afterPath);
const before = values.before
  ? read(values.before, values['before-rev'] ? renamesSince(values['before-rev']) : undefined)
  : undefined;

const byFolder = (files: Map<string, Counts>) => grouped(files, (file) => [folderOf(file)]);
const byAdapter = (files: Map<string, Counts>) =>
  grouped(files, (file) =>
    ADAPTERS.filter(([, , prefixes]) => prefixes.some((p) => file.startsWith(p))).map(
      ([port, engine]) => `${port}: ${engine}`,
    ),
  );

console.log(table('lib folder', byFolder(after), before && byFolder(before)));
console.log();
console.log(table('engine adapter', byAdapter(after), before && byAdapter(before)));
