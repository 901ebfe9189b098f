import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { type AddressInfo, createConnection, createServer as createTcpServer, type Socket } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type LogLine, logLine } from './agent-process.ts';

/**
 * Network namespaces for probe agents (issue 40's acceptance tests): each agent runs in a
 * namespace of its own, joined to the host by a veth pair (host side 10.<x>.<n>.1/30, namespace
 * side 10.<x>.<n>.2/30, lo up). Two extra host addresses sit on the host's lo: the service
 * address (10.<x>.201.1), where Vigil listens, routed from every namespace; and the target address
 * (10.<x>.200.1), routed only from the namespaces that may reach it: the others have no route to
 * it, so a probe from there fails at once with "network unreachable". Everything is an address of
 * this machine: nothing leaves it. Needs root and iproute2 (`/usr/sbin/ip`).
 *
 * Names carry the creating process's pid (namespaces `vigil-<pid>-<n>`, veths `vg<pid>h<n>`, the
 * label `lo:vg<pid>` of the addresses on lo; no dummy interface: this kernel may lack the module): a
 * later run deletes what a crashed run left, and never what a live one owns.
 */

const IP = '/usr/sbin/ip';
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

const ip = (...args: string[]) => execFileSync(IP, args, { encoding: 'utf8', stdio: 'pipe' });

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Deletes a leftover unless it is already gone: deleting a namespace removes its veth pair a
 * moment later (the kernel tears the namespace down in the background), and another test file's
 * process may be cleaning the same leftovers at the same time.
 */
function deleteLeftover(...args: string[]): boolean {
  try {
    ip(...args);
    return true;
  } catch (err) {
    const stderr = String((err as { stderr?: unknown }).stderr ?? '');
    if (/Cannot find device|No such file|Cannot assign requested address|Invalid argument/.test(stderr)) {
      return false;
    }
    throw err;
  }
}

/** Deletes the namespaces, veths and lo addresses of runs whose process is gone. */
function cleanLeftovers(): string[] {
  const removed: string[] = [];
  for (const line of ip('netns', 'list').split('\n')) {
    const m = /^(vigil-(\d+)-\d+)\b/.exec(line.trim());
    if (m?.[1] && !alive(Number(m[2]))) {
      if (deleteLeftover('netns', 'del', m[1])) removed.push(m[1]);
    }
  }
  for (const line of ip('-o', 'link', 'show').split('\n')) {
    const m = /^\d+:\s+(vg(\d+)h\d+)[@:]/.exec(line);
    if (m?.[1] && !alive(Number(m[2]))) {
      if (deleteLeftover('link', 'del', m[1])) removed.push(m[1]);
    }
  }
  for (const line of ip('-o', '-4', 'addr', 'show', 'dev', 'lo').split('\n')) {
    const m = /\binet (\S+) .*\blo:vg(\d+)\s/.exec(`${line} `);
    if (m?.[1] && !alive(Number(m[2]))) {
      if (deleteLeftover('addr', 'del', m[1], 'dev', 'lo')) removed.push(m[1]);
    }
  }
  return removed;
}

/** A second octet whose 10.<x>.0.0/16 no address or route of this host uses yet. */
function freeOctet(): number {
  const used = `${ip('-4', 'route', 'show', 'table', 'all')}\n${ip('-4', '-o', 'addr', 'show')}`;
  for (let i = 0; i < 100; i += 1) {
    const x = 100 + ((process.pid + i) % 100);
    if (!new RegExp(`\\b10\\.${x}\\.`).test(used)) return x;
  }
  throw new Error('no free 10.x.0.0/16 for the test namespaces');
}

export interface Namespace {
  /** 1-based. */
  n: number;
  name: string;
  /** The host side's address (10.<x>.<n>.1). */
  hostAddress: string;
  /** The namespace side's address (10.<x>.<n>.2). */
  address: string;
}

export interface NamespaceNet {
  namespaces: Namespace[];
  /** Where Vigil listens: reachable from every namespace. */
  serviceAddress: string;
  /** The target: reachable from the namespaces named in `reachTarget` only. */
  targetAddress: string;
  /** Runs a command inside a namespace to its end; its stdout. */
  exec(ns: Namespace, command: string[]): string;
  /** Deletes every namespace (and so its veth pair) and the lo addresses (afterAll). */
  teardown(): void;
}

/**
 * `count` namespaces; those whose (1-based) number is in `reachTarget` get a route to the target
 * address. Leftovers of crashed runs are deleted first.
 */
