import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { generateApiKey } from '../lib/auth/api-key.ts';
import { call } from './push.ts';
import { loadServeEnv, startServe } from './serve.ts';
import { type Percentiles, percentiles } from './stats.ts';

/**
 * A public status page of `entities` entities (each with a push check and a few results, so the
 * daily bars read rollups) on the local runtime: sequential keyless GET /p/{slug} over HTTP on
 * 127.0.0.1, the whole HTML each time. The server renders a page once per 30 s
 * (lib/status-pages/html/page-cache.ts), so past the warm-up these are answers from that render: what
 * a crowd of visitors costs. Target: p99 <= 200 ms at 100 entities.
 */

export interface StatusPageFigures {
  entities: number;
  requests: number;
  latencyMs: Percentiles;
  bytes: number;
}

/**
 * A status page `slug` over `entities` entities, each with one push check holding the results
 * `outcomes(i)` gives (success or not): the page the status-page and abuse benches read.
 */
export async function seedStatusPage(
  url: string,
  key: string,
  slug: string,
  entities: number,
  outcomes: (i: number) => boolean[],
): Promise<void> {
  const api = (method: string, path: string, body?: unknown) => call(url, key, method, path, body);
  await api('POST', '/v1/blueprints', { slug: 'service', name: 'Service' });
  const ids: string[] = [];
  for (let i = 0; i < entities; i += 1) {
    const entity = idOf(
      await api('POST', '/v1/blueprints/service/entities', { slug: `svc-${i}`, name: `Service ${i}` }),
    );
    const check = idOf(
      await api('POST', '/v1/checks', { entity_id: entity, check_type: 'push', interval_seconds: 3600 }),
    );
    for (const success of outcomes(i))
      await api('POST', `/v1/checks/${check}/results`, { success, latency_ms: 20 });
    ids.push(entity);
  }
  await api('POST', '/v1/status-pages', { slug, title: `${slug} status`, entity_ids: ids });
}

const idOf = (answer: unknown) => (answer as { id: string }).id;

export async function runStatusPage(options: {
  entities: number;
  requests: number;
  logFile: string;
  onProgress?: (line: string) => void;
}): Promise<StatusPageFigures> {
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-bench-page-'));
  const key = generateApiKey();
  const env = loadServeEnv(dataDir, key);
  try {
    const serve = await startServe(env, { logFile: options.logFile });
    try {
      // Three results each; every tenth entity's second one failed.
      await seedStatusPage(serve.url, key, 'bench', options.entities, (i) => [true, i % 10 !== 0, true]);
      options.onProgress?.(`  ${options.entities} entities with a push check each, one page`);
      const samples: number[] = [];
      let bytes = 0;
      for (let i = 0; i < options.requests + 10; i += 1) {
        const started = performance.now();
        const res = await fetch(`${serve.url}/p/bench`);
        const text = await res.text();
        const ms = performance.now() - started;
        if (res.status !== 200) throw new Error(`GET /p/bench: ${res.status} ${text.slice(0, 200)}`);
        if (i >= 10) samples.push(ms);
        bytes = Buffer.byteLength(text);
      }
      return {
        entities: options.entities,
        requests: options.requests,
        latencyMs: percentiles(samples),
        bytes,
      };
    } finally {
      await serve.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
