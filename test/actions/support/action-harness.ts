import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { ExecutionRecord } from '../../../lib/actions/execution-items.ts';
import { ACTION_QUEUE, actionJobSchema } from '../../../lib/actions/jobs.ts';
import { createApp } from '../../../lib/app.ts';
import { STREAM_ENTITIES } from '../../../lib/events/consumers.ts';
import { createActionSchedule } from '../../../lib/local/action-schedule.ts';
import { createChangePump } from '../../../lib/local/change-pump.ts';
import { startJobRunner } from '../../../lib/local/job-runner.ts';
import { createSqliteJobQueue } from '../../../lib/local/sqlite-job-queue.ts';
import { loadConfig } from '../../../lib/platform/config.ts';
import { silentLogger } from '../../../lib/platform/logger.ts';
import { createSqliteTable, openSqliteDatabase } from '../../../lib/sqlite/sqlite-table.ts';
import { manualTime } from '../../local/scheduler-helpers.ts';
import { memoryJobQueue } from '../../notify/support/memory-queue.ts';
import { pushCheckFixtures } from '../../support/push-fixtures.ts';

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
  const table = createSqliteTable({
    db: openSqliteDatabase(join(dir, 'vigil.db')),
    streamEntities: STREAM_ENTITIES,
  });
  const logger = silentLogger;
  const queue = createSqliteJobQueue({
    table,
    name: ACTION_QUEUE,
    schema: actionJobSchema,
    clock: time.clock,
    logger,
    timers: time.timers,
  });
  const config = loadConfig('local', {
    VIGIL_RATE_LIMIT_RPS: '0',
    VIGIL_AUTH_FAILURE_LIMIT: '0',
    VIGIL_EGRESS_ALLOW: '127.0.0.0/8',
  });
  const app = createApp({
    table,
    clock: time.clock,
    logger,
    config,
    notifyQueue: memoryJobQueue(),
    actionQueue: queue,
  });
  const runner = startJobRunner({
    queue,
    handle: (job) => app.actionWorker.handle(job),
    concurrency: 4,
    logger,
  });
  time.settleWhile(() => runner.pending > 0);
  const pump = createChangePump({ table, consumers: app.consumers, logger });
  const scheduleDeps = {
    table,
    queue,
    clock: time.clock,
    logger,
    dueShards: config.dueShards,
    timers: time.timers,
  };
  let schedule = createActionSchedule(scheduleDeps);
  const { tenant, rawKey } = await app.tenants.createTenant({ name: 'T', email: 't@example.test' });

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

  // biome-ignore lint/suspicious/noExplicitAny: response bodies are inspected freely
  const call = async (method: string, path: string, body?: unknown, expected?: number): Promise<any> => {
    const res = await app.router.handle({
      method,
      path,
      query: {},
      headers: { authorization: `Bearer ${rawKey}`, 'content-type': 'application/json' },
      body: body === undefined ? Buffer.alloc(0) : Buffer.from(JSON.stringify(body)),
      requestId: 'test',
    });
    if (expected !== undefined) expect(res.status, `${method} ${path}: ${res.body}`).toBe(expected);
    return res.body ? JSON.parse(res.body) : undefined;
  };

  /** Feeds the change feed to the consumers and runs the action jobs due now, until nothing is left. */
  const settle = async () => {
    for (let round = 0; round < 4; round += 1) {
      await pump.drain();
      await time.advance(1);
      await runner.idle();
    }
  };

  const harness = {
    app,
    table,
    time,
    queue,
    runner,
    received,
    receiverUrl,
    tenantId: tenant.id,
    call,
    settle,
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
    ...pushCheckFixtures(call, settle),
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
      await pump.stop();
      await runner.stop();
      queue.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await table.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return harness;
}

export type ActionHarness = Awaited<ReturnType<typeof startActionHarness>>;
