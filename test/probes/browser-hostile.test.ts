import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import {
  chmodSync,
  type Dirent,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { descendants, processBytes } from '../../lib/probes/browser/process-tree.ts';
import type { BrowserRunAnswer } from '../../lib/probes/browser-run-wire.ts';
import {
  type BrowserRunnerOptions,
  createBrowserRunner,
  type RunFacts,
} from '../../lib/probes/browser-runner.ts';

/**
 * Browser runs against a hostile page on 127.0.0.1 (lib/probes/browser-runner.ts, Debian's
 * Chromium): a 1 GB download, an allocation loop, a spinning script and 1,000 popups. Each run ends
 * failed, the test's own server still answers, the temp directory the runner was given holds
 * nothing of the run once it is over, and the run's processes held no more than its memory bound.
 * The runner's temp directory is this file's own (TMPDIR), so other files' runs on the machine do
 * not show in it; the runner's child is given it too, as the child's TMPDIR.
 */

const GB = 2 ** 30;
const MB = 2 ** 20;

let origin = '';
let downloaded = 0;
let closeSite: () => Promise<void>;
const tmp = mkdtempSync('/tmp/vigil-hostile-');
const savedTmpdir = process.env.TMPDIR;

const page = (body: string) =>
  `<!doctype html><html><head><title>Hostile</title></head><body>${body}</body></html>`;
const PAGES: Record<string, string> = {
  // A link to a 1 GB file, followed as soon as the page loads.
  '/download-page': page(
    `<a id="get" href="/big.bin">get</a><script>document.getElementById('get').click()</script>`,
  ),
  // 32 MB arrays, touched, kept: up to 3 GB, well past the bound the runs here get.
  '/alloc': page(`<p id="out">allocating</p><script>const keep = []; const grow = () => {
    for (let i = 0; i < 4 && keep.length < 96; i++) { const a = new Uint8Array(32 * 1024 * 1024); a.fill(7); keep.push(a); }
    document.getElementById('out').textContent = 'held ' + keep.length * 32 + ' MB'; setTimeout(grow, 0); }; grow();</script>`),
  '/spin': page('<script>for (;;) {}</script>'),
  // 1,000 windows once loaded, and 1,000 at each click of #flood; what was tried and what is open, every 100 ms.
  '/popups': page(`<button id="flood">flood</button><p id="out">opening</p><script>const wins = [];
    const flood = () => { for (let i = 0; i < 1000; i++) wins.push(window.open('/blank?' + wins.length)); };
    addEventListener('load', () => setTimeout(flood));
    document.getElementById('flood').onclick = flood;
    setInterval(() => { document.getElementById('out').textContent =
      'tried ' + wins.length + ', open ' + wins.filter((w) => w && !w.closed).length; }, 100);</script>`),
  '/blank': page('blank'),
};

beforeAll(async () => {
  // The host's temp directory as the runner sees it: this file's own, writable by anyone like /tmp.
  chmodSync(tmp, 0o1777);
  process.env.TMPDIR = tmp;
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://site').pathname;
    if (path === '/big.bin') {
      res.writeHead(200, {
        'content-type': 'application/octet-stream',
        'content-disposition': 'attachment; filename="big.bin"',
        'content-length': String(GB),
      });
      const chunk = Buffer.alloc(MB, 1);
      const more = () => {
        while (downloaded < GB) {
          downloaded += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', more);
        }
        res.end();
      };
      res.on('close', () => res.removeAllListeners('drain'));
      return more();
    }
    const html = PAGES[path];
    res.writeHead(html ? 200 : 404, { 'content-type': 'text/html' }).end(html ?? 'healthy');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  closeSite = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
});

afterAll(async () => {
  await closeSite();
  if (savedTmpdir === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = savedTmpdir;
  rmSync(tmp, { recursive: true, force: true });
});

/**
 * Every file and directory under `dir`, walked one directory at a time: while a run is live,
 * Chromium creates and removes directories under it (its cache), and one removed between being
 * listed and being read is skipped, not an error (a recursive readdir threw ENOENT on it).
 */
function everything(dir: string): string[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return entries.flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? [path, ...everything(path)] : [path];
  });
}

/** The bytes of the files under `dir` (0 for what went while it was read). */
function diskBytes(dir: string): number {
  return everything(dir).reduce((sum, path) => {
    try {
      const stat = statSync(path);
      return sum + (stat.isFile() ? stat.size : 0);
    } catch {
      return sum;
    }
  }, 0);
}