export function createNamespaces(count: number, reachTarget: number[]): NamespaceNet {
  cleanLeftovers();
  const x = freeOctet();
  const tag = `vg${process.pid}`;
  const label = `lo:${tag}`;
  const serviceAddress = `10.${x}.201.1`;
  const targetAddress = `10.${x}.200.1`;
  const namespaces: Namespace[] = [];
  const teardown = () => {
    for (const ns of namespaces) {
      for (const args of [
        ['link', 'del', `${tag}h${ns.n}`],
        ['netns', 'del', ns.name],
      ]) {
        try {
          ip(...args);
        } catch {
          // already gone
        }
      }
    }
    for (const address of [serviceAddress, targetAddress]) {
      try {
        ip('addr', 'del', `${address}/32`, 'dev', 'lo');
      } catch {
        // already gone
      }
    }
  };
  try {
    ip('addr', 'add', `${serviceAddress}/32`, 'dev', 'lo', 'label', label);
    ip('addr', 'add', `${targetAddress}/32`, 'dev', 'lo', 'label', label);
    for (let n = 1; n <= count; n += 1) {
      const ns: Namespace = {
        n,
        name: `vigil-${process.pid}-${n}`,
        hostAddress: `10.${x}.${n}.1`,
        address: `10.${x}.${n}.2`,
      };
      namespaces.push(ns);
      const host = `${tag}h${n}`;
      const inner = `${tag}n${n}`;
      ip('netns', 'add', ns.name);
      ip('link', 'add', host, 'type', 'veth', 'peer', 'name', inner);
      ip('link', 'set', inner, 'netns', ns.name);
      ip('addr', 'add', `${ns.hostAddress}/30`, 'dev', host);
      ip('link', 'set', host, 'up');
      const inNs = (...args: string[]) => ip('netns', 'exec', ns.name, IP, ...args);
      inNs('link', 'set', 'lo', 'up');
      inNs('addr', 'add', `${ns.address}/30`, 'dev', inner);
      inNs('link', 'set', inner, 'up');
      inNs('route', 'add', `${serviceAddress}/32`, 'via', ns.hostAddress);
      if (reachTarget.includes(n)) inNs('route', 'add', `${targetAddress}/32`, 'via', ns.hostAddress);
    }
  } catch (err) {
    teardown();
    throw err;
  }
  return {
    namespaces,
    serviceAddress,
    targetAddress,
    exec: (ns, command) =>
      execFileSync(IP, ['netns', 'exec', ns.name, ...command], { encoding: 'utf8', stdio: 'pipe' }),
    teardown,
  };
}

const agents = new Set<ChildProcess>();

/** Kills every agent this module started that is still running (afterAll). */
export function killNamespacedAgents(): void {
  for (const child of agents) child.kill('SIGKILL');
  agents.clear();
}

/**
 * `vigil agent <args>` as a real process inside a namespace (`ip netns exec <ns> node
 * bin/vigil.ts agent …`, the pinned node that runs the tests, which runs TypeScript as it is); `ip netns
 * exec` execs the agent itself, so the child's pid is the agent's. Its JSON log lines are collected.
 */
export function startAgentIn(ns: Namespace, args: string[]) {
  const child = spawn(IP, ['netns', 'exec', ns.name, process.execPath, 'bin/vigil.ts', 'agent', ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, VIGIL_LOCATION_KEY: '' },
  });
  agents.add(child);
  const logs: LogLine[] = [];
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (c: Buffer) => {
    stdout += c.toString();
    const lines = stdout.split('\n');
    stdout = lines.pop() ?? '';
    for (const line of lines) if (line.trim()) logs.push(logLine(line));
  });
  child.stderr?.on('data', (c: Buffer) => {
    stderr += c.toString();
  });
  const exited = new Promise<number | null>((resolve) =>
    child.on('close', (code) => {
      agents.delete(child);
      resolve(code);
    }),
  );
  return {
    child,
    logs,
    exited,
    stderr: () => stderr,
    /** The log lines with this message so far. */
    logged: (msg: string) => logs.filter((l) => l.msg === msg),
    /** SIGKILL, and the process gone. */
    async kill() {
      child.kill('SIGKILL');
      await exited;
    },
  };
}

export type NamespacedAgent = ReturnType<typeof startAgentIn>;

/** An HTTP target on `address` answering every request with the status it is set to (200 at first). */
export async function startSwitchableTarget(address: string) {
  let status = 200;
  let hits = 0;
  const server: Server = createServer((_req, res) => {
    hits += 1;
    res.writeHead(status, { 'content-type': 'text/plain' }).end(`answer ${status}`);
  });
  server.listen(0, address);
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${address}:${port}/health`,
    hits: () => hits,
    answer(next: number) {
      status = next;
    },
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

/**
 * A TCP forward from `address:port` to `127.0.0.1:toPort` (e.g. to an HTTP front on loopback);
 * `stop()` and `start()` take it away and bring it back on the same port, as a restarting server
 * would (connections refused meanwhile).
 */
export async function startForward(address: string, toPort: number, port = 0) {
  const sockets = new Set<Socket>();
  let server: ReturnType<typeof createTcpServer> | undefined;
  let bound = port;
  const start = async () => {
    const listening = createTcpServer((client) => {
      const upstream = createConnection({ host: '127.0.0.1', port: toPort });
      sockets.add(client);
      sockets.add(upstream);
      const end = () => {
        client.destroy();
        upstream.destroy();
        sockets.delete(client);
        sockets.delete(upstream);
      };
      client.on('error', end).on('close', end);
      upstream.on('error', end).on('close', end);
      client.pipe(upstream);
      upstream.pipe(client);
    });
    listening.listen(bound, address);
    await once(listening, 'listening');
    bound = (listening.address() as AddressInfo).port;
    server = listening;
  };
  const stop = async () => {
    const listening = server;
    server = undefined;
    if (!listening) return;
    for (const s of sockets) s.destroy();
    sockets.clear();
    listening.close();
    await once(listening, 'close');
  };
  await start();
  return {
    get url() {
      return `http://${address}:${bound}`;
    },
    start,
    stop,
  };
}
