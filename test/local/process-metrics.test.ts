import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isLoopback } from '../../lib/local/process-metrics.ts';
import { newEntity } from '../checks/check-fixtures.ts';
import { type LocalHarness, startLocalHarness } from '../support/api-harness.ts';
import { freePort } from '../support/dynamodb-local.ts';
import { PROMETHEUS, promtoolCheck } from '../support/prometheus.ts';

/**
 * The local runtime's GET /metrics (lib/local/process-metrics.ts): process and queue metrics,
 * loopback only by default, accepted by promtool; and a real Prometheus (Debian's, bound to
 * 127.0.0.1, its own temporary config and storage: no system service is relied on) scraping both
 * it and GET /v1/metrics with a bearer token file, then answering a series back through its API.
 */

let api: LocalHarness;

beforeAll(async () => {
  api = await startLocalHarness({ scheduler: false });
  await newEntity(api, { blueprint: 'scraped' });
}, 60_000);

afterAll(() => api?.close());

describe('GET /metrics (local)', () => {
  it('answers process, queue and writer metrics that promtool accepts', async () => {
    const res = await api.request('GET', '/metrics');
    expect(res.status, res.text).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain; version=0.0.4');
    expect(res.text).toMatch(/^nodejs_eventloop_lag_seconds \d/m);
    expect(res.text).toMatch(/^vigil_local_queue_jobs\{queue="notify"\} \d+$/m);
    expect(res.text).toMatch(/^vigil_local_queue_jobs\{queue="actions?"\} \d+$/m);
    // Creating the entity committed through the writer thread: the histogram counted it.
    const commits = /^vigil_local_sqlite_commit_seconds_count (\d+)$/m.exec(res.text);
    expect(Number(commits?.[1])).toBeGreaterThan(0);
    // No tenant's data here: that is GET /v1/metrics, behind a key.
    expect(res.text).not.toContain('vigil_entity_state');
    const checked = await promtoolCheck(res.text);
    expect(checked.output).toBe('');
    expect(checked.code).toBe(0);
  });

  it('is for loopback peers only unless opened', () => {
    for (const address of ['127.0.0.1', '127.8.0.1', '::1', '::ffff:127.0.0.1'])
      expect(isLoopback(address)).toBe(true);
    for (const address of ['10.0.0.1', '::ffff:10.0.0.1', '192.168.1.2', 'fe80::1', '::', undefined])
      expect(isLoopback(address)).toBe(false);
  });
});

describe('a real Prometheus scraping both endpoints', () => {
  let prometheus: ChildProcess | undefined;
  let dir: string;
  let base: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'vigil-prometheus-'));
    const target = new URL(api.local.url).host;
    writeFileSync(join(dir, 'token'), api.adminKey);
    writeFileSync(
      join(dir, 'prometheus.yml'),
      [
        'global:',
        '  scrape_interval: 1s',
        '  scrape_timeout: 1s',
        'scrape_configs:',
        '  - job_name: vigil-process',
        `    static_configs: [{targets: ['${target}']}]`,
        '  - job_name: vigil-tenant',
        '    metrics_path: /v1/metrics',
        '    authorization:',
        `      credentials_file: ${join(dir, 'token')}`,
        `    static_configs: [{targets: ['${target}']}]`,
        '',
      ].join('\n'),
    );
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    prometheus = spawn(
      PROMETHEUS,
      [
        `--config.file=${join(dir, 'prometheus.yml')}`,
        `--storage.tsdb.path=${join(dir, 'data')}`,
        `--web.listen-address=127.0.0.1:${port}`,
      ],
      { stdio: 'ignore' },
    );
  }, 30_000);

  afterAll(async () => {
    if (prometheus && prometheus.exitCode === null) {
      const exited = new Promise((resolve) => prometheus?.once('exit', resolve));
      prometheus.kill('SIGTERM');
      await exited;
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
  }, 30_000);

  /** The result of an instant query, once Prometheus answers it (empty until a scrape stored it). */
  const query = async (promql: string) => {
    const res = await fetch(`${base}/api/v1/query?query=${encodeURIComponent(promql)}`).catch(
      () => undefined,
    );
    if (!res?.ok) return [];
    const body = (await res.json()) as {
      data: { result: { metric: Record<string, string>; value: [number, string] }[] };
    };
    return body.data.result;
  };

  it('stores a tenant series and a process series it scraped', async () => {
    await expect
      .poll(() => query('vigil_entities{job="vigil-tenant",state="unknown"}'), {
        timeout: 90_000,
        interval: 500,
      })
      .toEqual([expect.objectContaining({ value: [expect.any(Number), '1'] })]);
    await expect
      .poll(async () => (await query('up{job="vigil-process"}')).map((r) => r.value[1]), {
        timeout: 60_000,
        interval: 500,
      })
      .toEqual(['1']);
    const lag = await query('nodejs_eventloop_lag_seconds{job="vigil-process"}');
    expect(lag).toHaveLength(1);
  }, 180_000);
});