/** What this process's children (the runner's) hold together in memory and on disk, sampled until `done` settles: the most. */
async function samplePeak(done: Promise<unknown>): Promise<{ memory: number; disk: number }> {
  let running = true;
  void done
    .finally(() => {
      running = false;
    })
    .catch(() => undefined);
  const peak = { memory: 0, disk: 0 };
  while (running) {
    const memory = descendants(process.pid).reduce((sum, pid) => sum + processBytes(pid), 0);
    peak.memory = Math.max(peak.memory, memory);
    peak.disk = Math.max(peak.disk, diskBytes(tmp));
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return peak;
}

interface HostileRun {
  answer?: BrowserRunAnswer;
  error?: string;
  facts: RunFacts[];
  peak: number;
  diskPeak: number;
  leftovers: string[];
}

/** One run of `steps` on a runner with a 512 MB bound: how it ended, what it held, what it left. */
async function hostileRun(
  steps: unknown[],
  options: BrowserRunnerOptions = {},
  timeoutMs = 25_000,
): Promise<HostileRun> {
  const facts: RunFacts[] = [];
  const runner = createBrowserRunner({
    memoryMb: 512,
    maxWallClockMs: 40_000,
    childEnv: { TMPDIR: tmp },
    onRunEnd: (f) => facts.push(f),
    ...options,
  });
  const run = runner({ steps: steps as never, timeoutMs, allowPrivate: true });
  const [settled, peak] = await Promise.all([
    run.then(
      (answer) => ({ answer }),
      (err: Error) => ({ error: err.message }),
    ),
    samplePeak(run),
  ]);
  return { ...settled, facts, peak: peak.memory, diskPeak: peak.disk, leftovers: everything(tmp) };
}

/** The test's server answers (the host stayed healthy). */
async function serverAnswers(): Promise<string> {
  return (await fetch(`${origin}/health`)).text();
}

const failedStep = (run: HostileRun) => run.answer?.steps.find((s) => s.outcome === 'failed');

describe('a hostile page', () => {
  it('gets no download: a 1 GB file is refused, and a run killed at its wall clock leaves nothing', async () => {
    const run = await hostileRun(
      [
        { action: 'goto', url: `${origin}/download-page` },
        // Longer than the wall clock: the run is killed while the download would be under way.
        { action: 'wait_for', text: 'never shown', timeout_ms: 25_000 },
      ],
      { maxWallClockMs: 8000 },
    );

    expect(run.error).toBe('the browser run passed its wall clock of 8000 ms and was killed');
    expect(run.leftovers).toEqual([]);
    // Not even while it ran: the run's directory held its profile, never the file.
    expect(run.diskPeak).toBeLessThan(64 * MB);
    expect(downloaded).toBeLessThan(GB);
    expect(await serverAnswers()).toBe('healthy');
  });

  it('is held to its memory bound by the kernel where a cgroup can be made (an allocation loop)', async () => {
    const run = await hostileRun([
      { action: 'goto', url: `${origin}/alloc` },
      { action: 'wait_for', text: 'held 3072 MB', timeout_ms: 20_000 },
    ]);

    expect(run.facts).toHaveLength(1);
    const [facts] = run.facts;
    if (facts?.bound === '/proc watch') {
      // No memory cgroup here: the watch killed the run.
      expect(run.error).toBe('the browser run held more than its memory bound of 512 MB and was killed');
    } else {
      expect(facts?.oomKills).toBeGreaterThan(0);
      expect(facts?.peakBytes).toBeLessThanOrEqual(512 * MB);
      expect(run.peak).toBeLessThanOrEqual(512 * MB);
      expect(run.error ?? failedStep(run)?.error).toBeDefined();
    }
    expect(run.leftovers).toEqual([]);
    expect(await serverAnswers()).toBe('healthy');
  });

  it('is killed by the /proc watch where no cgroup is used (an allocation loop)', async () => {
    const run = await hostileRun(
      [
        { action: 'goto', url: `${origin}/alloc` },
        { action: 'wait_for', text: 'held 3072 MB', timeout_ms: 20_000 },
      ],
      { cgroup: false },
    );

    expect(run.facts.map((f) => f.bound)).toEqual(['/proc watch']);
    expect(run.error).toBe('the browser run held more than its memory bound of 512 MB and was killed');
    // The watch reads every 200 ms: the run may pass the bound by what it allocates in that time.
    expect(run.peak).toBeLessThan(3 * 512 * MB);
    expect(run.leftovers).toEqual([]);
    expect(await serverAnswers()).toBe('healthy');
  });

  it('fails a page that spins its thread, with an answer and nothing left', async () => {
    const run = await hostileRun([{ action: 'goto', url: `${origin}/spin`, timeout_ms: 3000 }]);

    expect(run.error).toBeUndefined();
    expect(failedStep(run)?.error).toMatch(/Timeout 3000ms exceeded/);
    expect(run.leftovers).toEqual([]);
    expect(await serverAnswers()).toBe('healthy');
  });

  it('opens no window without a click, one per click, and keeps 8 pages open at most', async () => {
    const run = await hostileRun(
      [
        { action: 'goto', url: `${origin}/popups` },
        // Chromium's popup blocker: none of the 1,000 opened at load (no user gesture).
        { action: 'wait_for', text: 'tried 1000, open 0', timeout_ms: 20_000 },
        // A click is a gesture: one window of its 1,000; nine clicks, of which 7 stay beside the page itself.
        ...Array.from({ length: 9 }, () => ({ action: 'click', selector: '#flood' })),
        { action: 'wait_for', text: 'tried 10000, open 7', timeout_ms: 20_000 },
        { action: 'assert', subject: 'text', text: 'never shown' },
      ],
      { maxWallClockMs: 90_000 },
      60_000,
    );

    expect(run.error).toBeUndefined();
    expect(run.answer?.steps.map((s) => s.error ?? s.outcome)).toEqual([
      ...Array.from({ length: 12 }, () => 'passed'),
      'the page does not show "never shown"',
    ]);
    expect(run.facts[0]?.peakBytes).toBeLessThanOrEqual(512 * MB);
    expect(run.leftovers).toEqual([]);
    expect(await serverAnswers()).toBe('healthy');
  });
});

describe.runIf(process.getuid?.() === 0)('a run started by root', () => {
  it('runs as nobody with Chromium sandboxed, and nobody cannot read a 0700 data directory', async () => {
    const dataDir = join(tmp, 'data');
    mkdirSync(dataDir, { mode: 0o700 });
    const seen = new Map<number, { uid: string; cmdline: string }>();
    const runner = createBrowserRunner({ childEnv: { TMPDIR: tmp } });
    const run = runner({
      steps: [{ action: 'goto', url: `${origin}/blank` }] as never,
      timeoutMs: 20_000,
      allowPrivate: true,
    });
    let running = true;
    void run
      .finally(() => {
        running = false;
      })
      .catch(() => undefined);
    while (running) {
      for (const pid of descendants(process.pid)) {
        try {
          const uid = /^Uid:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? '';
          const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
          if (cmdline.includes('chromium') || cmdline.includes('browser-child'))
            seen.set(pid, { uid, cmdline });
        } catch {}
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const answer = await run;

    expect(answer.steps.map((s) => s.outcome)).toEqual(['passed']);
    const processes = [...seen.values()];
    expect(processes.some((p) => p.cmdline.includes('--type=renderer'))).toBe(true);
    expect(new Set(processes.map((p) => p.uid))).toEqual(new Set(['65534']));
    expect(processes.filter((p) => p.cmdline.includes('--no-sandbox'))).toEqual([]);
    // What the run's user makes of the server's data directory.
    expect(() =>
      execFileSync('/usr/bin/setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', 'ls', dataDir], {
        stdio: 'pipe',
      }),
    ).toThrow(/Permission denied/);
    rmSync(dataDir, { recursive: true });
  });
});

describe('a host that refuses Chromium its sandbox', () => {
  it('runs without it and says so once, with the reason, on the log', async () => {
    // A Chromium as such a host makes it: it exits at once unless started with --no-sandbox.
    const chromium = join(tmp, 'chromium-no-namespaces');
    writeFileSync(
      chromium,
      `#!/bin/sh\nfor a in "$@"; do [ "$a" = --no-sandbox ] && exec /usr/bin/chromium "$@"; done\necho "No usable sandbox! (this host refuses user namespaces)" >&2\nexit 1\n`,
      { mode: 0o755 },
    );
    const told: string[] = [];
    const runner = createBrowserRunner({
      executablePath: chromium,
      childEnv: { TMPDIR: tmp },
      onSandboxRefused: (reason) => told.push(reason),
    });
    const run = () =>
      runner({
        steps: [{ action: 'goto', url: `${origin}/blank` }] as never,
        timeoutMs: 20_000,
        allowPrivate: true,
      });
    const first = await run();
    const second = await run();

    expect([first, second].map((a) => a.steps.map((s) => s.outcome))).toEqual([['passed'], ['passed']]);
    expect(first.sandbox_refused).toMatch(/No usable sandbox! \(this host refuses user namespaces\)/);
    expect(told).toHaveLength(1);
    expect(told[0]).toBe(first.sandbox_refused);
  });
});
