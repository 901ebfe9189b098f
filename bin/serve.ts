import { startLocalRuntime } from '../lib/local/runtime.ts';
import { loadConfig } from '../lib/platform/config.ts';
import { createLogger } from '../lib/platform/logger.ts';

const config = loadConfig('local');
const logger = createLogger({ level: config.logLevel });
const runtime = await startLocalRuntime({ config, logger });

if (runtime.bootstrapKey) {
  process.stdout.write(
    [
      '',
      '  Vigil is running. This is the admin API key of your first tenant; it is shown only once:',
      '',
      `    ${runtime.bootstrapKey}`,
      '',
      `  Try: curl -H "Authorization: Bearer ${runtime.bootstrapKey}" ${runtime.url}/v1/me`,
      '',
    ].join('\n'),
  );
}
process.stdout.write(`\n  Vigil API listening on ${runtime.url} (data in ${config.dataDir})\n\n`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    logger.info('shutting down', { signal });
    runtime.stop().then(
      () => process.exit(0),
      (err: unknown) => {
        logger.error('shutdown failed', { err });
        process.exit(1);
      },
    );
  });
}
