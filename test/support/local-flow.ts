import { join } from 'node:path';
import { expect } from 'vitest';
import { ACTION_QUEUE, actionJobSchema } from '../../lib/actions/jobs.ts';
import { type App, createApp } from '../../lib/app.ts';
import { pagingFor } from '../../lib/escalation/compose-paging.ts';
import { STREAM_ENTITIES } from '../../lib/events/consumers.ts';
import { type NotifyQueueJob, notifyQueueJobSchema, statusPagesShowing } from '../../lib/features/list.ts';
import { createChangePump } from '../../lib/local/change-pump.ts';
import { startJobRunner } from '../../lib/local/job-runner.ts';
import { createSqliteJobQueue } from '../../lib/local/sqlite-job-queue.ts';
import { pagingParts } from '../../lib/notify/compose-notifier.ts';
import type { EmailTransport } from '../../lib/notify/email-transport.ts';
import type { ChannelSenders } from '../../lib/notify/items/ports.ts';
import type { NotifyJob } from '../../lib/notify/jobs.ts';
import { createNotifier } from '../../lib/notify/pipeline/notifier.ts';
import { loadConfig } from '../../lib/platform/config.ts';
import { enqueuerOf, NOTIFY_QUEUE } from '../../lib/platform/feature.ts';
import type { ReceivedJob } from '../../lib/platform/job-queue.ts';
import { silentLogger } from '../../lib/platform/logger.ts';
import { createSqliteTable, openSqliteDatabase, type SqliteTable } from '../../lib/sqlite/sqlite-table.ts';
import { createCursorSeal } from '../../lib/store/cursor-seal.ts';
import { loadCursorSecret } from '../../lib/store/cursor-secret.ts';
import type { manualTime } from '../local/scheduler-helpers.ts';
import { memoryJobQueue } from '../notify/support/memory-queue.ts';
import { pushCheckFixtures } from './push-fixtures.ts';

/**
 * The local runtime's parts on fake time that the flow harnesses (test/notify/support,
 * test/actions/support) are built of: the SQLite table of a data directory with its change feed,
 * one durable job queue on it (the notify queue or the action queue; the app's other queue only
 * collects jobs), the app over them, the job runner and change pump that drive it, and the API
 * called through the app's router.
 */

type ManualTime = ReturnType<typeof manualTime>;

/** No rate limits; loopback allowed, so channels and actions made through the API may name 127.0.0.1. */
const flowConfig = (env: Record<string, string> = {}) =>
  loadConfig('local', {
    VIGIL_RATE_LIMIT_RPS: '0',
    VIGIL_AUTH_FAILURE_LIMIT: '0',
    VIGIL_EGRESS_ALLOW: '127.0.0.0/8',
    ...env,
  });

/** The table (`dir`/vigil.db, opened again where it already is) and what a durable queue on it takes. */
function flowBase(dir: string, time: ManualTime, env?: Record<string, string>) {
  const table = createSqliteTable({
    db: openSqliteDatabase(join(dir, 'vigil.db')),
    streamEntities: STREAM_ENTITIES,
  });
  const queueDeps = { table, clock: time.clock, logger: silentLogger, timers: time.timers };
  const appDeps = { table, clock: time.clock, logger: silentLogger, config: flowConfig(env) };
  return { table, queueDeps, appDeps };
}

/** The action queue durable, with the app and its config (notifications only collected). */
export function openActionParts(dir: string, time: ManualTime) {
  const { table, queueDeps, appDeps } = flowBase(dir, time);
  const queue = createSqliteJobQueue({ ...queueDeps, name: ACTION_QUEUE, schema: actionJobSchema });
  const app = createApp({ ...appDeps, notifyQueue: memoryJobQueue(), actionQueue: queue });
  return { table, queue, app, config: appDeps.config };
}

/**
 * The notify queue durable (4 attempts), with the app and the real notifier sending through
 * `senders`; escalation policies page people through `paging.email` (a real SMTP transport) when given.
 */
export function openNotifyParts(
  dir: string,
  time: ManualTime,
  senders: ChannelSenders,
  paging: { email?: EmailTransport; env?: Record<string, string> } = {},
) {
  const { table, queueDeps, appDeps } = flowBase(dir, time, paging.env);
  const queue = createSqliteJobQueue({
    ...queueDeps,
    name: NOTIFY_QUEUE,
    schema: notifyQueueJobSchema,
    maxAttempts: 4,
  });
  const app = createApp({
    ...appDeps,
    notifyQueue: queue,
    actionQueue: memoryJobQueue('action'),
    ...(paging.email ? { email: paging.email } : {}),
  });
  const ownQueue = enqueuerOf<NotifyQueueJob, NotifyJob>(queue);
  const alerts = createNotifier({
    table,
    statusPagesShowing: statusPagesShowing(table),
    clock: time.clock,
    logger: silentLogger,
    queue: ownQueue,
    senders,
    policies: app.policies,
    channels: app.channels,
    deliveries: app.deliveries,
    tenants: app.tenants,
  });
  const pages = pagingFor({
    ...appDeps,
    cursors: createCursorSeal(() => loadCursorSecret(table)),
    email: paging.email,
    queue: ownQueue,
    publicUrl: appDeps.config.publicUrl,
    emailDailyLimit: async () => 1000,
  })(pagingParts(table, alerts));
  // The notify queue carries every feature's jobs: notify's own go to these parts, others are left.
  const notifier = {
    ...alerts,
    handle: (job: ReceivedJob<NotifyQueueJob>) =>
      job.body.kind === 'climb' || job.body.kind === 'page_contact' || job.body.kind === 'page_resolved'
        ? pages(job.body)
        : alerts.handle(job as ReceivedJob<NotifyJob>),
  };
  return { table, queue, app, notifier };
}

