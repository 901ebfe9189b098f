import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserInput } from '../../lib/check-types/browser/browser-schema.ts';
import { runProbe } from '../../lib/check-types/run-probe.ts';
import { systemClock } from '../../lib/platform/clock.ts';
import { createBrowserRunner } from '../../lib/probes/browser-runner.ts';
import type { BrowserStepReport, ProbeDeps, ProbeOutcome } from '../../lib/probes/types.ts';
import { type BrowserSite, SITE_PASSWORD, startBrowserSite } from './support/browser-site.ts';

/**
 * Browser checks against a site on 127.0.0.1, each run a child process with Debian's Chromium
 * (lib/probes/browser-runner.ts): a login flow, a failing assertion, secrets hidden, and every
 * request the page makes judged by the SSRF guard. Chromium starts once per run: the runs here are
 * few, and run two at a time (the pool's default).
 */

const deps: ProbeDeps = { clock: systemClock, allowPrivate: true, browserRunner: createBrowserRunner() };
let site: BrowserSite;

beforeAll(async () => {
  site = await startBrowserSite();
});
afterAll(() => site.close());

/** The job the scheduler builds from a config the API accepted. */
const job = (config: unknown, timeout_ms = 20_000) => ({
  ...browserInput.parse(config),
  check_type: 'browser',
  timeout_ms,
});

const steps = (outcome: ProbeOutcome) =>
  (outcome.details?.steps ?? []).filter((s): s is BrowserStepReport => 'action' in s);
const secret = { password: { value: SITE_PASSWORD, secret: true } };

const loginSteps = (password: string) => [
  { action: 'goto', url: `${site.origin}/login` },
  { action: 'fill', selector: '#user', value: 'ada' },
  { action: 'fill', selector: '#password', value: password },
  { action: 'select', selector: '#lang', value: 'fr' },
  { action: 'click', selector: '#go' },
];

describe('a login flow', () => {
  it('logs in with the secret password, follows the cookie session and passes every step', async () => {
    const outcome = await runProbe(
      job({
        variables: secret,
        steps: [
          ...loginSteps('{{variables.password}}'),
          { action: 'wait_for', url: '/account' },
          { action: 'assert', subject: 'text', text: 'Welcome, ada' },
          { action: 'assert', subject: 'title', text: 'Account' },
          { action: 'assert', subject: 'url', url: '/account' },
          { action: 'assert', subject: 'count', selector: 'li', count: 3 },
          { action: 'screenshot' },
        ],
      }),
      deps,
    );

    expect(outcome.error_message).toBe('');
    expect(outcome.success).toBe(true);
    expect(steps(outcome).map((s) => [s.action, s.outcome])).toEqual([
      ['goto', 'passed'],
      ['fill', 'passed'],
      ['fill', 'passed'],
      ['select', 'passed'],
      ['click', 'passed'],
      ['wait_for', 'passed'],
      ['assert', 'passed'],
      ['assert', 'passed'],
      ['assert', 'passed'],
      ['assert', 'passed'],
      ['screenshot', 'passed'],
    ]);
    expect(outcome.details?.vitals?.ttfb_ms).toEqual(expect.any(Number));
    expect(site.requests).toContain('POST /login');
    expect(site.requests).toContain('GET /account');
  });

  it('fails at the first failing step, skips the rest and never shows the secret', async () => {
    const outcome = await runProbe(
      job({
        variables: secret,
        steps: [
          ...loginSteps('wrong'),
          { action: 'assert', subject: 'text', text: 'Wrong {{variables.password}}' },
          { action: 'assert', subject: 'title', text: 'Account' },
        ],
      }),
      deps,
    );

    expect(outcome.success).toBe(false);
    expect(steps(outcome).map((s) => s.outcome)).toEqual([
      'passed',
      'passed',
      'passed',
      'passed',
      'passed',
      'failed',
      'skipped',
    ]);
    expect(outcome.error_message).toContain('step 6 (assert): the page does not show "Wrong ********"');
    expect(JSON.stringify(outcome)).not.toContain(SITE_PASSWORD);
  });

  it('runs a page that loads a script which fetches from its API', async () => {
    const outcome = await runProbe(
      job({
        steps: [
          { action: 'goto', url: `${site.origin}/app` },
          { action: 'wait_for', text: 'data loaded' },
          { action: 'assert', subject: 'text', selector: '#out', text: 'data loaded' },
        ],
      }),
      deps,
    );

    expect(outcome.error_message).toBe('');
    expect(site.requests).toEqual(expect.arrayContaining(['GET /app.js', 'GET /api/data']));
  });
});

