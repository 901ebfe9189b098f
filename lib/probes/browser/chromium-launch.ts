import { type Browser, chromium } from 'playwright-core';
import type { RunRequest } from '../browser-run-wire.ts';

/**
 * Starting a run's Chromium (./browser-session.ts): every request through the guarded proxy,
 * sandboxed where the host lets Chromium make its namespaces and chroot, and where it does not (a
 * container's default seccomp profile refuses chroot), without, saying why (docs/scripted-checks.md
 * "Bounds"; the runner logs it once).
 */

/** Chromium's switches: every request through the proxy, no path around it (WebRTC, QUIC, prefetch). */
const chromiumArgs = (proxy: string) => [
  `--proxy-server=${proxy}`,
  '--proxy-bypass-list=<-loopback>',
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--disable-quic',
  '--dns-prefetch-disable',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-domain-reliability',
  '--disable-sync',
  '--no-pings',
  '--disable-dev-shm-usage',
  '--renderer-process-limit=1',
  '--js-flags=--max-old-space-size=256',
];

const firstLine = (err: unknown) => (err instanceof Error ? err.message : String(err)).split('\n')[0] ?? '';

/** What Chromium itself wrote on stderr before a launch failed (Playwright's call log keeps it), else the error's first line. */
function chromiumSaid(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the call log's lines carry ANSI colours.
  const said = [...text.replace(/\u001b\[\d+m/g, '').matchAll(/\[pid=\d+\]\[err\] (.*)/g)].map((m) => m[1]);
  return (said.length > 0 ? said.join(' ') : firstLine(err).replace(/^browserType\.launch: /, '')).slice(
    0,
    500,
  );
}

/** Chromium started for `request` behind the proxy at `proxyUrl`, and why its sandbox was refused, if it was. */
export async function launchChromium(
  request: RunRequest,
  proxyUrl: string,
): Promise<{ browser: Browser; sandboxRefused: string | undefined }> {
  const launch = (sandbox: boolean) =>
    chromium.launch({
      executablePath: request.executablePath,
      args: [...chromiumArgs(proxyUrl), ...(request.extraArgs ?? [])],
      // Playwright's default is --no-sandbox; the runner runs the child as a user Chromium sandboxes.
      chromiumSandbox: sandbox,
      // Chromium's popup blocker, which Playwright turns off: a window opened without a click is refused.
      ignoreDefaultArgs: ['--disable-popup-blocking'],
      timeout: 15_000,
    });
  try {
    return { browser: await launch(true), sandboxRefused: undefined };
  } catch (sandboxed) {
    try {
      return { browser: await launch(false), sandboxRefused: chromiumSaid(sandboxed) };
    } catch {
      // Said as an Error of its own, so the runner reads the reason off the child's last words.
      const reason = firstLine(sandboxed).replace(/^browserType\.launch: /, '');
      throw new Error(`Chromium did not start (${request.executablePath}): ${reason}`);
    }
  }
}
