import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Locator, Page, Request } from 'playwright-core';
import { expect } from 'vitest';
import { openSqliteDatabase } from '../../lib/sqlite/sqlite-schema.ts';
import { createSqliteTable } from '../../lib/sqlite/sqlite-table.ts';
import type { WriteOp } from '../../lib/store/table.ts';
import { openBrowser } from '../support/chromium.ts';
import { killGroup, type ServeProcess, signalGroup, startServeProcess } from '../support/serve-process.ts';

/**
 * The console under test: the current web/ sources built with Vite into a temporary directory
 * (once per state of the sources, shared read-only by the run's console files),
 * served by a real local runtime (`bin/serve.ts` on SQLite, its own data directory), driven by
 * Debian's Chromium through playwright-core. Chromium runs with its background networking off, so
 * it talks to nothing but the runtime on 127.0.0.1.
 */

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Where screenshots go (a test artifact; docs/console.md shows copies made by `npm run docs:screenshots`). */
const SCREENSHOT_DIR = join(root, 'test-artifacts', 'console');

export interface ConsoleRig {
  url: string;
  /** The admin key the first run printed. */
  key: string;
  server: ServeProcess;
  /** The runtime's data directory (its SQLite file, vigil.db, for tests that seed what no route writes). */
  dataDir: string;
  browser: Browser;
  /** Calls the API directly (test setup and checks), as the admin unless another key is given. */
  api<T = unknown>(
    method: string,
    path: string,
    body?: unknown,
    key?: string,
  ): Promise<{ status: number; body: T }>;
  stop(): Promise<void>;
}

/** What a build of the console depends on: every file of web/ but its output, and the locked packages. */
function consoleSourceHash(): string {
  const hash = createHash('sha256');
  const add = (path: string) => hash.update(path).update('\0').update(readFileSync(path)).update('\0');
  const output = join(root, 'web', 'dist');
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
      a.name.localeCompare(b.name),
    )) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (path !== output && entry.name !== 'node_modules') walk(path);
      } else add(path);
    }
  };
  walk(join(root, 'web'));
  add(join(root, 'package-lock.json'));
  return hash.digest('hex').slice(0, 16);
}

/**
 * The console built from the current sources, in a directory named by their hash: built by the
 * first console file that asks and reused by the others (a build is about 2 s under the suite's
 * load, times 46 files; Vite is imported only to build). Consumers only read it.
 */
async function buildConsole(): Promise<string> {
  const dir = join(tmpdir(), `vigil-console-${consoleSourceHash()}`);
  if (existsSync(join(dir, 'index.html'))) return dir;
  const outDir = mkdtempSync(join(tmpdir(), 'vigil-console-build-'));
  const { build } = await import('vite');
  await build({
    configFile: join(root, 'web', 'vite.config.ts'),
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true },
  });
  try {
    renameSync(outDir, dir); // whole or not at all: a reader never sees a half-written build
  } catch {
    rmSync(outDir, { recursive: true, force: true }); // another file's build of the same sources won
  }
  return dir;
}

