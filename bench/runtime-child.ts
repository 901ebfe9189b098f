import { performance } from 'node:perf_hooks';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { z } from 'zod';
import { createBlueprintStore } from '../lib/catalog/blueprints/blueprint-store.ts';
import { createEntityService } from '../lib/catalog/entities/entity-service.ts';
import { startLocalRuntime } from '../lib/local/runtime.ts';
import type { JobStart } from '../lib/local/scheduler.ts';
import { systemClock } from '../lib/platform/clock.ts';
import { loadConfig } from '../lib/platform/config.ts';
import { createLogger } from '../lib/platform/logger.ts';
import { onParentMessage, reply } from './child.ts';
import { postCreated } from './post-created.ts';
import { createLoopMonitor, createSamples } from './stats.ts';
import { readThreadCpu, threadCores } from './threads.ts';
import { createWindowProfiler } from './window-profiler.ts';

/**
 * Child process: a real local runtime (SQLite in the data dir the parent gives, scheduler on) with
 * `checks` http checks against the target. Lateness comes from the scheduler's onProbeStart hook;
 * everything is measured between the parent's `start` and `stop`.
 */

const setupMessage = z.object({
  type: z.literal('setup'),
  dataDir: z.string(),
  targetUrl: z.string(),
  checks: z.number().int().min(1),
  intervalSeconds: z.number().int().min(1),
  concurrency: z.number().int().min(1),
  dueShards: z.number().int().min(1),
  probeThreads: z.number().int().min(0),
  /**
   * false: the scheduler runs while the checks are created (each is due within one interval of its
   * creation, no burst). true: create with the scheduler off, then restart the runtime on the same
   * data dir with it on (fast setup; the checks due meanwhile run as one burst, fine at max rate).
   */
  restart: z.boolean(),
  /**
   * false (the `unrecorded` diagnostic): the result recorder is replaced by a no-op, so claims, the
   * durable queue and the probes run as usual and nothing is recorded (each job is dequeued as if
   * its slot had been recorded before). What the runtime reaches without the result transaction.
   */
  record: z.boolean(),
  /** Where to write a CPU profile of the measured window (--profile). */
  profileDir: z.string().optional(),
  label: z.string(),
});
const message = z.discriminatedUnion('type', [
  setupMessage,
  z.object({ type: z.literal('start') }),
  z.object({ type: z.literal('stop') }),
  z.object({ type: z.literal('progress') }),
]);

/** Checks per entity: the default plan limit (check_limit_per_entity). */
const CHECKS_PER_ENTITY = 20;

const lateness = createSamples();
let measuring = false;
let started = 0;
const onJobStart = () => {
  started += 1;
};
/** Lateness: when the probe itself began (on a probe thread, a moment after its job started) minus its due time. */
const onProbeStart = (start: JobStart) => {
  if (measuring) lateness.add(start.startedMs - start.dueMs);
};
const monitor = createLoopMonitor();
type Runtime = Awaited<ReturnType<typeof startLocalRuntime>>;
let runtime: Runtime | undefined;
let startedAt = 0;
let threadsAtStart = readThreadCpu();
let profiler = createWindowProfiler(undefined, '');

/** The `unrecorded` diagnostic: every job's result is dropped as a duplicate (see `record`). */
function dropResults(local: Runtime): void {
  local.app.jobRunner.recorder = { record: async () => ({ status: 'duplicate' }) };
}

const api = postCreated;

async function setup(input: z.output<typeof setupMessage>) {
  const t0 = performance.now();
  profiler = createWindowProfiler(input.profileDir, input.label);
  const config = loadConfig('local', {
    PORT: '0',
    VIGIL_DATA_DIR: input.dataDir,
    VIGIL_LOG_LEVEL: 'info',
    VIGIL_WORKER_CONCURRENCY: String(input.concurrency),
    VIGIL_DUE_SHARDS: String(input.dueShards),
    VIGIL_PROBE_THREADS: String(input.probeThreads),
  });
  const logger = createLogger({ level: config.logLevel });
  const local = await startLocalRuntime({
    config,
    logger,
    host: '127.0.0.1',
    scheduler: input.restart ? false : { onJobStart, onProbeStart },
  });
  // Patched before any claim commits (the first tick is still waiting for the writer).
  if (!input.record) dropResults(local);
  runtime = local;
  const key = local.bootstrapKey;
  const tenant = (await local.app.tenants.listTenants())[0];
  if (!key || !tenant) throw new Error('no bootstrap tenant');
  const entities = Math.ceil(input.checks / CHECKS_PER_ENTITY);
  // An operator raises the plan's entity limit; each entity keeps the default 20 checks.
  await local.app.tenants.setLimits(tenant.id, { entity_limit_per_bp: entities });
  await api(local.url, key, '/v1/blueprints', { slug: 'service', name: 'Service' });
  // Entities and checks through the services (not 20,000 HTTP calls into a process that is busy probing).
  const entityService = createEntityService({
    table: local.table,
    blueprints: createBlueprintStore(local.table),
    entities: local.app.entities,
    clock: systemClock,
  });
  let created = 0;
  let sliceStart = performance.now();
  for (let e = 0; e < entities; e += 1) {
    const entity = await entityService.create(tenant.id, 'service', {
      slug: `svc-${e}`,
      name: `Service ${e}`,
      fields: {},
    });
    for (let c = 0; c < CHECKS_PER_ENTITY && created < input.checks; c += 1) {
      await local.app.checkService.create(tenant.id, {
        entity_id: entity.id,
        check_type: 'http',
        target_url: input.targetUrl,
        interval_seconds: input.intervalSeconds,
        timeout_ms: 5000,
      });
      created += 1;
    }
    // Creating is synchronous under the hood: every 10 ms, let the scheduler's timers and probes run.
    if (performance.now() - sliceStart > 10) {
      await yieldToLoop();
      sliceStart = performance.now();
    }
  }
  if (input.restart) {
    await local.stop();
    runtime = await startLocalRuntime({
      config,
      logger,
      host: '127.0.0.1',
      scheduler: { onJobStart, onProbeStart },
    });
    if (!input.record) dropResults(runtime);
  }
  reply({ type: 'ready', checks: created, entities, setupMs: performance.now() - t0 });
}

onParentMessage(message, async (msg) => {
  switch (msg.type) {
    case 'setup':
      return setup(msg);
    case 'start':
      await profiler.start();
      lateness.reset();
      monitor.reset();
      measuring = true;
      startedAt = performance.now();
      threadsAtStart = readThreadCpu();
      return reply({ type: 'started' });
    case 'progress':
      return reply({ type: 'progress', started, scheduler: runtime?.scheduler.stats() ?? {} });
    case 'stop': {
      measuring = false;
      const elapsedMs = performance.now() - startedAt;
      const threads = threadCores(threadsAtStart, readThreadCpu(), elapsedMs);
      const loop = monitor.read();
      const profile = await profiler.stop();
      reply({
        type: 'stats',
        elapsedMs,
        jobs: lateness.count,
        lateness: lateness.summary(),
        loop,
        threads,
        scheduler: runtime?.scheduler.stats() ?? {},
        ...(profile ? { profile } : {}),
      });
      return;
    }
  }
});
process.once('SIGTERM', () => {
  void (runtime?.stop() ?? Promise.resolve()).finally(() => process.exit(0));
});
reply({ type: 'alive' });
