import { z } from 'zod';
import { startLocalRuntime } from '../lib/local/runtime.ts';
import type { JobStart } from '../lib/local/scheduler.ts';
import { loadConfig } from '../lib/platform/config.ts';
import { createLogger } from '../lib/platform/logger.ts';
import { onParentMessage, reply } from './child.ts';
import { postCreated } from './post-created.ts';

/**
 * Child process of `--only browser`: a real local runtime (SQLite in the parent's data dir,
 * scheduler on, private targets allowed) with `checks` browser checks, each a goto to the page the
 * parent serves and an assert on its text, every `intervalSeconds`. It reports each probe's due
 * time and when it began (before the browser runner's pool), from the scheduler's onProbeStart
 * hook, which tells of a cell member's probe once it has ended; the parent pairs them with the runs
 * it reads from /proc (./proc-tree.ts pairRuns), with CPU and memory.
 */

const message = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('setup'),
    dataDir: z.string(),
    pageUrl: z.string(),
    checks: z.number().int().min(1),
    intervalSeconds: z.number().int().min(60),
    timeoutMs: z.number().int().min(1000),
    browserRuns: z.number().int().min(1),
    probeThreads: z.number().int().min(0),
  }),
  z.object({ type: z.literal('handed') }),
]);

/** Checks per entity: the default plan limit (check_limit_per_entity). */
const CHECKS_PER_ENTITY = 20;

const handed: { dueMs: number; handedMs: number }[] = [];
const onProbeStart = (start: JobStart) => {
  handed.push({ dueMs: start.dueMs, handedMs: start.startedMs });
};
let runtime: Awaited<ReturnType<typeof startLocalRuntime>> | undefined;

const post = postCreated;

onParentMessage(message, async (msg) => {
  if (msg.type === 'handed') return reply({ type: 'handed', jobs: handed });
  const config = loadConfig('local', {
    PORT: '0',
    VIGIL_DATA_DIR: msg.dataDir,
    VIGIL_LOG_LEVEL: 'warn',
    VIGIL_ALLOW_PRIVATE_TARGETS: 'true',
    VIGIL_BROWSER_RUNS: String(msg.browserRuns),
    VIGIL_PROBE_THREADS: String(msg.probeThreads),
  });
  const local = await startLocalRuntime({
    config,
    logger: createLogger({ level: config.logLevel }),
    host: '127.0.0.1',
    scheduler: { onProbeStart },
  });
  runtime = local;
  const key = local.bootstrapKey;
  if (!key) throw new Error('no bootstrap key');
  await post(local.url, key, '/v1/blueprints', { slug: 'site', name: 'Site' });
  const ids: string[] = [];
  let entityId = '';
  // Through the API, as a user makes them: each check is first due within one interval of its creation.
  for (let c = 0; c < msg.checks; c += 1) {
    if (c % CHECKS_PER_ENTITY === 0)
      entityId = (
        await post(local.url, key, '/v1/blueprints/site/entities', { slug: `site-${c}`, name: `Site ${c}` })
      ).id;
    const check = await post(local.url, key, '/v1/checks', {
      entity_id: entityId,
      name: `Page ${c}`,
      check_type: 'browser',
      interval_seconds: msg.intervalSeconds,
      timeout_ms: msg.timeoutMs,
      config: {
        steps: [
          { action: 'goto', url: `${msg.pageUrl}?check=${c}` },
          { action: 'assert', subject: 'text', selector: '#status', text: 'All systems go' },
        ],
      },
    });
    ids.push(check.id);
  }
  reply({ type: 'ready', checks: ids.length, createdAtMs: Date.now() });
});
process.once('SIGTERM', () => {
  void (runtime?.stop() ?? Promise.resolve()).finally(() => process.exit(0));
});
reply({ type: 'alive' });
