import { z } from 'zod';
import { generateApiKey } from '../lib/auth/api-key.ts';
import { startLocalRuntime } from '../lib/local/runtime.ts';
import { createFakeClock } from '../lib/platform/clock.ts';
import { loadConfig } from '../lib/platform/config.ts';
import { createLogger } from '../lib/platform/logger.ts';
import { onParentMessage, reply } from './child.ts';

/**
 * Child process of `--only cronburst` (bench/cronburst.ts): the local runtime as it ships (SQLite
 * in the parent's data dir, the default rate limits: a key's 20/s with bursts of 100, the tenant's
 * ceiling of 100/s with bursts of 500, each check's 1 ping/s with bursts of 20), its scheduler off,
 * on a fake clock the parent moves (`advance`): the jobs' pings all arrive in the same second of
 * that clock, and their successes 1–30 s of it later, whatever the real time taken to send them.
 */

const message = z.discriminatedUnion('type', [
  z.object({ type: z.literal('setup'), dataDir: z.string(), startMs: z.number() }),
  z.object({ type: z.literal('advance'), ms: z.number().min(0) }),
  z.object({ type: z.literal('stop') }),
]);

const clock = createFakeClock(Date.now());
let runtime: Awaited<ReturnType<typeof startLocalRuntime>> | undefined;

onParentMessage(message, async (msg) => {
  switch (msg.type) {
    case 'setup': {
      clock.set(msg.startMs);
      const key = generateApiKey();
      const config = loadConfig('local', {
        VIGIL_DATA_DIR: msg.dataDir,
        VIGIL_BOOTSTRAP_KEY: key,
        VIGIL_LOG_LEVEL: 'warn',
        PORT: '0',
      });
      runtime = await startLocalRuntime({
        config,
        logger: createLogger({ level: config.logLevel }),
        clock,
        scheduler: false,
        actionSchedule: false,
        reportSchedule: false,
      });
      return reply({ type: 'ready', url: runtime.url, key, pid: process.pid });
    }
    case 'advance':
      clock.set(clock.now() + msg.ms);
      return reply({ type: 'advanced', nowMs: clock.now() });
    case 'stop':
      await runtime?.stop();
      return reply({ type: 'stopped' });
  }
});
