import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpTarget, TEST_LOCATION_KEY } from '../support/agent-process.ts';
import { resultKey, startVigilStandIn } from '../support/vigil-stand-in.ts';

// The Dockerfile and compose.yaml, built and run with Debian's podman (.ci/run installs podman,
// runc, mmdebstrap and podman-compose). No image registry is reachable here, so the Dockerfile's base
// image is made from the Debian mirror apt uses (mmdebstrap) and imported under the Dockerfile's
// base name, unless podman already has an image of that name. deploy/vigil.service boots in a
// container of a Debian with systemd made the same way. The containers run with runc and
// explicit ulimits: with podman's default rlimits runc cannot start one here ("error setting rlimit
// type 7: operation not permitted"), and crun fails on this machine's hybrid cgroups. Both images
// stay in podman's store as a cache; the test removes the rest of what it made.

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const run = promisify(execFile);
const MINUTE = 60_000;
const RUNTIME_ARGS = ['--runtime', 'runc'];
const LIMIT_ARGS = ['--ulimit', 'nofile=1024:1024', '--ulimit', 'nproc=4096:4096'];
const suffix = `${process.pid}-${Date.now().toString(36)}`;
const image = `localhost/vigil-test:${suffix}`;
const keyPattern = /vgl_[0-9A-Za-z]{38}/;
const work = mkdtempSync(join(tmpdir(), 'vigil-image-'));
/** The production tree (deploy/image-context.sh): the image's build context and the unit's /opt/vigil. */
const context = join(work, 'context');
/** Debian with systemd as PID 1, to boot deploy/vigil.service in a container. */
const SYSTEMD_IMAGE = 'localhost/vigil-test-systemd:bookworm';
const containers: string[] = [];
const volumes: string[] = [];
const networks: string[] = [];

/** Runs a command; a failure carries its output. */
async function sh(
  cmd: string,
  args: string[],
  options: { timeoutMs?: number; env?: NodeJS.ProcessEnv } = {},
) {
  try {
    return await run(cmd, args, {
      cwd: root,
      env: options.env ?? process.env,
      timeout: options.timeoutMs ?? 2 * MINUTE,
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (err) {
    const e = err as Error & { stdout?: string; stderr?: string };
    throw new Error(`${cmd} ${args.join(' ')} failed: ${e.message}\n${e.stdout ?? ''}\n${e.stderr ?? ''}`);
  }
}

const podman = (args: string[], timeoutMs?: number) => sh('podman', args, { timeoutMs });

/** The Debian archive apt uses on this machine (sources.list or deb822 .sources), for mmdebstrap. */
function debianMirror(): string {
  const files = ['/etc/apt/sources.list'];
  try {
    for (const f of readdirSync('/etc/apt/sources.list.d')) files.push(`/etc/apt/sources.list.d/${f}`);
  } catch {
    // no directory: sources.list alone
  }
  for (const file of files) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const stanza of text.split(/\n\s*\n/)) {
      const oneLine = /^deb\s+(?:\[[^\]]*\]\s+)?(\S+)\s+bookworm\s/m.exec(stanza);
      if (oneLine?.[1]) return oneLine[1];
      const suites = /^Suites:(.*)$/m.exec(stanza)?.[1]?.trim().split(/\s+/) ?? [];
      const uri = /^URIs:\s*(\S+)/m.exec(stanza)?.[1];
      if (uri && suites.includes('bookworm')) return uri;
    }
  }
  return 'http://deb.debian.org/debian';
}

/**
 * Imports a Debian bookworm made by mmdebstrap (minbase plus `include`, without documentation,
 * manuals and translations, as debian:bookworm-slim) under `name`, unless podman has that image:
 * it stays in podman's store for the next run.
 */
async function ensureDebianImage(name: string, include: string[] = []): Promise<void> {
  const exists = await run('podman', ['image', 'exists', name]).then(
    () => true,
    () => false,
  );
  if (exists) return;
  const tarball = join(work, `${name.replace(/\W/g, '-')}.tar`);
  await sh(
    'mmdebstrap',
    [
      '--variant=minbase',
      '--quiet',
      ...(include.length > 0 ? [`--include=${include.join(',')}`] : []),
      '--dpkgopt=path-exclude=/usr/share/man/*',
      '--dpkgopt=path-exclude=/usr/share/locale/*',
      '--dpkgopt=path-exclude=/usr/share/doc/*',
      'bookworm',
      tarball,
      debianMirror(),
    ],
    { timeoutMs: 10 * MINUTE },
  );
  await podman(['import', '--quiet', tarball, name], 5 * MINUTE);
  rmSync(tarball, { force: true });
}

