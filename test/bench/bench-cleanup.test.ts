import { type ChildProcess, spawn } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAlerts } from '../../bench/alerts.ts';
import { repoRoot } from '../../bench/child.ts';

/**
 * Every process a bench scenario starts is gone after it, whatever ended it: a round that times
 * out, a SIGTERM to the bench, a SIGKILL of the bench. The scenario's server is a stub checkout
 * (`root`, as --against uses) whose bin/serve.ts answers the API but never sends an alert, so every
 * phase waits for its timeout; the webhook receiver is the real child.
 */

/** A served stand-in: ids for every POST, `count` delivery logs, 201 for results; never alerts. */
const STUB_SERVE = `
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
// A grandchild, as a runtime's helper process would be: it must go with its group.
if (process.env.STUB_GRANDCHILD === '1') spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
let checks = 0;
let ids = 0;
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    const send = (status, body) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (req.method === 'GET') {
      const logs = Array.from({ length: checks }, () => ({ transition_id: null, created_at: new Date().toISOString() }));
      return send(200, { logs, next_cursor: null });
    }
    if (req.url === '/v1/checks') checks += 1;
    send(201, { id: 'stub_' + (ids += 1) });
  });
});
server.listen(0, '127.0.0.1', () => console.log('listening on http://127.0.0.1:' + server.address().port));
process.on('SIGTERM', () => process.exit(0));
`;

let stub: string;
beforeAll(() => {
  stub = mkdtempSync(join(tmpdir(), 'vigil-bench-stub-'));
  mkdirSync(join(stub, 'bin'));
  writeFileSync(join(stub, 'bin', 'serve.ts'), STUB_SERVE);
  symlinkSync(join(repoRoot, 'node_modules'), join(stub, 'node_modules'), 'dir');
});
afterAll(() => rmSync(stub, { recursive: true, force: true }));

/** Parent pid of every process, from /proc. */
function parents(): Map<number, number> {
  const out = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      out.set(Number(entry), ppid);
    } catch {
      // Gone meanwhile.
    }
  }
  return out;
}

/** Collects every descendant of `root` seen until `stop()`, polling /proc every 50 ms. */
function watchDescendants(root: number) {
  const seen = new Set<number>();
  const look = () => {
    const ppid = parents();
    const found = new Set([root]);
    for (let grew = true; grew; ) {
      grew = false;
      for (const [pid, parent] of ppid)
        if (found.has(parent) && !found.has(pid)) {
          found.add(pid);
          grew = true;
        }
    }
    for (const pid of found) if (pid !== root) seen.add(pid);
  };
  const timer = setInterval(look, 50);
  return {
    seen,
    stop() {
      look();
      clearInterval(timer);
      return [...seen];
    },
  };
}

const alive = (pid: number) => {
  try {
    // A zombie still answers kill 0: count it as gone.
    return !/^\S+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
};

/** Waits (bounded) until none of `pids` is alive; answers the ones still alive. */
async function survivors(pids: number[], withinMs: number): Promise<number[]> {
  const deadline = Date.now() + withinMs;
  while (pids.some(alive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  return pids.filter(alive);
}

/** Starts runAlerts against the stub in a process of its own (the bench as a user runs it). */
function startBench(grandchild: boolean): { child: ChildProcess; roundsStarted: Promise<void> } {
  const driver = join(stub, 'driver.mts');
  writeFileSync(
    driver,
    `import { runAlerts } from ${JSON.stringify(join(repoRoot, 'bench', 'alerts.ts'))};
import { stopOnExit } from ${JSON.stringify(join(repoRoot, 'bench', 'processes.ts'))};
stopOnExit(); // as bench/run.ts does
await runAlerts({ checks: 3, rounds: 5, warmupRounds: 0, phaseTimeoutMs: 60_000, flapWindowSeconds: 0,
  logFile: ${JSON.stringify(join(stub, 'driver.log'))}, root: ${JSON.stringify(stub)}, onProgress: (l) => console.log(l) });
`,
  );
  const child = spawn(process.execPath, [driver], {
    cwd: repoRoot,
    env: { ...process.env, STUB_GRANDCHILD: grandchild ? '1' : '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const roundsStarted = new Promise<void>((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      if (out.includes('push checks with a webhook each')) resolve();
    });
    // Kept to say why, should the bench end before its rounds (its last 2,000 characters).
    child.stderr?.on('data', (chunk: Buffer) => {
      err = (err + chunk.toString('utf8')).slice(-2000);
    });
    child.once('exit', (code) =>
      reject(new Error(`the bench exited (${code}) before its rounds; stdout:\n${out}\nstderr:\n${err}`)),
    );
  });
  return { child, roundsStarted };
}

describe('bench processes', () => {
  it('leaves no process behind when its rounds time out', async () => {
    const watch = watchDescendants(process.pid);
    const figures = await runAlerts({
      checks: 3,
      rounds: 1,
      warmupRounds: 0,
      phaseTimeoutMs: 300,
      flapWindowSeconds: 0,
      logFile: join(stub, 'timeout.log'),
      root: stub,
    });
    const pids = watch.stop();

    expect(figures.missing).toBe(6);
    // The stub server and the receiver at least.
    expect(pids.length).toBeGreaterThanOrEqual(2);
    expect(await survivors(pids, 15_000)).toEqual([]);
  });

  it('stops every process of the scenario, its group included, when the bench gets SIGTERM mid-round', async () => {
    const { child, roundsStarted } = startBench(true);
    const pid = child.pid ?? 0;
    const watch = watchDescendants(pid);
    await roundsStarted;
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

    child.kill('SIGTERM');
    const code = await exited;
    const pids = watch.stop();

    expect(code).toBe(143);
    // The stub server, its grandchild and the receiver at least.
    expect(pids.length).toBeGreaterThanOrEqual(3);
    expect(await survivors(pids, 15_000)).toEqual([]);
  });

  it('leaves no server behind when the bench is killed with SIGKILL', async () => {
    // No grandchild here: with no bench left to signal its group, the server stops what it started.
    const { child, roundsStarted } = startBench(false);
    const watch = watchDescendants(child.pid ?? 0);
    await roundsStarted;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    // Let the watcher see the whole tree before the bench goes.
    await new Promise((r) => setTimeout(r, 300));
    const pids = watch.stop();

    child.kill('SIGKILL');
    await exited;

    expect(pids.length).toBeGreaterThanOrEqual(2);
    // The server's parent guard polls every 500 ms; the receiver ends when its IPC channel closes.
    expect(await survivors(pids, 15_000)).toEqual([]);
  });
});
