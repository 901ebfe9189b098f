import { mkdirSync } from 'node:fs';
import { DataDirLockedError, lockDataDir } from '../lib/local/data-dir-lock.ts';
import { PortUnavailableError } from '../lib/local/http-server.ts';
import { startLocalRuntime } from '../lib/local/runtime.ts';
import { loadConfig } from '../lib/platform/config.ts';
import { createLogger } from '../lib/platform/logger.ts';

const config = loadConfig('local');
const logger = createLogger({ level: config.logLevel });
// One server per data dir (lib/local/data-dir-lock.ts): a second start refuses with one line.
mkdirSync(config.dataDir, { recursive: true });
// Held (referenced) for the process's life; the kernel drops it however the process ends.
const dataDirLock = (() => {
  try {
    return lockDataDir(config.dataDir);
  } catch (err) {
    if (!(err instanceof DataDirLockedError)) throw err;
    process.stderr.write(`${err.message}\n`);
    process.exit(1);
  }
})();
const runtime = await startLocalRuntime({ config, logger }).catch((err: unknown) => {
  // A busy port is the operator's to fix: one line saying how, no stack trace.
  if (!(err instanceof PortUnavailableError)) throw err;
  process.stderr.write(`${err.message}\n`);
  process.exit(1);
});

if (runtime.bootstrapKey) {
  process.stdout.write(
    [
      '',
      '  Vigil is running. This is the admin API key of your first tenant; it is shown only once:',
      '',
      `    ${runtime.bootstrapKey}`,
      '',
      `  Open the console at ${runtime.console.url} and paste it, or try:`,
      `    curl -H "Authorization: Bearer ${runtime.bootstrapKey}" ${runtime.url}/v1/me`,
      '',
    ].join('\n'),
  );
}
// Bound to every interface (VIGIL_HOST=0.0.0.0 in a container): the URL above is this machine's way in.
const { address, port } = runtime.address;
const everywhere =
  address === '0.0.0.0' || address === '::' ? `; bound to ${address}:${port}, every interface` : '';
const consoleLine = runtime.console.built
  ? `console: ${runtime.console.url}`
  : `console: not built (run \`npm run build:web\`; ${runtime.console.url} says so until then)`;
process.stdout.write(
  `\n  Vigil API listening on ${runtime.url} (Node ${process.version}, data in ${config.dataDir}${everywhere})\n  ${consoleLine}\n\n`,
);

/** A stop that hangs (a request that never ends) must not outlive the supervisor's patience. */
const STOP_DEADLINE_MS = 4_000;

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    logger.info('shutting down', { signal });
    setTimeout(() => {
      logger.error('shutdown took too long; exiting', { deadline_ms: STOP_DEADLINE_MS });
      process.exit(1);
    }, STOP_DEADLINE_MS).unref();
    runtime.stop().then(
      () => {
        dataDirLock.release();
        process.exit(0);
      },
      (err: unknown) => {
        logger.error('shutdown failed', { err });
        process.exit(1);
      },
    );
  });
}
