import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { ACTION_QUEUE, actionJobSchema } from '../actions/jobs.ts';
import { type App, type CoreDeps, createApp } from '../app.ts';
import {
  type CellRunner,
  type CellRunnerDeps,
  createCellRunner,
  createFileArtifactStore,
} from '../checks/probing.ts';
import { hostnameOf } from '../domain/formats.ts';
import { createEgressPool } from '../egress/egress-pool.ts';
import { STREAM_ENTITIES } from '../events/consumers.ts';
import { notifyQueueJobSchema } from '../features/list.ts';
import { runMigrations } from '../migrations.ts';
import { createSmtpTransport } from '../notify/smtp-transport.ts';
import { type Clock, systemClock } from '../platform/clock.ts';
import type { Config } from '../platform/config.ts';
import { NOTIFY_QUEUE } from '../platform/feature.ts';
import { createLogger, type Logger } from '../platform/logger.ts';
import { createMemoryRateLimiter } from '../platform/rate-limiter.ts';
import { createBrowserRunner } from '../probes/browser-runner.ts';
import { probeTransport } from '../probes/probe-transport.ts';
import { createSqliteTable, openSqliteDatabase, type SqliteTable } from '../sqlite/sqlite-table.ts';
import { LIVE_STREAM_ENTITIES } from '../status/stream-hub.ts';
import { type ActionSchedule, type ActionScheduleDeps, createActionSchedule } from './action-schedule.ts';
import { createChangePump } from './change-pump.ts';
import { createConsoleFiles } from './console-files.ts';
import { createHttpServer, listen } from './http-server.ts';
import { type JobRunner, startJobRunner } from './job-runner.ts';
import { startProbeThreads } from './probe-threads.ts';
import { createProcessMetrics } from './process-metrics.ts';
import { createReportSchedule, type ReportSchedule, type ReportScheduleOptions } from './report-schedule.ts';
import { createScheduler, type Scheduler, type SchedulerOptions } from './scheduler.ts';
import { createSqliteJobQueue } from './sqlite-job-queue.ts';

export interface LocalRuntime {
  /** Where a client on this machine reaches the API (loopback when bound to every interface). */
  url: string;
  /** The address and port the HTTP server is bound to. */
  address: AddressInfo;
  app: App;
  table: SqliteTable;
  /** The tick loop, timer heap and worker pool that run the checks. */
  scheduler: Scheduler;
  /** The cell runner the scheduler runs cell jobs with (tests run a slot through it by hand). */
  cells: CellRunner;
  /** Runs the notify queue's jobs (tests wait on its idle()). */
  notifyRunner: JobRunner;
  /** Runs the action queue's jobs: triggers, runs and pipeline deadlines (tests wait on its idle()). */
  actionJobs: JobRunner;
  /** The tick that claims due scheduled actions into the action queue. */
  actionSchedule: ActionSchedule;
  /** The timer that sends the due report e-mails (lib/reports). */
  reportSchedule: ReportSchedule;
  /** Drains the change-feed outbox into the consumers (tests call it to wait for async work). */
  drainChanges(): Promise<void>;
  /** The raw bootstrap key when this start created the first tenant, else undefined. */
  bootstrapKey: string | undefined;
  /** The web console at `/`: where it is read from, and whether it was built when the server started. */
  console: { url: string; dir: string; built: boolean };
  /** Stops accepting connections, lets in-flight requests finish, closes the database. */
  stop(): Promise<void>;
}

export interface LocalRuntimeOptions {
  config: Config;
  logger?: Logger;
  clock?: Clock;
  /** Address to bind instead of `config.host` (VIGIL_HOST, loopback by default). */
  host?: string;
  /** Scheduler tuning and hooks (tests, the benchmark); false: built but not started (tests that tick by hand). */
  scheduler?: SchedulerOptions | false;
  /** Probe settings (tests: extra trusted CA certificates). */
  probe?: { tlsCa?: string[] };
  /** Status stream tuning (tests: a short heartbeat); its events are always pushed from the change feed. */
  statusStream?: { heartbeatMs?: number };
  /** Outbound TLS trust and name resolution of the channels (tests: a test CA). */
  egress?: CoreDeps['egress'];
  /** The schedule trigger's tick (tests: fake timers); false: built but not started (tests tick by hand). */
  actionSchedule?: Pick<ActionScheduleDeps, 'tickMs' | 'timers'> | false;
  /** The report sweep's period (tests: fake timers); false: built but not started (tests sweep by hand). */
  reportSchedule?: ReportScheduleOptions | false;
  /** The cell runner's fault-injection seam (the crash test and bench; never set in the product). */
  cellFaults?: Pick<CellRunnerDeps, 'afterResultsStored'>;
}

/** Notify jobs run at once: each mostly waits on a receiver (at most 10 s for a webhook). */
const NOTIFY_CONCURRENCY = 16;
/** Action jobs run at once: a run waits on its endpoint for at most its timeout (15 s). */
const ACTION_CONCURRENCY = 8;

