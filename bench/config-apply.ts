import { CONFIG_FUNCTION_TIMEOUT_MS } from '../infra/config-docs.ts';
import { type ApiHarness, startLambdaHarness, startLocalHarness } from '../test/support/api-harness.ts';
import { startDynamoDbLocal } from '../test/support/dynamodb-local.ts';
import { table } from './markdown.ts';
import { round } from './stats.ts';

/**
 * `--only config-apply` (issue 42 item 2): creating N push checks through one
 * `POST /v1/config/apply` against N `POST /v1/checks`, one by one, at the product's default rate
 * limit (each 429 waited out after its Retry-After), in the local runtime (real HTTP on 127.0.0.1)
 * and the cloud (the API Lambda through the harness, over a DynamoDB Local of its own).
 *
 * Each measurement runs in a tenant of its own whose entities are made first and not timed (20
 * checks per entity, the default plan's check_limit_per_entity). One by one is bounded by
 * `oneByOneMax`: past it, the first `oneByOneMax` checks are measured and the time for the rest is
 * extrapolated at the rate of the measured second half (the bucket's burst of 100 is spent in the
 * first), and the row says so.
 */

/** The product's default rate limit (lib/platform/config.ts); the harnesses turn it off unless given. */
export const DEFAULT_RATE_LIMIT = { VIGIL_RATE_LIMIT_RPS: '20', VIGIL_RATE_LIMIT_BURST: '100' };
const CHECKS_PER_ENTITY = 20;
/** One apply call may take long (10,000 objects); a bound so a stuck engine fails the run. */
const APPLY_TIMEOUT_MS = 30 * 60_000;

type ConfigApplyRuntime = 'local' | 'cloud';

export interface ConfigApplyRun {
  runtime: ConfigApplyRuntime;
  method: 'apply' | 'one-by-one';
  checks: number;
  /** Checks actually created and timed (less than `checks` when one by one was bounded). */
  measured: number;
  seconds: number;
  /** `seconds` for `checks`, extrapolated when fewer were measured. */
  secondsForAll: number;
  calls: number;
  throttled: number;
}

export interface ConfigApplyOptions {
  counts: number[];
  oneByOneMax: number;
  runtimes: ConfigApplyRuntime[];
  /** Both by default; a test may run one. */
  methods?: ConfigApplyRun['method'][];
  /** The cloud's DynamoDB Local (tests pass the global setup's); default one started for the run. */
  dynamodbEndpoint?: string;
  onProgress: (line: string) => void;
}

const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));
const pad = (n: number) => String(n).padStart(5, '0');

interface Client {
  calls: number;
  throttled: number;
  send(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: unknown; text: string }>;
}

/** Requests as a client at the rate limit sends them: a 429 is waited out (Retry-After) and sent again. */
function clientOf(h: ApiHarness, key: string): Client {
  const client: Client = {
    calls: 0,
    throttled: 0,
    async send(method, path, body) {
      const deadline = Date.now() + APPLY_TIMEOUT_MS;
      for (;;) {
        client.calls += 1;
        const res = await h.request(method, path, { key, ...(body === undefined ? {} : { body }) });
        if (res.status !== 429) return res;
        client.throttled += 1;
        if (Date.now() > deadline)
          throw new Error(`${method} ${path}: still 429 after ${APPLY_TIMEOUT_MS} ms`);
        await sleep(Math.max(Number(res.headers['retry-after'] ?? '1'), 0.05) * 1000);
      }
    },
  };
  return client;
}

async function expectStatus(client: Client, status: number, method: string, path: string, body?: unknown) {
  const res = await client.send(method, path, body);
  if (res.status !== status)
    throw new Error(`${method} ${path} answered ${res.status}: ${res.text.slice(0, 300)}`);
  return res.body as Record<string, unknown>;
}

/** A fresh tenant with the blueprint and the entities `checks` checks need; answers its client and entity ids. */
async function tenantWithEntities(h: ApiHarness, label: string, checks: number) {
  const { key } = await h.createTenant(label);
  const client = clientOf(h, key);
  await expectStatus(client, 201, 'POST', '/v1/blueprints', { slug: 'service', name: 'Service' });
  const entityIds: string[] = [];
  for (let i = 0; i < Math.ceil(checks / CHECKS_PER_ENTITY); i += 1) {
    const made = await expectStatus(client, 201, 'POST', '/v1/blueprints/service/entities', {
      slug: `e${pad(i)}`,
      name: `Entity ${i}`,
    });
    entityIds.push(String(made.id));
  }
  return { client: clientOf(h, key), entityIds };
}

const checkName = (i: number) => `c${pad(i)}`;
const entityOf = (i: number) => Math.floor(i / CHECKS_PER_ENTITY);

/** The summary of an apply's answer: one JSON object, or the last line of a streamed (NDJSON) answer. */
function summaryOf(text: string): { created?: number; failed?: number } | undefined {
  const lines = text.trim().split('\n').filter(Boolean);
  for (const line of lines.reverse()) {
    try {
      const parsed = JSON.parse(line) as { summary?: { created?: number; failed?: number } };
      if (parsed.summary) return parsed.summary;
    } catch {
      // A line that is not JSON is progress text; the summary comes last.
    }
  }
  return undefined;
}

