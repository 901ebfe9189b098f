import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { OutputTail } from '../../lib/cli/run-output.ts';
import { pingEndpoint } from '../../lib/cli/run-pinger.ts';
import { WAIT } from '../support/wait.ts';
import { childOutput } from './child-output.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

interface Recorded {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: string;
}
type Answer = (req: Recorded, res: ServerResponse, n: number) => void;

const servers: { close(): void; closeAllConnections(): void }[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    server.close();
  }
});

/** A ping server on 127.0.0.1 recording every request; `answer` decides each reply (default 200 OK). */
async function pingServer(answer: Answer = (_r, res) => res.end('OK')) {
  const requests: Recorded[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const recorded = {
        method: req.method ?? '',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(recorded);
      answer(recorded, res, requests.length);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  servers.push(server);
  const { port } = server.address() as AddressInfo;
  return { requests, url: `http://127.0.0.1:${port}/ping/0f3c7e1a-5b2d-4c8e-9a71-3d2b6f4e8c10` };
}

/** `vigil run <args>` as a process: bin/vigil.ts on the pinned Node (`npm run vigil` runs it through tsx). */
function vigilRun(args: string[], argv0: string[] = [process.execPath, 'bin/vigil.ts'], cwd = root) {
  const [program = '', ...rest] = argv0;
  const child = spawn(program, [...rest, 'run', ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  return { child: child as ChildProcess, ...childOutput(child) };
}

const run = (args: string[]) => vigilRun(args).exited;

describe('vigil run (the process)', () => {
  it('pings /start, runs the command with its output on the terminal, then pings /0 with the output', async () => {
    const server = await pingServer();

    const res = await run([
      '--ping',
      `${server.url}?create=1`,
      '--',
      'sh',
      '-c',
      'echo hello; echo oops >&2',
    ]);

    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toBe('hello\n');
    expect(res.stderr).toBe('oops\n');
    const [start, end, ...more] = server.requests;
    expect(more).toEqual([]);
    expect(start).toMatchObject({
      method: 'POST',
      path: '/ping/0f3c7e1a-5b2d-4c8e-9a71-3d2b6f4e8c10/start',
      body: '',
    });
    expect(end).toMatchObject({ method: 'POST', path: '/ping/0f3c7e1a-5b2d-4c8e-9a71-3d2b6f4e8c10/0' });
    expect(end?.body.split('\n').sort()).toEqual(['', 'hello', 'oops']);
    // One fresh run id ties the run's pings together; the URL's own query is kept.
    expect(start?.query.get('rid')).toMatch(UUID);
    expect(end?.query.get('rid')).toBe(start?.query.get('rid'));
    expect(start?.query.get('create')).toBe('1');
    expect(end?.query.get('create')).toBe('1');
    expect(end?.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(end?.headers['user-agent']).toMatch(/^vigil-run\/\d+\.\d+\.\d+ \(node v\d+/);
  });

  it('gives each run its own run id', async () => {
    const server = await pingServer();

    await run(['--ping', server.url, '--', 'true']);
    await run(['--ping', server.url, '--', 'true']);

    const rids = new Set(server.requests.map((r) => r.query.get('rid')));
    expect(server.requests).toHaveLength(4);
    expect(rids.size).toBe(2);
  });

  it('pings /3 for a command exiting 3, with a note in the body, and exits 3', async () => {
    const server = await pingServer();

    const res = await run(['--ping', server.url, '--', 'sh', '-c', 'echo disk full; exit 3']);

    expect(res.code).toBe(3);
    expect(server.requests.map((r) => r.path.split('/').pop())).toEqual(['start', '3']);
    expect(server.requests[1]?.body).toBe('disk full\n[vigil run] exit status 3\n');
  });

  it('reports a command killed by a signal as a failure and exits 128 + the signal number', async () => {
    const server = await pingServer();

    const res = await run(['--ping', server.url, '--', 'sh', '-c', 'echo dying; kill -KILL $$']);

    expect(res.code).toBe(137);
    expect(server.requests[1]?.path).toMatch(/\/137$/);
    expect(server.requests[1]?.body).toBe('dying\n[vigil run] killed by signal SIGKILL (exit status 137)\n');
  });

  it('forwards SIGTERM to the command, which decides how it ends', async () => {
    const server = await pingServer();
    const script = 'trap "echo cleaning up; exit 5" TERM; echo ready; sleep 90 & wait';
    const wrapped = vigilRun(['--ping', server.url, '--', 'sh', '-c', script]);
    await expect.poll(wrapped.stdout, WAIT).toContain('ready');

    wrapped.child.kill('SIGTERM');
    const res = await wrapped.exited;

    expect(res.code).toBe(5);
    expect(server.requests[1]?.path).toMatch(/\/5$/);
    expect(server.requests[1]?.body).toBe('ready\ncleaning up\n[vigil run] exit status 5\n');
  });

  it('does not wait for background processes the command left holding its output', async () => {
    const server = await pingServer();

    const res = await run(['--ping', server.url, '--', 'sh', '-c', 'sleep 90 & echo left a sleeper; exit 2']);

    expect(res.code).toBe(2);
    expect(server.requests[1]?.body).toBe('left a sleeper\n[vigil run] exit status 2\n');
  });

  it('keeps running and reporting when its own stdout is closed (EPIPE)', async () => {
    const server = await pingServer();
    const wrapped = vigilRun([
      '--ping',
      server.url,
      '--',
      'sh',
      '-c',
      'sleep 1; yes | head -c 300000; echo; echo end',
    ]);
    wrapped.child.stdout?.destroy();

    const res = await wrapped.exited;

    expect(res.code, res.stderr).toBe(0);
    expect(server.requests[1]?.path).toMatch(/\/0$/);
    expect(server.requests[1]?.body.endsWith('y\n\nend\n')).toBe(true);
  });

  it('sends only the last 10,000 bytes of a long output, saying it was cut', async () => {
    const server = await pingServer();
    // 2,000 numbered lines of 50 bytes: 100,000 bytes.
    const script = 'i=0; while [ $i -lt 2000 ]; do printf "%049d\\n" $i; i=$((i+1)); done';

    const res = await run(['--ping', server.url, '--quiet', '--', 'sh', '-c', script]);

    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toBe('');
    const body = server.requests[1]?.body ?? '';
    const [note, ...lines] = body.split('\n');
    expect(note).toBe('[vigil run] output truncated to its last 10000 bytes');
    expect(lines.join('\n')).toHaveLength(10_000);
    expect(lines.slice(-2)).toEqual([`${'0'.repeat(45)}1999`, '']);
  });

  it('takes a smaller body limit from the server’s Ping-Body-Limit answer, as runitor does', async () => {
    const server = await pingServer((_r, res) => {
      res.setHeader('Ping-Body-Limit', '20');
      res.end('OK');
    });

    await run(['--ping', server.url, '--', 'sh', '-c', 'echo 0123456789; echo abcdefghijklmnopqrstuvwxyz']);

    expect(server.requests[1]?.body).toBe(
      '[vigil run] output truncated to its last 20 bytes\nhijklmnopqrstuvwxyz\n',
    );
  });

  it('retries pings after network errors and 5xx answers until the server is up', async () => {
    // The first two requests meet a dropped connection, the third a 503, the rest 200 OK.
    const server = await pingServer((_r, res, n) => {
      if (n <= 2) res.socket?.destroy();
      else if (n === 3) res.writeHead(503).end('down');
      else res.end('OK');
    });

    const res = await run(['--ping', server.url, '--retries', '3', '--', 'echo', 'backup done']);

    expect(res.code).toBe(0);
    expect(res.stderr).toBe('');
    expect(server.requests.map((r) => r.path.split('/').pop())).toEqual([
      'start',
      'start',
      'start',
      'start',
      '0',
    ]);
    expect(server.requests[4]?.body).toBe('backup done\n');
    expect(new Set(server.requests.map((r) => r.query.get('rid'))).size).toBe(1);
  });

  it('runs the command and keeps its exit status when every ping fails, without printing the URL', async () => {
    const server = await pingServer((_r, res) => res.writeHead(500).end('broken'));

    const res = await run(['--ping', server.url, '--retries', '1', '--', 'sh', '-c', 'echo ran; exit 4']);

    expect(res.code).toBe(4);
    expect(res.stdout).toBe('ran\n');
    expect(server.requests.map((r) => r.path.split('/').pop())).toEqual(['start', 'start', '4', '4']);
    expect(res.stderr).toContain('vigil run: the /start ping was not delivered: answered 500');
    expect(res.stderr).toContain('vigil run: the /4 ping was not delivered: answered 500');
    expect(res.stderr).not.toContain('0f3c7e1a');
  });

  it('does not retry an answer that will not change (404) and says what the server answered', async () => {
    const server = await pingServer((_r, res) => res.writeHead(404).end('not found'));

    const res = await run(['--ping', server.url, '--', 'true']);

    expect(res.code).toBe(0);
    expect(server.requests).toHaveLength(2);
    expect(res.stderr).toContain('the /start ping was not delivered: answered 404 not found');
  });

  it('keeps the exit status when nothing listens or the server never answers (bounded by --timeout)', async () => {
    const closed = await pingServer();
    const closedUrl = closed.url;
    for (const server of servers.splice(0)) server.close();
    const silent = await pingServer(() => {});

    const refused = await run(['--ping', closedUrl, '--retries', '0', '--', 'sh', '-c', 'exit 6']);
    const timedOut = await run([
      '--ping',
      silent.url,
      '--timeout',
      '1',
      '--retries',
      '0',
      '--',
      'sh',
      '-c',
      'exit 7',
    ]);

    expect(refused.code).toBe(6);
    expect(refused.stderr).toContain('the /6 ping was not delivered: failed: ECONNREFUSED');
    expect(timedOut.code).toBe(7);
    expect(timedOut.stderr).toContain('the /7 ping was not delivered: failed: UND_ERR_HEADERS_TIMEOUT');
    expect(silent.requests.map((r) => r.path.split('/').pop())).toEqual(['start', '7']);
  });

  it('exits 127 and pings /127 when the command does not exist', async () => {
    const server = await pingServer();

    const res = await run(['--ping', server.url, '--', 'no-such-command-vigil']);

    expect(res.code).toBe(127);
    expect(res.stderr).toBe('vigil run: cannot run "no-such-command-vigil": not found (ENOENT)\n');
    expect(server.requests[1]?.path).toMatch(/\/127$/);
    expect(server.requests[1]?.body).toBe(
      '[vigil run] cannot run "no-such-command-vigil": not found (ENOENT)\n',
    );
  });

  it('sends no /start with --no-start', async () => {
    const server = await pingServer();

    await run(['--ping', server.url, '--no-start', '--', 'true']);

    expect(server.requests.map((r) => r.path.split('/').pop())).toEqual(['0']);
  });

  it('refuses bad arguments with exit status 2, running nothing', async () => {
    const server = await pingServer();

    const noSeparator = await run(['--ping', server.url, 'true']);
    const noPing = await run(['--', 'true']);
    const badUrl = await run(['--ping', 'ftp://example.test/x', '--', 'true']);
    const badRetries = await run(['--ping', server.url, '--retries', 'lots', '--', 'true']);

    expect(noSeparator).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('put the command to run after --'),
    });
    expect(noPing).toMatchObject({ code: 2, stderr: expect.stringContaining('--ping <url> is required') });
    expect(badUrl).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--ping must be an http or https URL'),
    });
    expect(badRetries).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--retries must be a number'),
    });
    expect(server.requests).toEqual([]);
  });

  it('runs as the installed `vigil` bin (bin/vigil.js, executable, from any directory)', async () => {
    const server = await pingServer();

    const res = await vigilRun(
      ['--ping', server.url, '--', 'sh', '-c', 'exit 9'],
      [join(root, 'bin', 'vigil.js')],
      tmpdir(),
    ).exited;

    expect(res.code, res.stderr).toBe(9);
    expect(server.requests.map((r) => r.path.split('/').pop())).toEqual(['start', '9']);
  });
});

describe('vigil run (its parts)', () => {
  it('appends the ping suffix to the URL path, keeping the query and setting the run id', () => {
    const url = pingEndpoint(new URL('https://hc.example/ping/key/backup/?create=1&rid=old'), 'start', 'r1');

    expect(url.toString()).toBe('https://hc.example/ping/key/backup/start?create=1&rid=r1');
  });

  it('keeps the tail of the output, cut at a character boundary', () => {
    const tail = (limit: number) => {
      const kept = new OutputTail(limit);
      for (const chunk of ['abc', 'dé', 'fg']) kept.push(Buffer.from(chunk));
      return kept.read();
    };

    expect(tail(4)).toEqual({ text: 'éfg', truncated: true });
    // The last 3 bytes start inside 'é' (2 bytes): its second byte is left out, not mangled.
    expect(tail(3)).toEqual({ text: 'fg', truncated: true });
    expect(tail(100)).toEqual({ text: 'abcdéfg', truncated: false });
    expect(new OutputTail(5).read()).toEqual({ text: '', truncated: false });
  });
});