describe('the SSRF guard', () => {
  const refusedAt = (outcome: ProbeOutcome) => steps(outcome).find((s) => s.outcome === 'failed');

  it('refuses what a page script, a websocket, a redirect and a decimal address ask for', async () => {
    const [metadata, socket, redirect, decimal] = await Promise.all([
      runProbe(
        job({
          steps: [
            { action: 'goto', url: `${site.origin}/metadata` },
            { action: 'wait_for', text: 'blocked' },
          ],
        }),
        deps,
      ),
      runProbe(
        job({
          steps: [
            { action: 'goto', url: `${site.origin}/ws` },
            { action: 'wait_for', text: 'closed' },
          ],
        }),
        deps,
      ),
      runProbe(
        job({
          steps: [{ action: 'goto', url: `${site.origin}/redirect?to=http://169.254.169.254/latest/` }],
        }),
        deps,
      ),
      runProbe(job({ steps: [{ action: 'goto', url: 'http://2852039166/latest/meta-data/' }] }), deps),
    ]);

    for (const outcome of [metadata, socket, redirect, decimal]) {
      expect(outcome.success).toBe(false);
      expect(refusedAt(outcome)?.error).toBe(
        'the SSRF guard refused 169.254.169.254: destination 169.254.169.254 is a cloud metadata address',
      );
    }
    expect(refusedAt(redirect)?.action).toBe('goto');
    expect(site.requests).toContain('GET /redirect');
  });

  it('refuses the test site itself when private targets are not allowed', async () => {
    const outcome = await runProbe(job({ steps: [{ action: 'goto', url: `${site.origin}/login` }] }), {
      ...deps,
      allowPrivate: false,
    });

    expect(outcome.success).toBe(false);
    expect(refusedAt(outcome)?.error).toBe(
      'the SSRF guard refused 127.0.0.1: destination 127.0.0.1 is a loopback address',
    );
  });
});

/** Whether `pid` is under this process (its parents, read from /proc, lead here). */
function descendsFromThisProcess(pid: number): boolean {
  for (let p = pid, hops = 0; p > 1 && hops < 64; hops++) {
    if (p === process.pid) return true;
    try {
      // The parent is the field after the state, which follows the command's closing parenthesis.
      const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
      p = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    } catch {
      return false;
    }
  }
  return false;
}

/** The Chromium processes browser runs started (their switches name the guarded proxy's bypass rule). */
function runnerChromiums(): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--proxy-bypass-list=<-loopback>');
      } catch {
        return false;
      }
    })
    .map(Number);
}

describe('the wall clock', () => {
  it('kills a run that outlives it, Chromium included', async () => {
    // The child keeps the check's deadline itself: a wall clock shorter than it is what kills here.
    const impatient = { ...deps, browserRunner: createBrowserRunner({ maxWallClockMs: 8000 }) };
    // This run's Chromiums, seen while they are this process's descendants: other files' browser
    // runs on the machine have Chromiums of their own, and a leaked one would be reparented to init.
    const seen = new Set<number>();
    let running = true;
    const watching = (async () => {
      while (running) {
        for (const pid of runnerChromiums()) if (descendsFromThisProcess(pid)) seen.add(pid);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    const outcome = await runProbe(
      job({ steps: [{ action: 'goto', url: `${site.origin}/slow`, timeout_ms: 30_000 }] }, 30_000),
      impatient,
    ).finally(() => {
      running = false;
    });
    await watching;

    expect(outcome.success).toBe(false);
    expect(outcome.error_message).toBe('the browser run passed its wall clock of 8000 ms and was killed');
    expect(seen.size, 'no Chromium of this run was seen while it ran').toBeGreaterThan(0);
    await expect
      .poll(() => runnerChromiums().filter((pid) => seen.has(pid)), { timeout: 10_000 })
      .toEqual([]);
  });

  it('says Chromium did not start, and where it was looked for, when it is not there', async () => {
    const missing = {
      ...deps,
      browserRunner: createBrowserRunner({ executablePath: '/nonexistent/chromium' }),
    };
    const outcome = await runProbe(
      job({ steps: [{ action: 'goto', url: `${site.origin}/login` }] }),
      missing,
    );

    expect(outcome.success).toBe(false);
    expect(outcome.error_message).toMatch(
      /^the browser run failed: Chromium did not start \(\/nonexistent\/chromium\): .*doesn't exist/,
    );
  });

  it('fails a browser check where no runner is given', async () => {
    const outcome = await runProbe(job({ steps: [{ action: 'goto', url: `${site.origin}/login` }] }), {
      clock: systemClock,
      allowPrivate: true,
    });

    expect(outcome.error_message).toBe('browser checks are not run here: this runtime has no browser runner');
  });
});
