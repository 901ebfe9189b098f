import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type BrowserRunAnswer, type RunRequest, runAnswerSchema } from './browser-run-wire.ts';

/**
 * Runs browser checks, each in a child process of its own (./browser/browser-child.ts): started with an
 * empty environment (or only where its Chromium finds its libraries), the run's request on stdin, a memory bound on its heap (Chromium's renderer
 * has its own, ./browser/browser-session.ts), and killed with every process under it (Chromium leads a
 * process group of its own) when the wall clock runs out. At most `concurrency` runs at once; the
 * others wait their turn (their wait does not count against their deadline).
 */

export interface BrowserRunnerOptions {
  /** Runs at once (default 2). */
  concurrency?: number;
  /** Chromium's executable (default Debian's /usr/bin/chromium). */
  executablePath?: string;
  /** The child's V8 heap bound, MB (default 256). */
  heapMb?: number;
  /** The wall clock's allowance for starting and closing Chromium, on top of the steps' ms (default 20 s). */
  graceMs?: number;
  /** The longest wall clock a run gets, whatever its timeout (default 90 s). */
  maxWallClockMs?: number;
  /** The child's entry (default ./browser/browser-child.ts; a bundle's own file in the Lambda). */
  childEntry?: string;
  /** The child's whole environment (default none): where that Chromium build finds its libraries. */
  childEnv?: Record<string, string>;
  /** Switches that Chromium build needs (RunRequest `extraArgs`). */
  extraArgs?: string[];
}

/** What a run is asked: the request without the runner's own settings. */
type BrowserRunInput = Omit<RunRequest, 'executablePath' | 'extraArgs'>;

/** Runs one browser check; rejects (with a sentence) when the child fails or is killed. */
export type BrowserRunner = (input: BrowserRunInput) => Promise<BrowserRunAnswer>;

const CHILD = fileURLToPath(new URL('./browser/browser-child.ts', import.meta.url));
const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The most the child may write (the answer with its screenshots). */
const MAX_ANSWER_BYTES = 24 * 1024 * 1024;

/** Every process under `pid` (Linux /proc), children before their parents' siblings. */
function descendants(pid: number): number[] {
  const parents = new Map<number, number[]>();
  let entries: string[] = [];
  try {
    entries = readdirSync('/proc').filter((e) => /^\d+$/.test(e));
  } catch {
    return [];
  }
  for (const entry of entries) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(ppid, [...(parents.get(ppid) ?? []), Number(entry)]);
    } catch {}
  }
  const found: number[] = [];
  const walk = (p: number) => {
    for (const child of parents.get(p) ?? []) {
      found.push(child);
      walk(child);
    }
  };
  walk(pid);
  return found;
}

/** Kills `pid`, its process group and everything under it. */
function killTree(pid: number): void {
  for (const p of [...descendants(pid), pid]) {
    for (const target of [-p, p]) {
      try {
        process.kill(target, 'SIGKILL');
      } catch {}
    }
  }
}

/** The node arguments that run a .ts entry: Node's own type stripping, or tsx's loader where Node has none. */
function nodeArgs(heapMb: number, entry: string): string[] {
  const strips = (process.features as { typescript?: unknown }).typescript;
  const ts = entry.endsWith('.ts') && !strips;
  return [`--max-old-space-size=${heapMb}`, ...(ts ? ['--import', 'tsx'] : []), entry];
}

/** How a child is started: its heap, entry and environment. */
interface ChildSpec {
  heapMb: number;
  entry: string;
  env: Record<string, string>;
}

/** Runs one request in a child; the answer, or a rejection saying why there is none. */
function runChild(
  request: RunRequest,
  spec: ChildSpec,
  wallClockOf: (timeoutMs: number) => number,
): Promise<BrowserRunAnswer> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, nodeArgs(spec.heapMb, spec.entry), {
      cwd: REPO_ROOT,
      env: spec.env,
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    let size = 0;
    let errText = '';
    let killedFor: string | undefined;
    const kill = (why: string) => {
      killedFor ??= why;
      if (child.pid !== undefined) killTree(child.pid);
    };
    const wallClock = wallClockOf(request.timeoutMs);
    const timer = setTimeout(
      () => kill(`the browser run passed its wall clock of ${wallClock} ms and was killed`),
      wallClock,
    );
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_ANSWER_BYTES) kill('the browser run wrote more than its answer may hold and was killed');
      else out.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (errText.length < 4096) errText += chunk.toString('utf8');
    });
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(new Error(`the browser runner could not start: ${err.message}`));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      // Whatever Chromium left behind goes with the child.
      if (child.pid !== undefined) killTree(child.pid);
      if (killedFor) return reject(new Error(killedFor));
      const parsed = runAnswerSchema.safeParse(safeJson(Buffer.concat(out).toString('utf8')));
      if (code === 0 && parsed.success) return resolve(parsed.data);
      const reason = /Error: (.*)/.exec(errText)?.[1] ?? `exit code ${code}`;
      reject(new Error(`the browser run failed: ${reason}`));
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(JSON.stringify(request));
  });
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A runner with a bounded pool of concurrent runs. */
export function createBrowserRunner(options: BrowserRunnerOptions = {}): BrowserRunner {
  const concurrency = Math.max(1, options.concurrency ?? 2);
  const executablePath = options.executablePath ?? '/usr/bin/chromium';
  const spec: ChildSpec = {
    heapMb: options.heapMb ?? 256,
    entry: options.childEntry ?? CHILD,
    env: options.childEnv ?? {},
  };
  const extraArgs = options.extraArgs?.length ? { extraArgs: options.extraArgs } : {};
  const graceMs = options.graceMs ?? 20_000;
  const maxWallClockMs = options.maxWallClockMs ?? 90_000;
  const wallClockOf = (timeoutMs: number) => Math.min(timeoutMs + graceMs, maxWallClockMs);
  let running = 0;
  const waiting: (() => void)[] = [];
  // A finished run hands its slot straight to the next waiting one, so no newcomer slips in between.
  const acquire = async () => {
    if (running < concurrency) running += 1;
    else await new Promise<void>((resolve) => waiting.push(resolve));
  };
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  };
  return async (input) => {
    await acquire();
    try {
      return await runChild({ ...input, executablePath, ...extraArgs }, spec, wallClockOf);
    } finally {
      release();
    }
  };
}