/** A free TCP port on loopback (for compose's fixed host port). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** Resolves with the container's log once the server says it listens; fails if it exits first. */
async function waitListening(name: string, boundMs = 3 * MINUTE): Promise<string> {
  const deadline = Date.now() + boundMs;
  for (;;) {
    const { stdout, stderr } = await podman(['logs', name]);
    if (/Vigil API listening on /.test(stdout)) return stdout;
    const { stdout: status } = await podman(['inspect', '--format', '{{.State.Status}}', name]);
    if (status.trim() === 'exited') throw new Error(`${name} exited:\n${stdout}\n${stderr}`);
    if (Date.now() > deadline)
      throw new Error(`${name} not listening after ${boundMs} ms:\n${stdout}\n${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** The host's address of the container's port 8080 (published on a port podman picks). */
async function hostUrl(name: string): Promise<string> {
  const { stdout } = await podman(['port', name, '8080/tcp']);
  return `http://${stdout.trim().split('\n')[0]}`;
}

async function startContainer(name: string, volume: string): Promise<string> {
  containers.push(name);
  await podman([
    'run',
    '--detach',
    '--name',
    name,
    ...RUNTIME_ARGS,
    ...LIMIT_ARGS,
    // podman runs health checks from systemd timers; none here, so `podman healthcheck run` runs it.
    '--health-interval=disable',
    '--publish',
    '127.0.0.1::8080',
    '--volume',
    `${volume}:/data`,
    image,
  ]);
  return waitListening(name);
}

/** compose.yaml's projects made so far (each test brings up a project of its own). */
let composeProjects = 0;

/** A project of compose.yaml over the test's image on a free host port; afterAll removes what remains. */
async function composeProject() {
  composeProjects += 1;
  const project = `vigiltest${suffix.replace(/[^a-z0-9]/g, '')}p${composeProjects}`;
  const name = `${project}_vigil_1`;
  const volume = `${project}_vigil-data`;
  containers.push(name);
  volumes.push(volume);
  networks.push(`${project}_default`);
  const port = await freePort();
  const compose = (args: string[]) =>
    sh(
      'podman-compose',
      [
        `--podman-args=${RUNTIME_ARGS.join(' ')}`,
        `--podman-run-args=${LIMIT_ARGS.join(' ')}`,
        '--project-name',
        project,
        '--file',
        join(root, 'compose.yaml'),
        ...args,
      ],
      { env: { ...process.env, VIGIL_IMAGE: image, VIGIL_HOST_PORT: String(port) } },
    );
  return { name, volume, port, compose };
}

/** A result as GET /v1/checks/{id}/results lists it, with a browser check's details. */
interface BrowserResult {
  outcome: string;
  success: boolean;
  error_message: string;
  details?: { steps?: { action: string; outcome: string }[]; artifacts?: unknown[] };
}

/**
 * Creates a browser check through a Vigil's API, as its first tenant's admin, against that Vigil's
 * own console (the container's 127.0.0.1:8080: the local runtime allows private targets unless told
 * not to), and resolves with its first result: a new check is probed within seconds.
 */
async function firstBrowserResult(url: string, key: string): Promise<BrowserResult> {
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    expect(response.ok, `${method} ${path}: ${response.status} ${text}`).toBe(true);
    return JSON.parse(text);
  };
  await call('POST', '/v1/blueprints', { slug: 'service', name: 'Service' });
  const entity = await call('POST', '/v1/blueprints/service/entities', { slug: 'console', name: 'Console' });
  const check = await call('POST', '/v1/checks', {
    entity_id: entity.id,
    check_type: 'browser',
    interval_seconds: 300,
    timeout_ms: 30_000,
    config: {
      steps: [
        { action: 'goto', url: 'http://127.0.0.1:8080/sign-in' },
        // The console's script ran: the sign-in page is React's.
        { action: 'wait_for', text: 'Sign in to Vigil' },
        { action: 'screenshot' },
      ],
    },
  });
  const results = () =>
    call('GET', `/v1/checks/${check.id}/results`) as Promise<{ results: BrowserResult[] }>;
  await expect
    .poll(async () => (await results()).results.length, { timeout: 2 * MINUTE, interval: 500 })
    .toBeGreaterThan(0);
  // Newest first: the first result is the last.
  const first = (await results()).results.at(-1);
  if (!first) throw new Error('no result');
  return first;
}

beforeAll(async () => {
  const from = /^FROM\s+(\S+)/m.exec(readFileSync(join(root, 'Dockerfile'), 'utf8'))?.[1];
  expect(from).toBe('debian:bookworm-slim');
  // The two images and the production tree are independent: made side by side.
  await Promise.all([
    ensureDebianImage(`docker.io/library/${from}`),
    ensureDebianImage(SYSTEMD_IMAGE, ['systemd', 'systemd-sysv', 'dbus']),
    sh(join(root, 'deploy', 'image-context.sh'), [context], { timeoutMs: 10 * MINUTE }),
  ]);
  await podman(
    ['build', '--pull=never', '--format', 'docker', ...RUNTIME_ARGS, ...LIMIT_ARGS, '--tag', image, context],
    10 * MINUTE,
  );
}, 25 * MINUTE);

afterAll(async () => {
  const quiet = (args: string[]) => run('podman', args).catch(() => undefined);
  // --volumes: the anonymous volume a container without -v gets for the image's VOLUME (the agent's).
  for (const name of containers) await quiet(['rm', '--force', '--volumes', '--time', '0', name]);
  for (const name of volumes) await quiet(['volume', 'rm', '--force', name]);
  for (const name of networks) await quiet(['network', 'rm', '--force', name]);
  await quiet(['rmi', '--force', image]);
  rmSync(work, { recursive: true, force: true });
}, 5 * MINUTE);

describe('the container image', () => {
  it('runs as a non-root user, keeps its data in /data and checks /healthz', async () => {
    const { stdout } = await podman(['image', 'inspect', image]);
    const [info] = JSON.parse(stdout) as {
      Config: {
        User: string;
        Volumes: Record<string, unknown>;
        ExposedPorts: Record<string, unknown>;
        Env: string[];
      };
      Healthcheck?: { Test: string[] };
    }[];
    expect(info?.Config.User).toBe('vigil');
    expect(Object.keys(info?.Config.Volumes ?? {})).toEqual(['/data']);
    expect(Object.keys(info?.Config.ExposedPorts ?? {})).toEqual(['8080/tcp']);
    expect(info?.Config.Env).toEqual(expect.arrayContaining(['VIGIL_DATA_DIR=/data', 'VIGIL_HOST=0.0.0.0']));
    expect(info?.Healthcheck?.Test.join(' ')).toMatch(/\/healthz/);
  });

  it('starts, answers /healthz, and keeps its data across a restart', async () => {
    const volume = `vigil-test-data-${suffix}`;
    volumes.push(volume);
    await podman(['volume', 'create', volume]);

    const first = `vigil-test-${suffix}-1`;
    const log = await startContainer(first, volume);
    expect(log).toContain('Node v24.');
    const key = keyPattern.exec(log)?.[0];
    expect(key, log).toBeDefined();
    const url = await hostUrl(first);
    const health = await fetch(`${url}/healthz`);
    expect(health.status).toBe(200);
    // The image's own HEALTHCHECK, run by podman inside the container.
    await podman(['healthcheck', 'run', first]);
    // The service user owns /data and nothing of the code.
    expect((await podman(['exec', first, 'id'])).stdout.trim()).toBe(
      'uid=10001(vigil) gid=10001(vigil) groups=10001(vigil)',
    );
    expect((await podman(['exec', first, 'stat', '-c', '%U', '/data', '/data/vigil.db'])).stdout.trim()).toBe(
      'vigil\nvigil',
    );
    await expect(podman(['exec', first, 'touch', '/opt/vigil/bin/serve.ts'])).rejects.toThrow(
      /Permission denied/,
    );

    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const created = await fetch(`${url}/v1/blueprints`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ slug: 'kept-across-restart', name: 'Kept' }),
    });
    expect(created.status, await created.clone().text()).toBe(201);

    // SIGTERM: the server stops cleanly (exit code 0), then a new container opens the same volume.
    await podman(['stop', '--time', '20', first]);
    expect((await podman(['inspect', '--format', '{{.State.ExitCode}}', first])).stdout.trim()).toBe('0');
    await podman(['rm', first]);

    const second = `vigil-test-${suffix}-2`;
    const again = await startContainer(second, volume);
    // The tenant is there already: no new first tenant, no new key.
    expect(again).not.toMatch(keyPattern);
    const secondUrl = await hostUrl(second);
    expect((await fetch(`${secondUrl}/healthz`)).status).toBe(200);
    const kept = await fetch(`${secondUrl}/v1/blueprints/kept-across-restart`, { headers });
    expect(kept.status).toBe(200);
    expect(await kept.json()).toMatchObject({ slug: 'kept-across-restart', name: 'Kept' });
  });

  it('runs from compose.yaml with a read-only root, no capabilities and a named volume', async () => {
    const { name, volume, port, compose } = await composeProject();
    await compose(['up', '--detach']);
    const log = await waitListening(name);
    expect(log).toMatch(keyPattern);
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    expect(
      (await podman(['inspect', '--format', '{{.HostConfig.ReadonlyRootfs}}', name])).stdout.trim(),
    ).toBe('true');
    // No effective capability, and nothing to write outside /data and /tmp.
    const status = (await podman(['exec', name, 'cat', '/proc/1/status'])).stdout;
    expect(status).toMatch(/^CapEff:\s+0+$/m);
    await expect(podman(['exec', name, 'touch', '/opt/x'])).rejects.toThrow(/Read-only file system/);
    await compose(['down']);
    // `down` removes the container and keeps the data.
    await expect(run('podman', ['container', 'exists', name])).rejects.toThrow();
    await podman(['volume', 'exists', volume]);
  });

  it("runs a browser check in Debian's Chromium under compose.yaml's read-only root: recorded up", async () => {
    const { name, port, compose } = await composeProject();
    await compose(['up', '--detach']);
    const key = keyPattern.exec(await waitListening(name))?.[0] ?? '';

    const result = await firstBrowserResult(`http://127.0.0.1:${port}`, key);

    expect(result, result.error_message).toMatchObject({ outcome: 'up', success: true, error_message: '' });
    expect(result.details?.steps?.map((s) => [s.action, s.outcome])).toEqual([
      ['goto', 'passed'],
      ['wait_for', 'passed'],
      ['screenshot', 'passed'],
    ]);
    expect(result.details?.artifacts).toHaveLength(1);
    // Text in a screenshot has a font to render with.
    expect((await podman(['exec', name, 'fc-match', 'sans-serif'])).stdout).toContain('DejaVu Sans');
    await compose(['down']);
  });
});

