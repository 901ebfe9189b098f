import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { z } from 'zod';
import { generateApiKey } from '../lib/auth/api-key.ts';
import { createTlsFixtures } from '../test/support/tls-fixtures.ts';
import { startChild } from './child.ts';
import { call } from './push.ts';
import { loadServeEnv, startServe } from './serve.ts';

/**
 * What the alert benches (bench/alerts.ts, bench/storm.ts) stand on: the product (bin/serve.ts in
 * a child, on a fresh data directory) allowed to send to 127.0.0.1 and trusting a test CA, and the
 * signed-webhook receiver on HTTPS 127.0.0.1 (bench/alerts-receiver.ts, another child) whose
 * arrivals are handed to `onArrivals` as they are read.
 */

export const idSchema = z.object({ id: z.string() });

const arrivalsMessage = z.object({
  type: z.literal('arrivals'),
  arrivals: z.array(
    z.object({
      readAtMs: z.number(),
      delivery: z.string().optional(),
      body: z.string(),
      signatureValid: z.boolean(),
    }),
  ),
});
type ReceivedArrival = z.infer<typeof arrivalsMessage>['arrivals'][number];

export const wallMs = () => performance.timeOrigin + performance.now();

/** Runs `task` over `items`, `width` at a time. */
export async function inBatches<T, R>(
  items: T[],
  width: number,
  task: (item: T) => Promise<R>,
): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += width)
    out.push(...(await Promise.all(items.slice(i, i + width).map(task))));
  return out;
}

/** POSTs one result to a push check; resolves with the wall-clock ms its answer's headers arrived. */
export function postResult(
  agent: Agent,
  base: URL,
  key: string,
  checkId: string,
  success: boolean,
  errorMessage = 'bench down',
  retried = false,
): Promise<number> {
  const body = JSON.stringify(
    success
      ? { success: true, latency_ms: 5 }
      : { success: false, latency_ms: 5, error_message: errorMessage },
  );
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        agent,
        hostname: base.hostname,
        port: base.port,
        path: `/v1/checks/${checkId}/results`,
        method: 'POST',
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
        },
      },
      (res) => {
        const at = wallMs();
        res.resume();
        if (res.statusCode !== 201) reject(new Error(`result for ${checkId}: ${res.statusCode}`));
        else res.on('end', () => resolve(at));
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) => {
      // A kept-alive socket the server closed as it was reused (its keepAliveTimeout after an idle
      // phase): the request never reached it, so it is sent once more, as Node's docs advise.
      if (!retried && req.reusedSocket && error.code === 'ECONNRESET')
        resolve(postResult(agent, base, key, checkId, success, errorMessage, true));
      else reject(error);
    });
    req.end(body);
  });
}

export interface WebhookRigOptions {
  /** Prefix of the temporary data directory's name. */
  name: string;
  logFile: string;
  nodeFlags?: string[];
  /** Another checkout whose bin/serve.ts is measured (--against); the receiver stays this one's. */
  root?: string;
  /** Sockets of the keep-alive agent that posts results. */
  maxSockets: number;
  onArrivals(arrivals: ReceivedArrival[]): void;
}

export async function startWebhookRig(options: WebhookRigOptions) {
  const dataDir = mkdtempSync(join(tmpdir(), `vigil-bench-${options.name}-`));
  const tls = createTlsFixtures();
  const caFile = join(dataDir, 'bench-ca.pem');
  writeFileSync(caFile, tls.caCert);
  const secret = randomBytes(16).toString('hex');
  const key = generateApiKey();
  const receiver = startChild('alerts-receiver.ts', { logFile: options.logFile });
  receiver.process.on('message', (m: unknown) => {
    const parsed = arrivalsMessage.safeParse(m);
    if (parsed.success) options.onArrivals(parsed.data.arrivals);
  });
  const stopReceiver = async () => {
    await receiver.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  let serve: Awaited<ReturnType<typeof startServe>>;
  try {
    serve = await startServe(
      {
        ...loadServeEnv(join(dataDir, 'data'), key),
        VIGIL_EGRESS_ALLOW: '127.0.0.0/8',
        NODE_EXTRA_CA_CERTS: caFile,
      },
      {
        logFile: options.logFile,
        ...(options.nodeFlags ? { nodeFlags: options.nodeFlags } : {}),
        ...(options.root ? { root: options.root } : {}),
      },
    );
  } catch (error) {
    await stopReceiver();
    throw error;
  }
  const agent = new Agent({ keepAlive: true, maxSockets: options.maxSockets });
  const stop = async () => {
    agent.destroy();
    await serve.stop();
    await stopReceiver();
  };
  try {
    const origin = (
      await receiver.ask(
        { type: 'setup', key: tls.valid.key, cert: tls.valid.cert, secret },
        'ready',
        z.object({ url: z.string() }),
      )
    ).url;
    const api = (method: string, path: string, body?: unknown) => call(serve.url, key, method, path, body);
    return { serve, key, secret, tls, origin, api, agent, base: new URL(serve.url), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
