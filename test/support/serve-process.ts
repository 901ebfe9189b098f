import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface ServeProcess {
  child: ChildProcess;
  url: string;
  /** Everything printed on stdout so far. */
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code once the process has ended and its output has been read to the end. */
  exited: Promise<number | null>;
}

/** A JSON request to a served process with `key`; answers its status and parsed body (undefined when not JSON). */
export async function callServer(base: string, key: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  // biome-ignore lint/suspicious/noExplicitAny: test responses are inspected freely
  return { status: res.status, body: (await res.json().catch(() => undefined)) as any };
}

/**
 * A push check (failing on its first failure, an hour's interval) of a new entity `entity` of a new
 * blueprint `blueprint` on a served process; answers the check's id.
 */
export async function servedPushCheck(
  base: string,
  key: string,
  blueprint: { slug: string; name: string },
  entity: { slug: string; name: string },
): Promise<string> {
  await callServer(base, key, 'POST', '/v1/blueprints', blueprint);
  const made = await callServer(base, key, 'POST', `/v1/blueprints/${blueprint.slug}/entities`, entity);
  const check = await callServer(base, key, 'POST', '/v1/checks', {
    entity_id: made.body.id,
    check_type: 'push',
    failure_threshold: 1,
    interval_seconds: 3600,
  });
  if (check.status !== 201)
    throw new Error(`creating the push check: ${check.status} ${JSON.stringify(check.body)}`);
  return check.body.id;
}

/**
 * Runs the server with the given environment and waits until it prints its URL: `npm start` when
 * `viaNpm` (npm re-raises signals, so its exit code is not the server's), else the same entry point
 * directly (`node bin/serve.ts`, which is what the start script runs). The process
 * leads a process group of its own, so `groupProcesses` finds whatever it started, even re-parented.
 */
export async function startServeProcess(
  env: Record<string, string>,
  options: { viaNpm?: boolean; timeoutMs?: number } = {},
): Promise<ServeProcess> {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const [command, args] = options.viaNpm
    ? ['npm', ['start', '--silent']]
    : [process.execPath, ['bin/serve.ts']];
  const child = spawn(command, args, {
    cwd: root,
    // Rate limits off unless the test sets them (see NO_RATE_LIMITS in api-harness.ts).
    env: {
      ...process.env,
      // Node's compile cache, shared by the run's servers: a server's start took 3.1 s of CPU
      // with it warm against 4.4 s without (V8's code and the stripped TypeScript of ~1,000 files).
      NODE_COMPILE_CACHE: join(tmpdir(), 'vigil-test-compile-cache'),
      PORT: '0',
      VIGIL_LOG_LEVEL: 'info',
      VIGIL_RATE_LIMIT_RPS: '0',
      VIGIL_AUTH_FAILURE_LIMIT: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  let err = '';
  child.stdout?.on('data', (c: Buffer) => {
    out += c.toString('utf8');
  });
  child.stderr?.on('data', (c: Buffer) => {
    err += c.toString('utf8');
  });
  // 'close', not 'exit': at 'exit' the last lines the process wrote may still be in its pipes.
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no URL printed in ${timeoutMs} ms:\n${out}\n${err}`)),
      timeoutMs,
    );
    const poll = setInterval(() => {
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m?.[1]) {
        clearInterval(poll);
        clearTimeout(timer);
        resolve(m[1]);
      }
    }, 50);
    void exited.then((code) => {
      clearInterval(poll);
      clearTimeout(timer);
      reject(new Error(`process exited with ${code}:\n${out}\n${err}`));
    });
  });
  return { child, url, stdout: () => out, stderr: () => err, exited };
}

/** Sends a signal to the process the test started (npm or the server), not to its group. */
export function signalGroup(proc: ServeProcess, signal: NodeJS.Signals): void {
  proc.child.kill(signal);
}

/** Live (not zombie) processes in the group the test started, as `pid command`, from /proc. */
export function groupProcesses(proc: ServeProcess): string[] {
  const found: string[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // it ended while we looked
    }
    // pid (comm) state ppid pgrp ...: comm may hold spaces and parentheses, so split after the last ')'.
    const close = stat.lastIndexOf(')');
    const [state, , pgrp] = stat.slice(close + 2).split(' ');
    if (state !== 'Z' && Number(pgrp) === proc.child.pid)
      found.push(`${entry} ${stat.slice(stat.indexOf('(') + 1, close)}`);
  }
  return found;
}

/** Kills whatever is left of the group the test started (cleanup after a failed assertion). */
export function killGroup(proc: ServeProcess): void {
  if (proc.child.pid === undefined || groupProcesses(proc).length === 0) return;
  try {
    process.kill(-proc.child.pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/** The local addresses with a TCP socket listening on `port` (what `ss -ltn` shows), from /proc/net. */
export function listeningAddresses(port: number): string[] {
  const found: string[] = [];
  for (const [file, v6] of [
    ['/proc/net/tcp', false],
    ['/proc/net/tcp6', true],
  ] as const) {
    let table: string;
    try {
      table = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const line of table.split('\n').slice(1)) {
      const [, local, , state] = line.trim().split(/\s+/);
      const [hex, portHex] = local?.split(':') ?? [];
      if (state !== '0A' || hex === undefined || Number.parseInt(portHex ?? '', 16) !== port) continue;
      found.push(v6 ? ipv6FromProc(hex) : ipv4FromProc(hex));
    }
  }
  return found;
}

// /proc/net/tcp writes each 32-bit word of an address in host byte order (little-endian here).
function ipv4FromProc(hex: string): string {
  return [6, 4, 2, 0].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)).join('.');
}

function ipv6FromProc(hex: string): string {
  if (/^0+$/.test(hex)) return '::';
  if (hex === '00000000000000000000000001000000') return '::1';
  if (hex.startsWith('0000000000000000FFFF0000')) return `::ffff:${ipv4FromProc(hex.slice(24))}`;
  return hex;
}