/** Starts a runtime serving the console of the current sources, and a browser; `env` adds runtime settings. */
export async function startConsole(env: Record<string, string> = {}): Promise<ConsoleRig> {
  const consoleDir = await buildConsole();
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-console-data-'));
  const server = await startServeProcess({
    VIGIL_DATA_DIR: dataDir,
    VIGIL_CONSOLE_DIR: consoleDir,
    VIGIL_EGRESS_ALLOW: '127.0.0.0/8',
    VIGIL_LOG_LEVEL: 'warn',
    ...env,
  });
  const key = /vgl_[A-Za-z0-9_]+/.exec(server.stdout())?.[0];
  if (!key) throw new Error(`no key printed:\n${server.stdout()}`);
  const browser = await openBrowser();
  const url = server.url;
  return {
    url,
    key,
    server,
    dataDir,
    browser,
    async api<T>(method: string, path: string, body?: unknown, as = key) {
      const res = await fetch(`${url}${path}`, {
        method,
        headers: {
          Authorization: `Bearer ${as}`,
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await res.text();
      return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
    },
    async stop() {
      await browser.close().catch(() => undefined);
      signalGroup(server, 'SIGTERM');
      const exited = await Promise.race([server.exited, new Promise((r) => setTimeout(r, 5_000, 'timeout'))]);
      if (exited === 'timeout') killGroup(server);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface ConsolePage {
  page: Page;
  /** Console errors, uncaught page errors and 5xx answers seen so far. */
  errors: string[];
  close(): Promise<void>;
}

/**
 * A new page (its own context: empty sessionStorage) at the given width. A 4xx the console
 * provoked on purpose (a validation error shown at a field) makes Chromium log "Failed to load
 * resource"; those are not errors of the page, but any 5xx answer is.
 */
/** A blueprint and one entity in it, made through the API (both 201); answers the entity's id. */
export async function seedEntity(
  rig: ConsoleRig,
  blueprint: { slug: string; name: string },
  entity: { slug: string; name: string },
): Promise<string> {
  expect((await rig.api('POST', '/v1/blueprints', blueprint)).status).toBe(201);
  const made = await rig.api<{ id: string }>('POST', `/v1/blueprints/${blueprint.slug}/entities`, entity);
  expect(made.status).toBe(201);
  return made.body.id;
}

/**
 * The `svc` blueprint ("Services") and an entity in it for each name, slugged as the name in lower
 * case (each 201); answers their ids by slug.
 */
export async function seedServices<N extends string>(
  rig: ConsoleRig,
  first: N,
  ...more: N[]
): Promise<Record<Lowercase<N>, string>> {
  const slug = (name: N) => name.toLowerCase() as Lowercase<N>;
  const ids = {
    [slug(first)]: await seedEntity(
      rig,
      { slug: 'svc', name: 'Services' },
      { slug: slug(first), name: first },
    ),
  };
  for (const name of more) {
    const made = await rig.api<{ id: string }>('POST', '/v1/blueprints/svc/entities', {
      slug: slug(name),
      name,
    });
    expect(made.status).toBe(201);
    ids[slug(name)] = made.body.id;
  }
  return ids as Record<Lowercase<N>, string>;
}

export async function openPage(rig: ConsoleRig, options: { width?: number } = {}): Promise<ConsolePage> {
  const context = await rig.browser.newContext({
    viewport: { width: options.width ?? 1280, height: 900 },
    baseURL: rig.url,
  });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: rig.url });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() !== 'error') return;
    if (/^Failed to load resource: the server responded with a status of 4\d\d/.test(msg.text())) return;
    errors.push(`console: ${msg.text()}`);
  });
  page.on('pageerror', (err) => errors.push(`page error: ${err.message}`));
  page.on('response', (res) => {
    if (res.status() >= 500) errors.push(`${res.status()} from ${res.request().method()} ${res.url()}`);
  });
  return { page, errors, close: () => context.close() };
}

/** Fills and sends the sign-in page's API key form (an operator's sign-in, folded under a disclosure). */
export async function submitKey(page: Page, key: string): Promise<void> {
  const field = page.getByLabel('API key');
  if (!(await field.isVisible())) await page.getByText('Sign in with an API key').click();
  await field.fill(key);
  await page.getByRole('button', { name: 'Sign in with the key' }).click();
}

/** Signs in with an API key through the sign-in page and waits for the status page. */
export async function signIn(page: Page, key: string): Promise<void> {
  await page.goto('/');
  await page.getByRole('heading', { name: 'Sign in to Vigil' }).waitFor();
  await submitKey(page, key);
  await page.getByRole('navigation', { name: 'Main' }).waitFor();
}

/** Writes a full-page screenshot as a test artifact: test-artifacts/console/<name>.png. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const path = join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/**
 * The longest a console test waits for the page to show what it expects: a bound on a wait, never a
 * sleep (the wait ends as soon as the page shows it). Generous, because CI may run under load.
 */
export const SHOWN_WITHIN_MS = 10_000;

/**
 * Waits until `locator` matches exactly `n` elements. A `count()` read once races the render: the
 * console draws a page in steps, as each of its queries answers. (For n = 0, wait first for
 * something that shows the page has loaded, or the absence proves nothing.)
 */
export async function expectCount(locator: Locator, n: number, where = ''): Promise<void> {
  const message = `count of ${locator}${where ? ` on ${where}` : ''}`;
  await expect.poll(() => locator.count(), { timeout: SHOWN_WITHIN_MS, message }).toBe(n);
}

/** Waits until `locator`'s text is `text` (exactly), or matches it when a RegExp. */
export async function expectText(
  locator: Locator,
  text: string | RegExp,
  timeout = SHOWN_WITHIN_MS,
): Promise<void> {
  // A short read per try: an element not there yet is one more try, not a 30 s wait.
  const poll = expect.poll(() => locator.textContent({ timeout: 500 }), {
    timeout,
    message: `text of ${locator}`,
  });
  await (typeof text === 'string' ? poll.toBe(text) : poll.toMatch(text));
}

/** Fails the test when the page logged an error (see openPage). */
export function expectNoConsoleErrors(p: ConsolePage): void {
  expect(p.errors).toEqual([]);
}

/** The key the console keeps in the tab's sessionStorage (null when signed out). */
export function storedKey(page: Page): Promise<string | null> {
  // A string, not a function: the test program is compiled without the DOM's types.
  return page.evaluate<string | null>("sessionStorage.getItem('vigil.apiKey')");
}

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** axe-core's WCAG 2 A and AA violations on the page as it is now, one line each. */
export async function audit(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol: the page's CSP stays on (and forbids any script of its own).
  await page.evaluate(`${AXE};0`);
  const violations = await page.evaluate<AxeViolation[]>(
    "axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } }).then((r) => r.violations)",
  );
  return violations.map(
    (v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
  );
}

/** Playwright's error for a call on a page, context or browser closed meanwhile. */
function isClosedError(err: unknown): boolean {
  return err instanceof Error && /Target page, context or browser has been closed/.test(err.message);
}

/**
 * Calls `seen` with each request the page sends and all its headers (headers() leaves out the
 * security-related ones). A request still in flight when the test closes its page has no headers
 * left to read: it is not reported; any other error surfaces.
 */
export function onRequestHeaders(
  page: Page,
  seen: (request: Request, headers: Record<string, string>) => void,
) {
  page.on('request', (request) => {
    void request.allHeaders().then(
      (headers) => seen(request, headers),
      (err: unknown) => {
        if (!isClosedError(err)) throw err;
      },
    );
  });
}

/**
 * Writes into a local runtime's store while it runs (a second SQLite connection on its data
 * directory, as the CLI does), one transaction per list of `writes`: what a page reads that no
 * API writes (pings, runs as the ping service stores them).
 */
export async function writeToRuntimeStore(dataDir: string, writes: WriteOp[][]): Promise<void> {
  const table = createSqliteTable({ db: openSqliteDatabase(join(dataDir, 'vigil.db')) });
  try {
    for (const ops of writes) await table.transact(ops);
  } finally {
    await table.close();
  }
}