/**
 * The job runner handling the durable queue's jobs (4 at a time; fake time steps wait, bounded, while
 * it has some running) and the change pump feeding the table's change feed to the app's consumers;
 * `settle` runs both until nothing is left (4 rounds), `stop` closes the parts.
 */
export function driveFlow<B>(
  parts: { table: SqliteTable; app: App; queue: ReturnType<typeof createSqliteJobQueue<B>> },
  time: ManualTime,
  handle: (job: ReceivedJob<B>) => Promise<void>,
  options: { inProcess?: boolean } = {},
) {
  const { table, app, queue } = parts;
  const runner = startJobRunner({ queue, handle, concurrency: 4, logger: silentLogger });
  // A notify job never waits on fake time (a retry goes back to the queue), so a step may wait for
  // the running ones as long as a loaded machine needs (bounded): a job still sending when the clock
  // moved on would queue its next step late. `inProcess`: the jobs and what the timers start touch
  // nothing but SQLite and in-memory senders (the notify flow), so a step yields a turn, not 2 ms;
  // the action flow calls a real receiver and keeps the real pauses.
  const { inProcess = false } = options;
  time.settleWhile(() => runner.pending > 0, 10_000, { inProcess });
  const pump = createChangePump({ table, consumers: app.consumers, logger: silentLogger });
  /** One round: the change feed to the consumers, a ms of fake time, the runner idle. */
  const round = async () => {
    await pump.drain();
    await time.advance(1);
    // In process, the queue runs on fake time, so the runner's grace for a real timer to hand a job
    // over buys nothing: wait for it only while it has jobs (a step's settle already waited for them).
    if (!inProcess || runner.pending > 0) await runner.idle();
  };
  return {
    runner,
    pump,
    round,
    async settle() {
      for (let n = 0; n < 4; n += 1) await round();
    },
    async stop() {
      await pump.stop();
      await runner.stop();
      queue.close();
      await table.close();
    },
  };
}

/**
 * What both flow harnesses expose: their parts, a tenant, its API as `call` (routerCall), `settle`
 * (the flow's) and the push-check fixtures over them.
 */
export async function flowTenant<B>(
  parts: { table: SqliteTable; app: App; queue: ReturnType<typeof createSqliteJobQueue<B>> },
  time: ManualTime,
  flow: { settle(): Promise<void> },
) {
  const { table, app, queue } = parts;
  const { tenant, rawKey } = await app.tenants.createTenant({ name: 'T', email: 't@example.test' });
  const call = routerCall(app, rawKey);
  /** Feeds the change feed to the consumers and runs the jobs due now, until nothing is left. */
  const settle = () => flow.settle();
  return { app, table, time, queue, tenantId: tenant.id, call, settle, ...pushCheckFixtures(call, settle) };
}

/**
 * The API through the app's router with `rawKey`, as JSON; with `expected`, the status must be it
 * (`'ok'`: any below 300). Answers the parsed body.
 */
export function routerCall(app: Pick<App, 'router'>, rawKey: string) {
  // biome-ignore lint/suspicious/noExplicitAny: response bodies are inspected freely
  return async (method: string, path: string, body?: unknown, expected?: number | 'ok'): Promise<any> => {
    // A query string in `path` is taken apart as the HTTP server does.
    const [pathname = path, search = ''] = path.split('?');
    const res = await app.router.handle({
      method,
      path: pathname,
      query: Object.fromEntries(new URLSearchParams(search)),
      headers: { authorization: `Bearer ${rawKey}`, 'content-type': 'application/json' },
      body: body === undefined ? Buffer.alloc(0) : Buffer.from(JSON.stringify(body)),
      requestId: 'test',
    });
    if (expected === 'ok') expect(res.status, `${method} ${path}: ${res.body}`).toBeLessThan(300);
    else if (expected !== undefined) expect(res.status, `${method} ${path}: ${res.body}`).toBe(expected);
    return res.body ? JSON.parse(res.body) : undefined;
  };
}
