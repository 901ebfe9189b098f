import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExecutionRecord } from '../../../lib/actions/items/execution-items.ts';
import { createActionSchedule } from '../../../lib/local/action-schedule.ts';
import { silentLogger } from '../../../lib/platform/logger.ts';
import { manualTime } from '../../local/scheduler-helpers.ts';
import { driveFlow, flowTenant, openActionParts } from '../../support/local-flow.ts';

/** One request a receiver got. */
interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  atMs: number;
}

/**
 * The action worker on real parts (the SQLite table, its change feed, the durable action queue,
 * the job runner, the schedule tick, the API) on fake time, calling a receiver on 127.0.0.1 that
 * VIGIL_EGRESS_ALLOW lets through. Notifications are left out (their queue only collects jobs).
 */
export async function startActionHarness() {
  const time = manualTime();
  const dir = mkdtempSync(join(tmpdir(), 'vigil-actions-'));
  const parts = openActionParts(dir, time);
  const { table, queue, app, config } = parts;
  const flow = driveFlow(parts, time, (job) => app.actionWorker.handle(job));
  const scheduleDeps = {
    table,
    queue,
    clock: time.clock,
    logger: silentLogger,
    dueShards: config.dueShards,
    timers: time.timers,
  };
  let schedule = createActionSchedule(scheduleDeps);

  const received: Received[] = [];
  let status = 200;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        atMs: time.clock.now(),
      });
      res.writeHead(status, { 'content-type': 'text/plain' });
      res.end('accepted');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const base = await flowTenant(parts, time, flow);
  const { call } = base;

  const harness = {
    ...base,
    runner: flow.runner,
    received,
    receiverUrl,
    /** The schedule tick of this harness (replaced by restartSchedule). */
    get schedule() {
      return schedule;
    },
    /** A new schedule tick, as after a restart; the old one must be stopped. */
    restartSchedule() {
      schedule = createActionSchedule(scheduleDeps);
      return schedule;
    },
    /** Sets the status the receiver answers with. */
    answerWith(code: number) {
      status = code;
    },
    /** Creates an action through the API (201). */
    // biome-ignore lint/suspicious/noExplicitAny: the API's answer
    async action(fields: Record<string, unknown>): Promise<any> {
      return call('POST', '/v1/actions', { name: 'act', ...fields }, 201);
    },
    /** The stored executions of an action, newest first. */
    async executions(actionId: string): Promise<ExecutionRecord[]> {
      return (await app.executions.listForAction(actionId, { limit: 200 })).executions;
    },
    async close() {
      await schedule.stop();
      await flow.stop();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return harness;
}

export type ActionHarness = Awaited<ReturnType<typeof startActionHarness>>;
