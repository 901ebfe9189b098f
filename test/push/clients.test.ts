import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HealthChecksPingClient } from 'healthchecks-io-client';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';
import { startHttpFront } from '../support/http-front.ts';
import { pingKit } from '../support/ping-compat-kit.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Runs a program to its end: its exit code (null when a signal ended it) and what it printed. */
function exec(file: string, args: string[], env: Record<string, string> = {}) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    execFile(
      file,
      args,
      { cwd: root, env: { ...process.env, ...env }, timeout: 60_000 },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : null) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/**
 * The ping URLs driven by real clients, unchanged, over real HTTP: the npm Healthchecks client,
 * runitor's requests as its source sends them, the curl lines of Healthchecks' docs, and
 * `vigil run`. The cloud runtime is reached through an HTTP front that turns each request into an
 * API Gateway event for the api Lambda handler (test/support/http-front.ts).
 */
describe.each(runtimes)('Healthchecks clients against the ping URLs ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  let base: string;
  let closeFront: () => Promise<void> = async () => {};
  const kit = pingKit(() => api);

  /** A push check (threshold 1) and a ping URL of it: the check id, the token (a UUID) and the URL. */
  async function newPingUrl() {
    const { checkId, token: uuid } = await kit.pushCheck();
    return { checkId, uuid, url: `${base}/ping/${uuid}` };
  }
  /** The check's ping log, oldest first. */
  const pings = async (checkId: string) => (await kit.pings(checkId)).reverse();
  const state = async (checkId: string) =>
    (await kit.call('GET', `/v1/checks/${checkId}`)).body.state as string;

  beforeAll(async () => {
    const started = await start();
    api = started;
    if ('local' in started) base = started.local.url;
    else {
      const front = await startHttpFront(started);
      base = front.url;
      closeFront = front.close;
    }
  });
  afterAll(async () => {
    await closeFront();
    await api.close();
  });

  describe('the npm healthchecks-io-client package', () => {
    // Its ping client has start(), success(payload?) and fail(payload?): no /log and no exit
    // status (its README and lib/healthchecks_ping_client.js); it refuses a uuid that is not a UUID.
    it('sends start, success with and without a body, and fail with a body, each answered OK', async () => {
      const { checkId, uuid } = await newPingUrl();
      expect(uuid).toMatch(UUID);
      const client = new HealthChecksPingClient({ uuid, baseUrl: `${base}/ping`, returnResponse: true });

      expect(await client.start()).toBe('OK');
      expect(await client.success('backup done: 42 files')).toBe('OK');
      expect(await state(checkId)).toBe('up');
      expect(await client.fail('disk full')).toBe('OK');
      expect(await state(checkId)).toBe('down');
      expect(await client.success()).toBe('OK');

      // The last, plain success (no body, no run) is its result only, not a second copy in the log.
      const log = await pings(checkId);
      expect(log.map((p) => [p.kind, p.method, p.body])).toEqual([
        ['start', 'GET', ''],
        ['success', 'POST', 'backup done: 42 files'],
        ['fail', 'POST', 'disk full'],
      ]);
      expect(log[0]?.user_agent).toMatch(/^HealthChecks-IO-Client-JS\/1\./);
      expect(log[1]?.duration_ms).toBeGreaterThanOrEqual(0);
      expect(await state(checkId)).toBe('up');
    });
  });

  describe("runitor's requests (cmd/runitor/main.go, internal/api.go), replayed", () => {
    // runitor POSTs every ping to <api-url>/<uuid>[/start|/fail|/log|/<exit code>]?rid=<uuid4>
    // with Content-Type text/plain, its User-Agent and Go's Accept-Encoding, the body (the output's
    // last 10,000 bytes) with an explicit Content-Length, none when empty. It takes 200 and 201 as
    // delivered and reads an optional Ping-Body-Limit header (an unsigned integer) from the answer.
    const runitorHeaders = {
      'content-type': 'text/plain',
      'user-agent': 'runitor/v1.3.0 (linux-amd64; +https://bdd.fi/x/runitor)',
      'accept-encoding': 'gzip',
    };
    async function runitorPing(apiUrl: string, uuid: string, typePath: string, rid: string, body = '') {
      const path = [uuid, typePath].filter((p) => p !== '').join('/');
      const res = await request(`${apiUrl}/${path}?rid=${rid}`, {
        method: 'POST',
        headers: { ...runitorHeaders, 'content-length': String(Buffer.byteLength(body)) },
        ...(body === '' ? {} : { body }),
      });
      const text = await res.body.text();
      const limit = res.headers['ping-body-limit'];
      return { status: res.statusCode, text, limit };
    }
    const delivered = (answer: { status: number; limit: unknown }) => {
      expect([200, 201]).toContain(answer.status);
      if (answer.limit !== undefined) expect(String(answer.limit)).toMatch(/^\d+$/);
    };

    it('a run that succeeds: /start, then the bare URL with the output', async () => {
      const { checkId, uuid } = await newPingUrl();
      const rid = crypto.randomUUID();

      const started = await runitorPing(`${base}/ping`, uuid, 'start', rid);
      const ended = await runitorPing(`${base}/ping`, uuid, '', rid, 'backup done\n');

      delivered(started);
      delivered(ended);
      expect(ended.text).toBe('OK');
      const log = await pings(checkId);
      expect(log.map((p) => [p.kind, p.rid, p.body])).toEqual([
        ['start', rid, ''],
        ['success', rid, 'backup done\n'],
      ]);
      expect(log[1]?.user_agent).toBe(runitorHeaders['user-agent']);
      expect(log[1]?.duration_ms).toBeGreaterThanOrEqual(0);
      expect(await state(checkId)).toBe('up');
    });

    it('a run that exits 3: /3 with the output and its note; a command that cannot run: /fail', async () => {
      const { checkId, uuid } = await newPingUrl();
      const rid = crypto.randomUUID();

      delivered(await runitorPing(`${base}/ping`, uuid, 'start', rid));
      delivered(await runitorPing(`${base}/ping`, uuid, '3', rid, 'disk full\n\n[runitor] exit status 3'));
      const notRun = '[runitor] exec: "backup.sh": executable file not found in $PATH\n';
      delivered(await runitorPing(`${base}/ping`, uuid, 'fail', crypto.randomUUID(), notRun));

      const log = await pings(checkId);
      expect(log.map((p) => [p.kind, p.exit_status, p.body])).toEqual([
        ['start', undefined, ''],
        ['exit', 3, 'disk full\n\n[runitor] exit status 3'],
        ['fail', undefined, notRun],
      ]);
      expect(await state(checkId)).toBe('down');
    });

    it('a log line (-on-success log) changes no state', async () => {
      const { checkId, uuid } = await newPingUrl();

      delivered(await runitorPing(`${base}/ping`, uuid, 'log', crypto.randomUUID(), 'still going\n'));

      expect((await pings(checkId)).map((p) => [p.kind, p.body])).toEqual([['log', 'still going\n']]);
      expect(await state(checkId)).not.toBe('down');
    });
  });

  describe("the curl lines of Healthchecks' docs (docs/bash)", () => {
    const curl = (...args: string[]) => exec('curl', args);

    it('curl -fsS -m 10 --retry 5 -o /dev/null <url> records a success and exits 0', async () => {
      const { checkId, url } = await newPingUrl();

      const res = await curl('-fsS', '-m', '10', '--retry', '5', '-o', '/dev/null', url);

      expect(res).toMatchObject({ code: 0, stdout: '', stderr: '' });
      // A plain success: its result, no ping log copy.
      expect(await pings(checkId)).toEqual([]);
      expect(await state(checkId)).toBe('up');
    });

    it('curl --data-raw "$output" <url>/fail keeps the output with the failure', async () => {
      const { checkId, url } = await newPingUrl();
      const output = 'rsync: connection refused\nbackup aborted';

      const res = await curl('-fsS', '-m', '10', '--retry', '5', '--data-raw', output, `${url}/fail`);

      expect(res).toMatchObject({ code: 0, stdout: 'OK' });
      expect(await pings(checkId)).toMatchObject([{ kind: 'fail', method: 'POST', body: output }]);
      expect(await state(checkId)).toBe('down');
    });

    it('a script pinging <url>/$? after its command reports the exit status', async () => {
      const { checkId, url } = await newPingUrl();

      const res = await exec(
        'sh',
        ['-c', 'sh -c "exit 2"; curl -fsS -m 10 --retry 5 -o /dev/null "$PING_URL/$?"'],
        {
          PING_URL: url,
        },
      );

      expect(res.code, res.stderr).toBe(0);
      expect(await pings(checkId)).toMatchObject([{ kind: 'exit', exit_status: 2 }]);
      expect(await state(checkId)).toBe('down');
    });

    it('curl <url>/start then <url> measures the run; curl -I (HEAD) is a success too', async () => {
      const { checkId, url } = await newPingUrl();

      const started = await curl('-fsS', '-m', '10', '--retry', '5', `${url}/start`);
      const ended = await curl('-fsS', '-m', '10', '--retry', '5', url);
      const head = await curl('-fsS', '-I', url);

      expect(started).toMatchObject({ code: 0, stdout: 'OK' });
      expect(ended).toMatchObject({ code: 0, stdout: 'OK' });
      expect(head.code, head.stderr).toBe(0);
      expect(head.stdout).toMatch(/^HTTP\/1\.1 200/);
      // The HEAD, a plain success (its run already ended), is a result only, not in the log.
      const log = await pings(checkId);
      expect(log.map((p) => [p.kind, p.method])).toEqual([
        ['start', 'GET'],
        ['success', 'GET'],
      ]);
      expect(log[1]?.duration_ms).toBeGreaterThanOrEqual(0);
      expect(await kit.results(checkId)).toMatchObject([{ success: true }, { success: true }]);
    });

    it('curl -f fails (exit 22) on a ping URL that names no check', async () => {
      const res = await curl('-fsS', '-m', '10', '-o', '/dev/null', `${base}/ping/${crypto.randomUUID()}`);

      expect(res.code).toBe(22);
    });
  });

  describe('vigil run', () => {
    const vigilRun = (url: string, command: string[]) =>
      exec(process.execPath, ['bin/vigil.ts', 'run', '--ping', url, '--', ...command]);

    it('reports a run to the ping log: start, then the exit status with the output, one run id', async () => {
      const { checkId, url } = await newPingUrl();

      const failed = await vigilRun(url, ['sh', '-c', 'echo disk full; exit 3']);

      expect(failed.code).toBe(3);
      expect(failed.stdout).toBe('disk full\n');
      expect(failed.stderr).toBe('');
      const [started, ended] = await pings(checkId);
      expect(started).toMatchObject({ kind: 'start', method: 'POST', body: '' });
      expect(ended).toMatchObject({
        kind: 'exit',
        exit_status: 3,
        method: 'POST',
        body: 'disk full\n[vigil run] exit status 3\n',
      });
      expect(started?.rid).toMatch(UUID);
      expect(ended?.rid).toBe(started?.rid);
      expect(ended?.duration_ms).toBeGreaterThanOrEqual(0);
      expect(ended?.user_agent).toMatch(/^vigil-run\//);
      expect(await state(checkId)).toBe('down');

      const passed = await vigilRun(url, ['echo', 'backup done']);

      expect(passed.code).toBe(0);
      expect((await pings(checkId)).slice(2)).toMatchObject([
        { kind: 'start' },
        { kind: 'exit', exit_status: 0, body: 'backup done\n' },
      ]);
      expect(await state(checkId)).toBe('up');
    });
  });
});
