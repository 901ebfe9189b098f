import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BrowserRunner, createBrowserRunner } from './browser-runner.ts';

/**
 * The browser runner in the cloud's browser Lambda: the runner's child as the function's second
 * bundled file (infra/browser.ts builds ./browser/browser-child.ts beside the handler), and the
 * Chromium of @sparticuz/chromium, loaded at the first run only (no other function carries it),
 * which unpacks its binary to /tmp and its libraries to /tmp/al2023/lib.
 */

/** What that Chromium build needs in a Lambda (its README): one process, no zygote, no sandbox (Lambda runs as root). */
const LAMBDA_CHROMIUM_ARGS = ['--single-process', '--no-zygote', '--no-sandbox', '--in-process-gpu'];

/** The child's whole environment: where the unpacked Chromium finds its libraries and fonts, nothing else. */
const lambdaChildEnv = (): Record<string, string> => ({
  HOME: tmpdir(),
  LD_LIBRARY_PATH: join(tmpdir(), 'al2023', 'lib'),
  FONTCONFIG_PATH: join(tmpdir(), 'fonts'),
});

/** The runner the browser function uses in AWS (one run at a time: its batch size is 1). */
export function lambdaBrowserRunner(): BrowserRunner {
  let runner: Promise<BrowserRunner> | undefined;
  const start = async (): Promise<BrowserRunner> => {
    const { default: chromium } = await import('@sparticuz/chromium');
    return createBrowserRunner({
      concurrency: 1,
      executablePath: await chromium.executablePath(),
      // Beside the handler's bundle (infra/browser.ts), whose import.meta.url this is once bundled.
      childEntry: fileURLToPath(new URL('./browser-child.mjs', import.meta.url)),
      childEnv: lambdaChildEnv(),
      extraArgs: LAMBDA_CHROMIUM_ARGS,
    });
  };
  return async (input) => {
    runner ??= start();
    return (await runner)(input);
  };
}
