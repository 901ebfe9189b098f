import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ApiResponse, type LambdaHarness, parseResponse, startLambdaHarness } from './api-harness.ts';
import { startHttpFront } from './http-front.ts';
import type { NamespaceNet } from './netns.ts';
import { startForward } from './netns.ts';
import { killGroup, type ServeProcess, signalGroup, startServeProcess } from './serve-process.ts';

/**
 * The two runtimes of test/locations/quorum.test.ts, each reachable from the agents' namespaces at
 * the service address: the local runtime as a real server process (`node
 * bin/serve.ts`, VIGIL_HOST the service address), and the cloud runtime's api Lambda handler (over
 * DynamoDB Local and fauxqs) behind an HTTP front on loopback and a TCP forward from the service
 * address, its generator, probe worker and change feed pumped as the deployment's schedule and
 * event sources would. `stop()`/`start()` take Vigil away and bring it back at the same URL.
 */
export interface Vigil {
  runtime: 'local' | 'lambda';
  /** Where the agents reach it. */
  url: string;
  adminKey: string;
  call(method: string, path: string, options?: { key?: string; body?: unknown }): Promise<ApiResponse>;
  /** Takes Vigil away: the local server's exit code after SIGTERM (0: a clean stop); 0 for the cloud. */
  stop(): Promise<number | null>;
  start(): Promise<void>;
  close(): Promise<void>;
}

/** Lets the channels post to a receiver on loopback over http (the ntfy stand-in). */
const EGRESS = { VIGIL_EGRESS_ALLOW: '127.0.0.0/8' };

/** The local runtime as `bin/serve.ts`, on a data dir of its own; restarted on the same SQLite file and port. */
export async function localVigil(net: NamespaceNet): Promise<Vigil> {
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-quorum-'));
  const env = {
    VIGIL_DATA_DIR: dataDir,
    VIGIL_HOST: net.serviceAddress,
    // The agents reach it over plain http from their namespaces' addresses, not loopback: this
    // machine's own veths, a network trusted as docs/agent.md's `--allow-http` says.
    VIGIL_AGENT_ALLOW_HTTP: 'true',
    ...EGRESS,
  };
  let proc: ServeProcess | undefined = await startServeProcess(env);
  const adminKey = /vgl_[0-9A-Za-z]{38}/.exec(proc.stdout())?.[0];
  if (!adminKey) throw new Error(`no bootstrap key printed:\n${proc.stdout()}`);
  const url = proc.url;
  const port = new URL(url).port;
  return {
    runtime: 'local',
    url,
    adminKey,
    async call(method, path, options = {}) {
      const res = await fetch(`${url}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${options.key ?? adminKey}`,
          ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
      });
      return parseResponse(res.status, Object.fromEntries(res.headers), await res.text());
    },
    async stop() {
      const running = proc;
      proc = undefined;
      if (!running) return null;
      signalGroup(running, 'SIGTERM');
      return await running.exited;
    },
    async start() {
      proc = await startServeProcess({ ...env, PORT: port });
    },
    async close() {
      if (proc) {
        signalGroup(proc, 'SIGTERM');
        await proc.exited;
        killGroup(proc);
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The cloud runtime through the Lambda harness. A pump plays EventBridge's schedule and the SQS
 * event sources: the generator (every few seconds: a check created mid-minute is claimed at once;
 * claims are conditional, so a second run of a minute claims nothing again), the probe worker for
 * the jobs visible now (probe and decide jobs) and the change feed (stream, notifier).
 */
export async function cloudVigil(net: NamespaceNet): Promise<Vigil & { harness: LambdaHarness }> {
  const harness = await startLambdaHarness({ env: { VIGIL_ALLOW_PRIVATE_TARGETS: 'true', ...EGRESS } });
  const front = await startHttpFront(harness);
  const forward = await startForward(net.serviceAddress, Number(new URL(front.url).port));
  let paused = false;
  let closed = false;
  let lastGenerator = 0;
  const failures: unknown[] = [];
  const tick = async () => {
    if (Date.now() - lastGenerator >= 5_000) {
      lastGenerator = Date.now();
      await harness.runGenerator();
    }
    await harness.runProbeJobs();
    await harness.drainChanges();
  };
  const pump = (async () => {
    while (!closed) {
      if (!paused) await tick().catch((err: unknown) => failures.push(err));
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  })();
  return {
    runtime: 'lambda',
    harness,
    url: forward.url,
    adminKey: harness.adminKey,
    call: (method, path, options = {}) =>
      harness.request(method, path, {
        key: options.key ?? harness.adminKey,
        ...(options.body !== undefined ? { body: options.body } : {}),
      }),
    async stop() {
      paused = true;
      await forward.stop();
      return 0;
    },
    async start() {
      await forward.start();
      paused = false;
    },
    async close() {
      closed = true;
      await pump;
      await forward.stop();
      await front.close();
      await harness.close();
      if (failures.length > 0) throw new Error(`the cloud pump failed: ${String(failures[0])}`);
    },
  };
}
