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
 * (lib/status-pages/page-cache.ts), so past the warm-up these are answers from that render: what
 * a crowd of visitors costs. Target: p99 <= 200 ms at 100 entities.
 */

export interface StatusPageFigures {
  entities: number;
  requests: number;
  latencyMs: Percentiles;
  bytes: number;
}

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
      const api = (method: string, path: string, body?: unknown) => call(serve.url, key, method, path, body);
      await api('POST', '/v1/blueprints', { slug: 'service', name: 'Service' });
      const ids: string[] = [];
      for (let i = 0; i < options.entities; i += 1) {
        const entity = (await api('POST', '/v1/blueprints/service/entities', {
          slug: `svc-${i}`,
          name: `Service ${i}`,
        })) as { id: string };
        const check = (await api('POST', '/v1/checks', {
          entity_id: entity.id,
          check_type: 'push',
          interval_seconds: 3600,
        })) as { id: string };
        for (let r = 0; r < 3; r += 1)
          await api('POST', `/v1/checks/${check.id}/results`, {
            success: r !== 1 || i % 10 !== 0,
            latency_ms: 20,
          });
        ids.push(entity.id);
      }
      await api('POST', '/v1/status-pages', { slug: 'bench', title: 'Bench status', entity_ids: ids });
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