/** The local composition root: Vigil in one process on SQLite, the shared app, the HTTP API and the loops. */
export async function startLocalRuntime(options: LocalRuntimeOptions): Promise<LocalRuntime> {
  const { config } = options;
  const logger = options.logger ?? createLogger({ level: config.logLevel });
  const clock = options.clock ?? systemClock;
  mkdirSync(config.dataDir, { recursive: true });
  const db = openSqliteDatabase(join(config.dataDir, 'vigil.db'));
  const processMetrics = createProcessMetrics({ open: config.metricsOpen });
  const table = createSqliteTable({
    db,
    // Its streams follow by push: the live hub's items too (lib/status/stream-hub.ts).
    streamEntities: [...new Set([...STREAM_ENTITIES, ...LIVE_STREAM_ENTITIES])],
    backgroundCheckpoints: true,
    writerThread: true,
    observeCommit: (ms) => processMetrics.observeCommit(ms),
  });
  // Probe threads read the system clock: a caller's (fake) clock keeps the probes on the event loop.
  const probeThreads =
    config.probeThreads > 0 && clock === systemClock
      ? startProbeThreads({
          threads: config.probeThreads,
          allowPrivate: config.allowPrivateTargets,
          httpClient: config.probeHttpClient,
          browser: { runs: config.browserRuns, chromiumPath: config.chromiumPath },
          ...(options.probe?.tlsCa ? { tlsCa: options.probe.tlsCa } : {}),
        })
      : undefined;
  // One attempt more than a delivery's three, so the third failure is handled (marked failed) before a dead letter.
  const notifyQueue = createSqliteJobQueue({
    table,
    name: NOTIFY_QUEUE,
    schema: notifyQueueJobSchema,
    clock,
    logger: logger.child({ component: 'notify-queue' }),
    maxAttempts: 4,
  });
  const actionQueue = createSqliteJobQueue({
    table,
    name: ACTION_QUEUE,
    schema: actionJobSchema,
    clock,
    logger: logger.child({ component: 'action-queue' }),
  });
  processMetrics.watchQueues(notifyQueue, actionQueue);
  // The process's kept-alive connections of channel and action sends; closed at stop.
  const egressPool = createEgressPool();
  // Email channels send over SMTP here (SES in the cloud); without VIGIL_SMTP_URL their deliveries fail, saying so.
  const email = config.smtpUrl
    ? createSmtpTransport({
        url: config.smtpUrl,
        egressAllow: config.egressAllow,
        runtime: 'local',
        ca: options.egress?.ca,
        resolve: options.egress?.resolve,
      })
    : undefined;
  const streams = new AbortController();
  // Browser checks' screenshots: files beside vigil.db, swept with the results they belong to.
  const artifacts = createFileArtifactStore(join(config.dataDir, 'artifacts'));
  const app = createApp({
    artifacts,
    stopping: streams.signal,
    table,
    notifyQueue,
    actionQueue,
    egress: { transport: egressPool.transport, ...options.egress },
    ...(email ? { email } : {}),
    clock,
    logger,
    config,
    rateLimiter: createMemoryRateLimiter({ clock }),
    // VIGIL_PROBE_HTTP_CLIENT picks the transport here, so only this runtime bundles undici for probes.
    probe: {
      ...options.probe,
      transport: probeTransport(config.probeHttpClient),
      // Browser checks run on the probe threads' runners when there are threads, else on this one.
      ...(probeThreads
        ? {}
        : {
            browserRunner: createBrowserRunner({
              concurrency: config.browserRuns,
              executablePath: config.chromiumPath,
            }),
          }),
    },
    ...(probeThreads ? { prober: probeThreads.prober } : {}),
    // The change pump runs the consumers in this process, so open streams hear of transitions at once.
    statusStream: { follow: 'push', ...options.statusStream },
    probeSoon: (job) => scheduler.probeSoon(job), // built below, before any request is served
  });
  const pump = createChangePump({ table, consumers: app.consumers, logger });
  // The cloud worker's cell runner (lib/cloud/worker-composition.ts) over the same app pieces and table.
  const { prober } = app.jobRunner;
  const cells = createCellRunner({
    table,
    prober,
    tenants: app.tenants,
    clock,
    artifacts,
    logger,
    ...options.cellFaults,
  });
  const scheduler = createScheduler({
    ...(options.scheduler || {}),
    table,
    jobRunner: app.jobRunner,
    cells,
    clock,
    logger: logger.child({ component: 'scheduler' }),
    dueShards: config.dueShards,
    concurrency: config.workerConcurrency,
    sweepArtifacts: (nowMs) =>
      artifacts.sweepExpired(
        nowMs,
        async (tenantId) => (await app.tenants.getTenant(tenantId))?.retention_days ?? 30,
      ),
  });

  const consoleFiles = createConsoleFiles(config.consoleDir, config);
  if (!consoleFiles.built)
    logger.warn('console not built: / answers a 503 page until it is; the API is unaffected', {
      dir: consoleFiles.dir,
      build: 'npm run build:web',
    });
  // The port is bound before the first tenant is made, so a busy port (PortUnavailableError) stops
  // the start before a key is created that could never be printed; requests wait for the migrations.
  let opened = () => {};
  const open = new Promise<void>((resolve) => {
    opened = resolve;
  });
  // A status page's custom domain serves that page alone: no metrics, no console (lib/status-pages).
  const pageDomains = new Set(config.pageDomains);
  const server = createHttpServer(
    async (req) => {
      const host = req.headers.host === undefined ? undefined : hostnameOf(req.headers.host);
      // GET /metrics: loopback only by default.
      const metrics = host && pageDomains.has(host) ? undefined : await processMetrics.answer(req);
      if (metrics) return metrics;
      await open;
      return app.router.handle(req);
    },
    logger,
    { signal: streams.signal, console: consoleFiles, limits: config.http, pageDomains },
  );
  const address = await listen(server, config.port, options.host ?? config.host).catch(
    async (err: unknown) => {
      // Nothing runs yet but the threads and the database: close them, so a caller may try another port.
      notifyQueue.close();
      actionQueue.close();
      await probeThreads?.close();
      await egressPool.close();
      await table.close();
      throw err;
    },
  );

  let bootstrapKey: string | undefined;
  if ((await app.tenants.listTenants()).length === 0) {
    const created = await app.tenants.createTenant({
      name: 'Local',
      email: config.bootstrapEmail,
      rawKey: config.bootstrapKey,
    });
    bootstrapKey = created.rawKey;
    logger.info('bootstrap tenant created', { tenant_id: created.tenant.id, user_id: created.user.id });
  }

  // Before the scheduler reads the due index and the API serves: every data migration (lib/migrations.ts).
  await runMigrations({ table, tenants: app.tenants, logger, clock, dueShards: config.dueShards });

  opened();
  const url = reachableUrl(address);
  logger.info('listening', { url, console: `${url}/`, address: address.address, port: address.port });
  const notifyRunner = startJobRunner({
    queue: notifyQueue,
    handle: (job) => app.notifier.handle(job),
    concurrency: NOTIFY_CONCURRENCY,
    logger: logger.child({ component: 'notifier' }),
  });
  // Jobs stored before a stop (or a crash) run again: a notification survives a kill -9.
  const notifyLoaded = await notifyQueue.load();
  if (notifyLoaded.resumed > 0) logger.info('notify queue reloaded', notifyLoaded);
  const actionJobs = startJobRunner({
    queue: actionQueue,
    handle: (job) => app.actionWorker.handle(job),
    concurrency: ACTION_CONCURRENCY,
    logger: logger.child({ component: 'action-worker' }),
  });
  // Runs and deadlines stored before a stop run again; their execution ids keep a run from repeating.
  const actionLoaded = await actionQueue.load();
  if (actionLoaded.resumed > 0) logger.info('action queue reloaded', actionLoaded);
  const actionSchedule = createActionSchedule({
    ...(options.actionSchedule || {}),
    table,
    queue: actionQueue,
    clock,
    logger: logger.child({ component: 'action-schedule' }),
    dueShards: config.dueShards,
  });
  const reportSchedule = createReportSchedule({
    ...(options.reportSchedule || {}),
    reports: app.reports,
    clock,
    logger: logger.child({ component: 'report-schedule' }),
  });
  pump.start();
  if (options.scheduler !== false) await scheduler.start();
  if (options.actionSchedule !== false) actionSchedule.start();
  if (options.reportSchedule !== false) reportSchedule.start();
  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      // Open event streams and agents' waiting leases never go idle: end them, or closing waits.
      streams.abort();
      // Before the server closes, so no probe starts while the rest shuts down; unfinished jobs stay queued for the restart.
      await scheduler.stop();
      await actionSchedule.stop();
      await reportSchedule.stop();
      // Manual runs still sending read `interrupted` unless their answer comes before the server closes.
      await app.actionRunner.interruptInFlight();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Keep-alive connections become idle once their in-flight request is answered; close them then.
        const sweep = setInterval(() => server.closeIdleConnections(), 50);
        server.once('close', () => clearInterval(sweep));
        server.closeIdleConnections();
      });
      await pump.stop();
      await notifyRunner.stop();
      notifyQueue.close();
      await actionJobs.stop();
      actionQueue.close();
      await app.senders.close();
      await egressPool.close();
      await probeThreads?.close();
      await table.close();
      logger.info('stopped');
    })();
    return stopping;
  };
  return {
    url,
    address,
    app,
    table,
    scheduler,
    cells,
    notifyRunner,
    actionJobs,
    actionSchedule,
    reportSchedule,
    bootstrapKey,
    console: { url: `${url}/`, dir: consoleFiles.dir, built: consoleFiles.built },
    drainChanges: () => pump.drain(),
    stop,
  };
}

/** The URL a local client uses: a wildcard bind (0.0.0.0, ::) is reached over loopback. */
function reachableUrl(address: AddressInfo): string {
  const bound = address.address;
  const host = bound === '0.0.0.0' ? '127.0.0.1' : bound === '::' ? '::1' : bound;
  return `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
}
