import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** Debian's nats-server package (`.ci/run` installs it). */
const NATS_SERVER_BIN = '/usr/sbin/nats-server';

/** A nats-server the test started on 127.0.0.1 and an ephemeral port. */
export interface TestNatsServer {
  /** "nats://127.0.0.1:port", with credentials when the server requires them. */
  url: string;
  port: number;
  /** Stops the server (SIGTERM) and waits for it to exit; safe to call twice. */
  close(): Promise<void>;
}

/** Whether the server binary is present (tests say so clearly instead of failing obscurely). */
function natsServerInstalled(): boolean {
  return existsSync(NATS_SERVER_BIN);
}

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  await once(server, 'close');
  if (address === null || typeof address === 'string') throw new Error('no TCP port');
  return address.port;
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  await exited;
}

/** How to start the test server. */
export interface NatsServerOptions {
  /** Require this user and password (the returned URL carries them). */
  auth?: { user: string; pass: string };
  /** Enable JetStream (`-js`), storing in a temporary folder removed on close. */
  jetstream?: boolean;
  /** The server's max_payload in bytes (default 1 MB), set through a config file. */
  maxPayload?: number;
}

/**
 * Starts nats-server on 127.0.0.1 and a free port, waiting until it accepts connections (at most
 * 10 s).
 */
export async function startNatsServer(options: NatsServerOptions = {}): Promise<TestNatsServer> {
  if (!natsServerInstalled()) throw new Error(`${NATS_SERVER_BIN} is missing: apt-get install nats-server`);
  const { auth } = options;
  const port = await freePort();
  const args = ['-a', '127.0.0.1', '-p', String(port)];
  if (auth) args.push('--user', auth.user, '--pass', auth.pass);
  const storeDir = options.jetstream ? mkdtempSync(join(tmpdir(), 'vigil-nats-js-')) : undefined;
  if (storeDir) args.push('-js', '-sd', storeDir);
  const configDir = options.maxPayload ? mkdtempSync(join(tmpdir(), 'vigil-nats-conf-')) : undefined;
  if (configDir) {
    writeFileSync(join(configDir, 'nats.conf'), `max_payload: ${options.maxPayload}\n`);
    args.push('-c', join(configDir, 'nats.conf'));
  }
  const child = spawn(NATS_SERVER_BIN, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  const close = async () => {
    await stop(child);
    if (storeDir) rmSync(storeDir, { recursive: true, force: true });
    if (configDir) rmSync(configDir, { recursive: true, force: true });
  };
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = `${stderr}${chunk.toString('utf8')}`.slice(-4000);
  });
  const deadline = Date.now() + 10_000;
  while (!(await accepts(port))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await close();
      throw new Error(`nats-server did not start on port ${port}: ${stderr}`);
    }
    await sleep(20);
  }
  const credentials = auth ? `${encodeURIComponent(auth.user)}:${encodeURIComponent(auth.pass)}@` : '';
  return { url: `nats://${credentials}127.0.0.1:${port}`, port, close };
}