describe('the container image as a probe location agent', () => {
  it('dispatches any other command to vigil: `agent --help` prints its usage and exits 0', async () => {
    const { stdout } = await podman([
      'run',
      '--rm',
      ...RUNTIME_ARGS,
      ...LIMIT_ARGS,
      image,
      'agent',
      '--help',
    ]);

    expect(stdout).toContain('Usage: npm run vigil -- agent --url <Vigil URL>');
  });

  it('runs an agent against a Vigil on the host: leases, probes from the container (a browser leg in its Chromium too), posts, stops cleanly', async () => {
    const vigil = await startVigilStandIn(TEST_LOCATION_KEY);
    const target = await startHttpTarget();
    try {
      // The key as a read-only file mount (a secret of the orchestrator), readable by the image's user.
      const keyPath = join(work, 'location-key');
      writeFileSync(keyPath, `${TEST_LOCATION_KEY}\n`, { mode: 0o644 });
      const job = {
        job_id: 'chk_container:1',
        slot: Date.parse('2026-11-24T12:00:00.000Z'),
        check: { check_type: 'http', target_url: target.url('/ok'), expected_status: 200, timeout_ms: 5000 },
      };
      // A browser check's leg, run by the image's Chromium.
      const browserJob = {
        job_id: 'chk_container_browser:1',
        slot: job.slot,
        check: {
          check_type: 'browser',
          timeout_ms: 30_000,
          steps: [
            { action: 'goto', url: target.url('/page') },
            { action: 'assert', subject: 'text', text: 'hello from the target' },
          ],
        },
      };
      vigil.enqueue(job, browserJob);
      const name = `vigil-test-${suffix}-agent`;
      containers.push(name);

      // The host's network: the stand-in and the target listen on the host's 127.0.0.1.
      await podman([
        'run',
        '--detach',
        '--name',
        name,
        ...RUNTIME_ARGS,
        ...LIMIT_ARGS,
        '--network',
        'host',
        '--health-interval=disable',
        '--volume',
        `${keyPath}:/run/vigil-location-key:ro`,
        image,
        'agent',
        '--url',
        vigil.url,
        '--key-file',
        '/run/vigil-location-key',
      ]);

      await expect.poll(() => vigil.state.stored.size, { timeout: 2 * MINUTE, interval: 500 }).toBe(2);
      expect(vigil.state.stored.get(resultKey(job))?.result).toMatchObject({
        success: true,
        status_code: 200,
      });
      expect(target.hits('/ok')).toBe(1);
      expect(vigil.state.stored.get(resultKey(browserJob))?.result).toMatchObject({
        success: true,
        error_message: '',
      });
      expect(target.hits('/page')).toBe(1);
      await expect.poll(() => vigil.state.heartbeats.length, { timeout: MINUTE }).toBeGreaterThan(0);
      // SIGTERM: the agent stops with every result delivered (exit 0).
      await podman(['stop', '--time', '40', name]);
      expect((await podman(['inspect', '--format', '{{.State.ExitCode}}', name])).stdout.trim()).toBe('0');
      const { stdout } = await podman(['logs', name]);
      expect(stdout).toContain('stopped: every result delivered');
    } finally {
      await vigil.stop();
      target.close();
    }
  });
});

