import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { generateApiKey } from '../lib/auth/api-key.ts';
import { loadServeEnv, startServe } from './serve.ts';
import { type Percentiles, percentiles } from './stats.ts';
import { seedStatusPage } from './status-page.ts';

/**
 * The abuse mix of issue 36 item 3 on the local runtime: `addresses` keyless visitors (each from
 * its own loopback address, 127.0.0.2 up) read a public page of `entities` entities, its JSON and
 * its badge back to back and subscribe addresses to it (every fourth request), while one key runs `readers` loops of the tenant's expensive reads
 * (status board, metrics, incidents, transitions), and /healthz is polled one GET at a time. The
 * figure is /healthz's latency under that load (target: p99 <= 300 ms); the answers the abusers
 * got are counted (429s are the per-tenant bound on expensive reads at work). The rate limits are
 * set far above the load, so only the page cache and the read bound shape it.
 */

export interface AbuseFigures {
  entities: number;
  addresses: number;
  readers: number;
  healthz: Percentiles;
  /** /healthz answers other than 200 (0: the connection failed), counted in the samples' times. */
  healthzFailed: number;
  pages: { ok: number; other: number };
  /** The visitors' subscriptions (POST /p/abuse/subscribe, issue 54): 202 whatever the address. */
  subscribes: { accepted: number; other: number };
  reads: { ok: number; refused: number; other: number };
  seconds: number;
}

/** The longest /healthz is sampled, whatever `samples` says. */
const SAMPLING_MS = 120_000;
const PAGE_PATHS = [
  '/p/abuse',
  '/p/abuse/status.json',
  '/p/abuse/badge.svg',
  '/p/abuse/feed.rss',
  '/p/abuse/feed.atom',
];
const READ_PATHS = ['/v1/status', '/v1/metrics', '/v1/incidents', '/v1/status/transitions'];

/** One GET (or a POST of `body`) over `agent`, its answer read and dropped: the status (0 on a connection error). */
function get(
  url: string,
  agent: Agent,
  headers: Record<string, string> = {},
  body?: string,
): Promise<number> {
  return new Promise((resolve) => {
    const req = request(url, { agent, headers, method: body === undefined ? 'GET' : 'POST' }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', () => resolve(0));
    });
    req.on('error', () => resolve(0));
    req.end(body);
  });
}

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

export async function runAbuse(options: {
  entities: number;
  addresses: number;
  readers: number;
  samples: number;
  logFile: string;
  /** The checkout whose bin/serve.ts runs (default this one): the figure before a change. */
  root?: string;
  onProgress?: (line: string) => void;
}): Promise<AbuseFigures> {
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-bench-abuse-'));
  const key = generateApiKey();
  try {
    const serve = await startServe(loadServeEnv(dataDir, key), {
      logFile: options.logFile,
      ...(options.root ? { root: options.root } : {}),
    });
    const agents: Agent[] = [];
    try {
      await seedStatusPage(serve.url, key, 'abuse', options.entities, (i) => [i % 10 !== 0]);
      options.onProgress?.(`  ${options.entities} entities with a push check each, one page`);

      const figures: AbuseFigures = {
        entities: options.entities,
        addresses: options.addresses,
        readers: options.readers,
        healthz: percentiles([]),
        healthzFailed: 0,
        pages: { ok: 0, other: 0 },
        subscribes: { accepted: 0, other: 0 },
        reads: { ok: 0, refused: 0, other: 0 },
        seconds: 0,
      };
      let running = true;
      const visitor = async (n: number) => {
        const agent = new Agent({ keepAlive: true, localAddress: `127.0.0.${n + 2}` });
        agents.push(agent);
        for (let i = 0; running; i += 1) {
          // Every fourth request subscribes an address (a new one each time: the quotas do the rest).
          if (i % 4 === 3) {
            const email = encodeURIComponent(`visitor${n}-${i}@example.com`);
            const status = await get(`${serve.url}/p/abuse/subscribe`, agent, FORM, `email=${email}`);
            if (status === 202) figures.subscribes.accepted += 1;
            else figures.subscribes.other += 1;
            continue;
          }
          const status = await get(`${serve.url}${PAGE_PATHS[i % PAGE_PATHS.length]}`, agent);
          if (status === 200) figures.pages.ok += 1;
          else figures.pages.other += 1;
        }
      };
      const reader = async (n: number) => {
        const agent = new Agent({ keepAlive: true });
        agents.push(agent);
        const headers = { authorization: `Bearer ${key}` };
        for (let i = n; running; i += 1) {
          const status = await get(`${serve.url}${READ_PATHS[i % READ_PATHS.length]}`, agent, headers);
          if (status === 200) figures.reads.ok += 1;
          else if (status === 429) figures.reads.refused += 1;
          else figures.reads.other += 1;
        }
      };
      const started = performance.now();
      const load = [
        ...Array.from({ length: options.addresses }, (_, n) => visitor(n)),
        ...Array.from({ length: options.readers }, (_, n) => reader(n)),
      ];
      // Let the load build up, then poll /healthz one request at a time on a connection of its own.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      // A fresh connection each time, as a load balancer's health check opens one; bounded in time
      // too (a server that answers in seconds would otherwise hold the run for many minutes).
      const probe = new Agent({ keepAlive: false });
      agents.push(probe);
      const samples: number[] = [];
      const until = performance.now() + SAMPLING_MS;
      for (let i = 0; i < options.samples && performance.now() < until; i += 1) {
        const t0 = performance.now();
        const status = await get(`${serve.url}/healthz`, probe);
        samples.push(performance.now() - t0);
        if (status !== 200) figures.healthzFailed += 1;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      running = false;
      await Promise.all(load);
      figures.healthz = percentiles(samples);
      figures.seconds = Math.round((performance.now() - started) / 100) / 10;
      return figures;
    } finally {
      for (const agent of agents) agent.destroy();
      await serve.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
