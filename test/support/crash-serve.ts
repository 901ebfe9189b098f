import { startLocalRuntime } from '../../lib/local/runtime.ts';
import { loadConfig } from '../../lib/platform/config.ts';
import { createLogger } from '../../lib/platform/logger.ts';

/**
 * bin/serve.ts with the cell runner's fault seam, for the kill -9 rounds (test/support/crash-rounds.ts):
 * `node test/support/crash-serve.ts <n>` SIGKILLs itself at the n-th cell slot it
 * stores with a failure in it (a slot that moves some member's state or failure count), after the
 * slot's results and before its state moves (0: never). The configuration is
 * the product's (VIGIL_* variables), and so is everything else it runs.
 */

const killAt = Number(process.argv[2] ?? '0');
let stored = 0;
const config = loadConfig('local');
const runtime = await startLocalRuntime({
  config,
  logger: createLogger({ level: config.logLevel }),
  cellFaults: {
    afterResultsStored: (_job, record) => {
      if (record.results.every((entry) => entry.ok)) return;
      stored += 1;
      if (killAt > 0 && stored >= killAt) process.kill(process.pid, 'SIGKILL');
    },
  },
});
process.stdout.write(`\n  Vigil API listening on ${runtime.url}\n`);
process.once('SIGTERM', () => {
  runtime.stop().then(
    () => process.exit(0),
    () => process.exit(1),
  );
});
