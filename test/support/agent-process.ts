import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo, createServer as createTcpServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** A well-formed location key for the stand-in (`vlk_` and 40 base62 characters). */
export const TEST_LOCATION_KEY = 'vlk_Test0Location0Key0For0The0Agent0Tests1';

/** A file holding `key`, as systemd's credentials or a secret mount would. */
export function keyFile(key = TEST_LOCATION_KEY): string {
  const file = join(mkdtempSync(join(tmpdir(), 'vigil-agent-')), 'location-key');
  writeFileSync(file, `${key}\n`, { mode: 0o600 });
  return file;
}

export interface LogLine {
  level: string;
  msg: string;
  [field: string]: unknown;
}

/** A JSON log line as written; other output (the --help text) as `{level: 'text'}`. */
export function logLine(line: string): LogLine {
  try {
    return JSON.parse(line) as LogLine;
  } catch {
    return { level: 'text', msg: line };
  }
}

const running = new Set<ChildProcess>();

/** Kills agents a test left running (afterEach). */
export function killAgents(): void {
  for (const child of running) child.kill('SIGKILL');
  running.clear();
}

/**
 * `npm run vigil -- agent <args>` as a real child process (what `npm run vigil` runs: tsx
 * bin/vigil.ts), its JSON log lines collected. Killed after 90 s whatever happens.
 */
export function startAgent(args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, ['bin/vigil.ts', 'agent', ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, VIGIL_LOCATION_KEY: '', ...env },
  });
  running.add(child);
  const logs: LogLine[] = [];
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => {
    stdout += c.toString();
    const lines = stdout.split('\n');
    stdout = lines.pop() ?? '';
    for (const line of lines) if (line.trim()) logs.push(logLine(line));
  });
  child.stderr.on('data', (c: Buffer) => {
    stderr += c.toString();
  });
  const killer = setTimeout(() => child.kill('SIGKILL'), 90_000);
  const exited = new Promise<number | null>((resolve) =>
    child.on('close', (code) => {
      clearTimeout(killer);
      running.delete(child);
      resolve(code);
    }),
  );
  return {
    child,
    logs,
    exited,
    stderr: () => stderr,
    /** The log line with this message, if written yet. */
    log: (msg: string) => logs.find((l) => l.msg === msg),
  };
}

/**
 * An HTTP probe target on 127.0.0.1: `/ok` answers 200, `/fail` 500, `/slow` 200 after `holdMs`;
 * it counts requests per path and the most in flight at once.
 */
export async function startHttpTarget(holdMs = 300) {
  const hits = new Map<string, number>();
  let inFlight = 0;
  let maxInFlight = 0;
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    const answer = () => {
      inFlight -= 1;
      if (path.startsWith('/fail')) res.writeHead(500).end('no');
      else res.writeHead(200, { 'content-type': 'text/plain' }).end('hello from the target');
    };
    if (path.startsWith('/slow')) setTimeout(answer, holdMs);
    else answer();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    hits: (path: string) => hits.get(path) ?? 0,
    get inFlight() {
      return inFlight;
    },
    get maxInFlight() {
      return maxInFlight;
    },
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

/** A listening TCP port on 127.0.0.1, and one that was closed again (connections refused). */
export async function tcpPorts() {
  const open = createTcpServer((socket) => socket.destroy());
  open.listen(0, '127.0.0.1');
  await once(open, 'listening');
  const closed = createTcpServer();
  closed.listen(0, '127.0.0.1');
  await once(closed, 'listening');
  const closedPort = (closed.address() as AddressInfo).port;
  closed.close();
  await once(closed, 'close');
  return { open: (open.address() as AddressInfo).port, closed: closedPort, close: () => open.close() };
}
