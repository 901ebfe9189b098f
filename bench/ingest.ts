import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { z } from 'zod';
import { generateApiKey } from '../lib/auth/api-key.ts';
import { call } from './push.ts';
import { loadServeEnv, processUsage, startServe } from './serve.ts';

/**
 * Outside alerts in (issue 77): the product over real HTTP (bin/serve.ts in a child, its own data
 * dir) takes a burst of Alertmanager webhooks — `entities × alertsPerEntity` alerts in `requests`
 * requests of equal size, sent `concurrency` at a time — then their resolves. A request is
 * answered once its alerts are stored and each touched entity's outside check has recorded its
 * state, so "settled" is the answer of the last request, checked by reading every entity's state
 * (all down, then all up). CPU is the server process's over each phase, per alert.
 */

interface IngestPhase {
  /** From the first request sent to the last answered (every state recorded). */
  settledMs: number;
  /** Server CPU (user + system) over the phase, per alert. */
  cpuMsPerAlert: number;
  /** Entities in the state the phase should leave (down after firing, up after resolving). */
  inState: number;
}

export interface IngestFigures {
  entities: number;
  alerts: number;
  requests: number;
  concurrency: number;
  fire: IngestPhase;
  resolve: IngestPhase;
  /** Open outside alerts after the resolves (0 when every resolve landed). */
  openAfter: number;
}

const entityList = z.array(z.object({ slug: z.string(), state: z.string() }));
const integrationSchema = z.object({ token: z.string() });
const openPage = z.object({ alerts: z.array(z.unknown()), next_cursor: z.string().nullable() });

export async function runIngest(options: {
  entities: number;
  alertsPerEntity: number;
  requests: number;
  concurrency: number;
  logFile: string;
  onProgress?: (line: string) => void;
}): Promise<IngestFigures> {
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-bench-ingest-'));
  const key = generateApiKey();
  const serve = await startServe(loadServeEnv(dataDir, key), { logFile: options.logFile });
  try {
    const api = (method: string, path: string, body?: unknown) => call(serve.url, key, method, path, body);
    await api('POST', '/v1/blueprints', { slug: 'svc', name: 'Service' });
    const slugs = Array.from({ length: options.entities }, (_, i) => `s${i}`);
    for (let i = 0; i < slugs.length; i += 20)
      await Promise.all(
        slugs
          .slice(i, i + 20)
          .map((slug) => api('POST', '/v1/blueprints/svc/entities', { slug, name: slug, fields: {} })),
      );
    const { token } = integrationSchema.parse(
      await api('POST', '/v1/integrations', {
        name: 'Prometheus',
        kind: 'alertmanager',
        entity_rules: [{ match: { service: '/.+/' }, entity: 'svc/{{labels.service}}' }],
      }),
    );
    options.onProgress?.(`  ${options.entities} entities and the integration made`);

    const alerts = options.entities * options.alertsPerEntity;
    const perRequest = Math.ceil(alerts / options.requests);
    const body = (r: number, status: 'firing' | 'resolved') => ({
      version: '4',
      status,
      receiver: 'vigil',
      alerts: Array.from({ length: Math.min(perRequest, alerts - r * perRequest) }, (_, k) => {
        const n = r * perRequest + k;
        return {
          status,
          fingerprint: `fp-${n}`,
          labels: { alertname: `A${n}`, service: slugs[n % slugs.length], severity: 'critical' },
          annotations: { summary: `alert ${n}` },
        };
      }),
    });

    const phase = async (status: 'firing' | 'resolved', want: string): Promise<IngestPhase> => {
      const before = processUsage(serve.child.pid);
      const started = performance.now();
      let next = 0;
      const worker = async () => {
        while (next < options.requests) {
          const r = next++;
          const res = await fetch(`${serve.url}/in/${token}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(body(r, status)),
          });
          const text = await res.text();
          if (res.status !== 202) throw new Error(`request ${r}: ${res.status} ${text.slice(0, 300)}`);
        }
      };
      await Promise.all(Array.from({ length: options.concurrency }, worker));
      const settledMs = performance.now() - started;
      const after = processUsage(serve.child.pid);
      const entities = entityList.parse(await api('GET', '/v1/blueprints/svc/entities'));
      const inState = entities.filter((e) => e.state === want).length;
      const cpuMsPerAlert =
        before && after ? ((after.cpuSeconds - before.cpuSeconds) * 1000) / alerts : Number.NaN;
      options.onProgress?.(
        `  ${status}: ${alerts} alerts in ${Math.round(settledMs)} ms, ${inState}/${options.entities} ${want}, ${cpuMsPerAlert.toFixed(2)} ms CPU per alert`,
      );
      return { settledMs, cpuMsPerAlert, inState };
    };

    const fire = await phase('firing', 'down');
    const resolve = await phase('resolved', 'up');
    const open = openPage.parse(await api('GET', '/v1/outside-alerts?status=open&limit=100'));
    return {
      entities: options.entities,
      alerts,
      requests: options.requests,
      concurrency: options.concurrency,
      fire,
      resolve,
      openAfter: open.alerts.length,
    };
  } finally {
    await serve.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