async function measureApply(
  h: ApiHarness,
  runtime: ConfigApplyRuntime,
  checks: number,
): Promise<ConfigApplyRun> {
  const { client } = await tenantWithEntities(h, `apply-${runtime}-${checks}`, checks);
  const document = {
    apiVersion: 'vigil/v1',
    kind: 'Config',
    checks: Array.from({ length: checks }, (_, i) => ({
      entity: `service/e${pad(entityOf(i))}`,
      check_type: 'push',
      name: checkName(i),
      interval_seconds: 300,
    })),
  };
  const started = performance.now();
  const res = await client.send('POST', '/v1/config/apply', document);
  const seconds = (performance.now() - started) / 1000;
  if (res.status !== 200)
    throw new Error(`POST /v1/config/apply answered ${res.status}: ${res.text.slice(0, 300)}`);
  const summary = summaryOf(res.text);
  if (summary?.created !== checks)
    throw new Error(
      `the apply created ${summary?.created} of ${checks} checks (${summary?.failed ?? 0} failed)`,
    );
  return {
    runtime,
    method: 'apply',
    checks,
    measured: checks,
    seconds,
    secondsForAll: seconds,
    ...counts(client),
  };
}

const counts = (client: Client) => ({ calls: client.calls, throttled: client.throttled });

async function measureOneByOne(
  h: ApiHarness,
  runtime: ConfigApplyRuntime,
  checks: number,
  max: number,
): Promise<ConfigApplyRun> {
  const measured = Math.min(checks, max);
  const { client, entityIds } = await tenantWithEntities(h, `one-${runtime}-${checks}`, measured);
  const started = performance.now();
  const half = Math.floor(measured / 2);
  let halfway = started;
  for (let i = 0; i < measured; i += 1) {
    if (i === half) halfway = performance.now();
    await expectStatus(client, 201, 'POST', '/v1/checks', {
      entity_id: entityIds[entityOf(i)],
      check_type: 'push',
      name: checkName(i),
      interval_seconds: 300,
    });
  }
  const ended = performance.now();
  const seconds = (ended - started) / 1000;
  // The rest at the second half's rate: the bucket's burst went in the first half, so this is
  // the steady rate the remaining checks would get.
  const steadyPerSecond = (measured - half) / Math.max((ended - halfway) / 1000, 1e-3);
  return {
    runtime,
    method: 'one-by-one',
    checks,
    measured,
    seconds,
    secondsForAll: seconds + (checks - measured) / steadyPerSecond,
    ...counts(client),
  };
}

async function withHarness<T>(
  runtime: ConfigApplyRuntime,
  dynamodbEndpoint: string | undefined,
  run: (h: ApiHarness) => Promise<T>,
): Promise<T> {
  const using = async (h: ApiHarness) => {
    try {
      return await run(h);
    } finally {
      await h.close();
    }
  };
  if (runtime === 'local')
    return using(await startLocalHarness({ scheduler: false, env: DEFAULT_RATE_LIMIT }));
  if (dynamodbEndpoint) return using(await startLambdaHarness({ dynamodbEndpoint, env: DEFAULT_RATE_LIMIT }));
  const dynamodb = await startDynamoDbLocal();
  try {
    return await using(
      await startLambdaHarness({ dynamodbEndpoint: dynamodb.endpoint, env: DEFAULT_RATE_LIMIT }),
    );
  } finally {
    await dynamodb.stop();
  }
}

export async function runConfigApply(options: ConfigApplyOptions): Promise<ConfigApplyRun[]> {
  const runs: ConfigApplyRun[] = [];
  const methods = options.methods ?? ['apply', 'one-by-one'];
  for (const runtime of options.runtimes)
    await withHarness(runtime, options.dynamodbEndpoint, async (h) => {
      for (const checks of options.counts) {
        for (const method of methods) {
          const figures =
            method === 'apply'
              ? await measureApply(h, runtime, checks)
              : await measureOneByOne(h, runtime, checks, options.oneByOneMax);
          runs.push(figures);
          options.onProgress(
            `${runtime} ${figures.method} ${checks}: ${round(figures.secondsForAll, 1)} s${figures.measured < checks ? ` (extrapolated from ${figures.measured})` : ''}, ${figures.calls} calls, ${figures.throttled} answered 429`,
          );
        }
      }
    });
  return runs;
}

/** The side-by-side table (Markdown). */
export function formatConfigApply(runs: ConfigApplyRun[]): string {
  const rows = runs.map((r) => [
    r.runtime,
    String(r.checks),
    r.method,
    r.measured < r.checks
      ? `${round(r.secondsForAll, 1)} (extrapolated from ${r.measured} in ${round(r.seconds, 1)} s)`
      : String(round(r.seconds, 1)),
    String(r.calls),
    String(r.throttled),
    String(round(r.measured / r.seconds, 1)),
  ]);
  // Deployed, /v1/config/* runs in the configuration function behind its streaming URL
  // (infra/config-docs.ts): an apply may take up to its timeout, not API Gateway's 29 s.
  const limitSeconds = CONFIG_FUNCTION_TIMEOUT_MS / 1000;
  const over = runs.filter((r) => r.runtime === 'cloud' && r.method === 'apply' && r.seconds > limitSeconds);
  const note = over.length
    ? `\nA cloud apply of ${over.map((r) => r.checks).join(' and ')} checks took longer than the configuration function's ${limitSeconds} s: deployed, it would be cut off.`
    : '';
  return [
    `Creating push checks at the default rate limit (${DEFAULT_RATE_LIMIT.VIGIL_RATE_LIMIT_RPS}/s, burst ${DEFAULT_RATE_LIMIT.VIGIL_RATE_LIMIT_BURST}): one POST /v1/config/apply against POST /v1/checks one by one (429s waited out after Retry-After):\n`,
    table(['runtime', 'checks', 'method', 'seconds', 'calls', '429 answers', 'checks/s'], rows),
    note,
  ].join('\n');
}