describe('deploy/vigil.service', () => {
  it('boots under systemd: runs the production tree sandboxed, answers /healthz, stops cleanly', async () => {
    const name = `vigil-test-${suffix}-systemd`;
    containers.push(name);
    await podman([
      'run',
      '--detach',
      '--name',
      name,
      ...RUNTIME_ARGS,
      ...LIMIT_ARGS,
      '--systemd=always',
      '--volume',
      `${context}:/opt/vigil:ro`,
      '--volume',
      `${join(root, 'deploy', 'vigil.service')}:/etc/systemd/system/vigil.service:ro`,
      SYSTEMD_IMAGE,
      '/sbin/init',
    ]);
    // Boot ends as running or degraded (a unit a container cannot run). Asked too early, podman
    // exec or systemctl itself can fail (no container process or no bus yet): ask again, bounded.
    const booted = Date.now() + 2 * MINUTE;
    for (let state = ''; !/^(running|degraded)$/.test(state); ) {
      if (Date.now() > booted)
        throw new Error(`systemd did not finish booting (last state: ${state || 'none'})`);
      await new Promise((resolve) => setTimeout(resolve, 500));
      state = await run('podman', ['exec', name, 'systemctl', 'is-system-running'], { timeout: MINUTE }).then(
        (r) => r.stdout.trim(),
        // It exits non-zero while starting or degraded; what it printed is the state.
        (err: { stdout?: string }) => (err.stdout ?? '').trim(),
      );
    }
    await podman(['exec', name, 'systemctl', 'start', 'vigil']);
    const deadline = Date.now() + 3 * MINUTE;
    let journal = '';
    while (!/Vigil API listening on /.test(journal)) {
      if (Date.now() > deadline) throw new Error(`vigil.service not listening:\n${journal}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
      journal = (await podman(['exec', name, 'journalctl', '--unit', 'vigil', '--output', 'cat'])).stdout;
    }
    expect(journal).toMatch(keyPattern);
    expect(journal).toContain('data in /var/lib/vigil');
    const health = await podman([
      'exec',
      name,
      '/opt/vigil/node_modules/.bin/node',
      '-e',
      "fetch('http://127.0.0.1:8080/healthz').then(async (r) => console.log(r.status, await r.text()))",
    ]);
    expect(health.stdout.trim()).toBe('200 {"status":"ok"}');

    // The sandbox is in force: a user of its own, no capabilities, no new privileges, a system call filter.
    const pid = (
      await podman(['exec', name, 'systemctl', 'show', '--property', 'MainPID', '--value', 'vigil'])
    ).stdout.trim();
    const status = (await podman(['exec', name, 'cat', `/proc/${pid}/status`])).stdout;
    expect(status).toMatch(/^Uid:\s+([1-9]\d*)\s/m);
    expect(status).toMatch(/^CapEff:\s+0+$/m);
    expect(status).toMatch(/^CapBnd:\s+0+$/m);
    expect(status).toMatch(/^NoNewPrivs:\s+1$/m);
    expect(status).toMatch(/^Seccomp:\s+2$/m);
    // Its data is in its state directory, readable by it alone.
    const files = (
      await podman([
        'exec',
        name,
        'stat',
        '-c',
        '%a %n',
        '/var/lib/private/vigil',
        '/var/lib/private/vigil/vigil.db',
      ])
    ).stdout;
    expect(files.trim().split('\n')).toEqual([
      '700 /var/lib/private/vigil',
      '600 /var/lib/private/vigil/vigil.db',
    ]);

    await podman(['exec', name, 'systemctl', 'stop', 'vigil']);
    expect(
      (
        await podman(['exec', name, 'systemctl', 'show', '--property', 'Result', '--value', 'vigil'])
      ).stdout.trim(),
    ).toBe('success');
  });
});
