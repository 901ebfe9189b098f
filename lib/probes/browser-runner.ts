import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createLogger } from '../platform/logger.ts';
import { killTree } from './browser/process-tree.ts';
import {
  type CgroupParent,
  findCgroupParent,
  type MemoryBound,
  memoryBound,
  sweepCgroups,
} from './browser/run-memory.ts';
import {
  alive,
  makeRoom,
  type RunUser,
  removeRoom,
  roomEnv,
  runUser,
  sweepRooms,
} from './browser/run-room.ts';
import { type BrowserRunAnswer, type RunRequest, runAnswerSchema } from './browser-run-wire.ts';

/**
 * Runs browser checks, each in a child process of its own (./browser/browser-child.ts): started with an
 * empty environment (or only where its Chromium finds its libraries) but for its own directory as
 * TMPDIR and HOME, as another user when the server is root (./browser/run-room.ts), under a memory
 * bound for the whole run, Chromium included (./browser/run-memory.ts), the run's request on stdin,
 * and killed with every process under it (Chromium leads a process group of its own) when the wall
 * clock runs out. Whatever the end, the run's processes are killed and its directory and cgroup
 * removed; what a killed server left, the next runner removes. At most `concurrency` runs at once;
 * the others wait their turn (their wait does not count against their deadline).
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
  /** The most a run's processes may hold together, MB (default 1024). */
  memoryMb?: number;
  /** The user runs take when the server is root (default nobody); an unprivileged server's runs are its own. */
  user?: string;
  /** The cgroup directory runs get theirs under (default: found, ./browser/run-memory.ts); false: the /proc watch. */
  cgroup?: string | false;
  /** Told what each run's memory bound saw, once the run is over (logs, tests). */
  onRunEnd?: (facts: RunFacts) => void;
  /**
   * Told, once per runner, that the host refused Chromium's sandbox and runs go on without it
   * (default: a `warn` line on the server's log, so an operator sees it and can grant it).
   */
  onSandboxRefused?: (reason: string) => void;
}

/** What a run's memory bound saw. */
export interface RunFacts {
  bound: MemoryBound['kind'];
  limitBytes: number;
  peakBytes: number;
  /** Processes the kernel killed at the cgroup's limit. */
  oomKills: number;
}

/** What a run is asked: the request without the runner's own settings. */
type BrowserRunInput = Omit<RunRequest, 'executablePath' | 'extraArgs'>;

/** Runs one browser check; rejects (with a sentence) when the child fails or is killed. */
export type BrowserRunner = (input: BrowserRunInput) => Promise<BrowserRunAnswer>;

const CHILD = fileURLToPath(new URL('./browser/browser-child.ts', import.meta.url));
const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The most the child may write (the answer with its screenshots). */
const MAX_ANSWER_BYTES = 24 * 1024 * 1024;

/** The node arguments that run a .ts entry: Node's own type stripping, or tsx's loader where Node has none. */
function nodeArgs(heapMb: number, entry: string): string[] {
  const strips = (process.features as { typescript?: unknown }).typescript;
  const ts = entry.endsWith('.ts') && !strips;
  return [`--max-old-space-size=${heapMb}`, ...(ts ? ['--import', 'tsx'] : []), entry];
}

/** How a child is started: its heap, entry, environment, user and memory bound. */
interface ChildSpec {
  heapMb: number;
  entry: string;
  env: Record<string, string>;
  user: RunUser | undefined;
  limitBytes: number;
  cgroup: CgroupParent | undefined;
  onRunEnd: (facts: RunFacts) => void;
}

/** Runs one request in a child, in a directory of its own removed after; the answer, or why there is none. */
async function runChild(
  request: RunRequest,
  spec: ChildSpec,
  wallClockOf: (timeoutMs: number) => number,
): Promise<BrowserRunAnswer> {
  const room = await makeRoom(spec.user);
  try {
    return await runInRoom(request, spec, wallClockOf, room);
  } finally {
    await removeRoom(room);
  }
}

function runInRoom(
  request: RunRequest,
  spec: ChildSpec,
  wallClockOf: (timeoutMs: number) => number,
  room: string,
): Promise<BrowserRunAnswer> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, nodeArgs(spec.heapMb, spec.entry), {
      cwd: REPO_ROOT,
      env: { ...spec.env, ...roomEnv(room) },
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
      ...(spec.user ? { uid: spec.user.uid, gid: spec.user.gid } : {}),
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
    // The bound takes the child before it reads its request, so before it starts anything.
    const bound = memoryBound(spec.cgroup, spec.limitBytes, kill).then(async (b) => {
      if (child.pid !== undefined)
        await b.place(child.pid).catch(() => kill('the browser run could not be put under its memory bound'));
      return b;
    });
    child.on('error', (err) => {
      clearTimeout(timer);
      void bound.then((b) => b.close());
      reject(new Error(`the browser runner could not start: ${err.message}`));
    });
    child.on('close', async (code) => {
      clearTimeout(timer);
      // Whatever Chromium left behind goes with the child (and with the cgroup, what left the tree).
      if (child.pid !== undefined) killTree(child.pid);
      const b = await bound;
      const oomKills = await b.oomKills();
      spec.onRunEnd({ bound: b.kind, limitBytes: spec.limitBytes, peakBytes: await b.peakBytes(), oomKills });
      await b.close();
      if (killedFor) return reject(new Error(killedFor));
      const parsed = runAnswerSchema.safeParse(safeJson(Buffer.concat(out).toString('utf8')));
      if (code === 0 && parsed.success) return resolve(parsed.data);
      const reason =
        oomKills > 0
          ? `it reached its memory bound of ${spec.limitBytes / 2 ** 20} MB`
          : (/Error: (.*)/.exec(errText)?.[1] ?? `exit code ${code}`);
      reject(new Error(`the browser run failed: ${reason}`));
    });
    child.stdin.on('error', () => undefined);
    void bound.then(() => child.stdin.end(JSON.stringify(request)));
  });
}

/** The default word on a refused sandbox: a line on the server's log (the probe threads have no logger of their own). */
function warnSandboxRefused(reason: string): void {
  createLogger().warn(
    'browser checks run without Chromium\'s sandbox: this host refused it (a container\'s seccomp profile, or user namespaces turned off); docs/scripted-checks.md "Bounds" says how to grant it',
    { reason },
  );
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
  const cgroup = options.cgroup === false ? undefined : findCgroupParent(options.cgroup);
  const spec: ChildSpec = {
    heapMb: options.heapMb ?? 256,
    entry: options.childEntry ?? CHILD,
    env: options.childEnv ?? {},
    user: runUser(options.user),
    limitBytes: (options.memoryMb ?? 1024) * 2 ** 20,
    cgroup,
    onRunEnd: options.onRunEnd ?? (() => undefined),
  };
  // What runs of servers no longer running left behind (killed mid-run, they could not remove it).
  const swept = Promise.all([sweepRooms(), sweepCgroups(cgroup, alive)]);
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
  let sandboxRefused = options.onSandboxRefused ?? warnSandboxRefused;
  return async (input) => {
    await swept;
    await acquire();
    try {
      const answer = await runChild({ ...input, executablePath, ...extraArgs }, spec, wallClockOf);
      if (answer.sandbox_refused !== undefined) {
        sandboxRefused(answer.sandbox_refused);
        sandboxRefused = () => undefined;
      }
      return answer;
    } finally {
      release();
    }
  };
}
