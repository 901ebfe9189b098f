import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { outageRetries } from '../../lib/platform/job-queue.ts';
import { type LambdaHarness, startLambdaHarness } from '../support/api-harness.ts';
import { type DynamoDbLocal, startDynamoDbLocal } from '../support/dynamodb-local.ts';
import { alertToWebhook, entityWithPushCheck } from '../support/push-fixtures.ts';

/**
 * Issue 35, "Faults, cloud": the notification path through its Lambda handlers (stream -> notify
 * queue on fauxqs -> notifier -> a webhook receiver), and the action path beside it (stream ->
 * action queue -> action worker -> an action's endpoint on the same receiver), while its DynamoDB
 * Local is SIGKILLed for 60 s and then started again on the same port with its data (-dbPath), at
 * three points: (a) the event
 * jobs are queued, (b) the sends are in flight, (c) a delivery record's write has just landed and
 * the rest of the batch is writing. Each point has its own DynamoDB Local, fauxqs and receiver, and
 * the three run concurrently. The queues keep production's schedule shape (delays doubling from
 * 1 s) with the cap at 10 s instead of 60 s and 90 s of cover instead of 15 minutes, so that the
 * alerts leave within seconds of the store's return rather than a minute; the outage is the full 60 s.
 */

const ALERTS = 10;
const OUTAGE_MS = 60_000;
const RETRIES = outageRetries(10, 90);
/** Enough for the outage, the store's restart (a JVM: slow on a loaded machine) and the retries after it. */
const SETTLE_MS = 240_000;
const START_MS = 120_000;

interface Request {
  path: string;
  deliveryId: string;
  body: { entity_id?: string; to_state?: string };
}

function jsonOrEmpty(text: string): Request['body'] {
  try {
    return JSON.parse(text);
  } catch {
    return {};
  }
}

/** A plain-HTTP webhook receiver on loopback that runs `onRequest` before answering 204. */
async function startWebhookReceiver(onRequest: () => Promise<void>) {
  const received: Request[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const headers: IncomingHttpHeaders = req.headers;
      received.push({
        path: req.url ?? '/',
        deliveryId: String(headers['x-service-delivery']),
        body: jsonOrEmpty(Buffer.concat(chunks).toString('utf8')),
      });
      void onRequest().then(() => res.writeHead(204).end());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('receiver is not on TCP');
  return {
    origin: `http://127.0.0.1:${address.port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A DynamoDB Local with its data in a file, and the outage: SIGKILL, 60 s down, restart on the same port. */
async function startOutageStore() {
  const dbPath = mkdtempSync(join(tmpdir(), 'vigil-outage-'));
  let db: DynamoDbLocal = await startDynamoDbLocal({ dbPath, startTimeoutMs: START_MS });
  let outage: Promise<void> | undefined;
  let killed = false;
  let back = false;
  return {
    endpoint: db.endpoint,
    /** Starts the outage once (later calls answer the same one); resolves when the store is down. */
    async kill() {
      outage ??= (async () => {
        await db.kill();
        killed = true;
        await sleep(OUTAGE_MS);
        db = await startDynamoDbLocal({ dbPath, port: db.port, startTimeoutMs: START_MS });
        back = true;
      })();
      while (!killed) await sleep(5);
    },
    isBack: () => back,
    outage: () => outage,
    async stop() {
      await outage;
      await db.stop();
      rmSync(dbPath, { recursive: true, force: true });
    },
  };
}

type Store = Awaited<ReturnType<typeof startOutageStore>>;

/** Messages of a queue that are visible or in flight (not those delayed). */
function undelayed(h: LambdaHarness, queueName: string): number {
  const messages = h.sqs.server.inspectQueue(queueName)?.messages;
  return (messages?.ready.length ?? 0) + (messages?.inflight.length ?? 0);
}

/** Runs the stream function and the notify and action consumers as Lambda would, until all is settled after the outage. */
async function runLambdasUntilSettled(h: LambdaHarness, store: Store): Promise<void> {
  const deadline = performance.now() + SETTLE_MS;
  for (;;) {
    let records = 0;
    try {
      records = await h.runStreamOnce();
    } catch {
      // The stream is down with its table: read again later.
    }
    const notify = await h.eventSources.notify.pollOnce();
    const action = await h.eventSources.action.pollOnce();
    const idle = records === 0 && !notify && !action;
    // Delayed messages do not count: each run schedules its pipeline deadline minutes ahead.
    if (idle && store.isBack() && h.notifySqs.size() === 0 && undelayed(h, h.actionSqs.name) === 0) return;
    if (performance.now() > deadline) {
      const where = `store back: ${store.isBack()}, outage begun: ${store.outage() !== undefined}`;
      const queued = `notify queue: ${h.notifySqs.size()}, action queue: ${h.actionSqs.size()}`;
      throw new Error(`not settled within ${SETTLE_MS} ms (${where}; ${queued})`);
    }
    if (idle) await sleep(100);
  }
}

type Point = 'jobs queued' | 'sends in flight' | 'records being written';

async function outageAt(point: Point) {
  const store = await startOutageStore();
  const receiver = await startWebhookReceiver(async () => {
    // (b): the first request kills the store while it and the rest of its batch are in flight.
    if (point === 'sends in flight') await store.kill();
  });
  const h = await startLambdaHarness({
    env: { VIGIL_EGRESS_ALLOW: '127.0.0.0/8' },
    dynamodbEndpoint: store.endpoint,
    queueRetries: RETRIES,
  });
  try {
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await h.request(method, path, { key: h.adminKey, ...(body === undefined ? {} : { body }) });
      if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
      return res.body;
    };
    await call('POST', '/v1/blueprints', { slug: 'svc', name: 'Service' });
    const checkIds: string[] = [];
    for (let i = 0; i < ALERTS; i += 1) {
      const { checkId } = await entityWithPushCheck(call, { slug: `node-${i}`, name: `Node ${i}` });
      await alertToWebhook(call, checkId, { url: `${receiver.origin}/webhook` });
      // An action on the same change: the action queue's path through the outage too.
      await call('POST', '/v1/actions', {
        name: `page-${i}`,
        url: `${receiver.origin}/action/{{entity_id}}`,
        trigger_type: 'state_change',
        check_id: checkId,
        trigger_to_state: 'down',
      });
      await call('POST', `/v1/checks/${checkId}/results`, { success: true, latency_ms: 5 });
      checkIds.push(checkId);
    }
    await h.drainChanges();
    const fail = (checkId: string) =>
      call('POST', `/v1/checks/${checkId}/results`, {
        success: false,
        latency_ms: 5,
        error_message: 'refused',
      });

    if (point === 'records being written') {
      // (c): the store dies right after the first delivery record is written `sent`, while the
      // rest of the batch is writing theirs (and that one's cooldown and counter writes are next).
      h.dynamodb.middlewareStack.add(
        (next, context) => async (args) => {
          const out = await next(args);
          const input = JSON.stringify(args.input);
          if (
            context.commandName === 'UpdateItemCommand' &&
            input.includes('"DLV#') &&
            input.includes('{"S":"sent"}')
          )
            await store.kill();
          return out;
        },
        { step: 'build', name: 'killStoreAfterSentWrite' },
      );
    }
    for (const checkId of checkIds) await fail(checkId);
    if (point === 'jobs queued') {
      // (a): the stream function has queued the event jobs; the store dies before the notifier takes them.
      while (h.notifySqs.size() < ALERTS) await h.runStreamOnce();
      await store.kill();
    }

    await runLambdasUntilSettled(h, store);

    const logs = async (status: string) =>
      (await call('GET', `/v1/notify/logs?status=${status}&limit=100`)).logs as unknown[];
    const alerts = receiver.received.filter((r) => r.path === '/webhook');
    const perDelivery = new Map<string, number>();
    for (const r of alerts) perDelivery.set(r.deliveryId, (perDelivery.get(r.deliveryId) ?? 0) + 1);
    const actionPaths = receiver.received.filter((r) => r.path.startsWith('/action/')).map((r) => r.path);
    return {
      outageHappened: store.outage() !== undefined,
      alertedEntities: new Set(alerts.filter((r) => r.body.to_state === 'down').map((r) => r.body.entity_id))
        .size,
      actionedEntities: new Set(actionPaths).size,
      mostSendsOfOneDelivery: Math.max(0, ...perDelivery.values()),
      pending: await logs('pending'),
      retrying: await logs('retrying'),
      sent: (await logs('sent')).length,
      deadLetters: [...h.notifySqs.deadLetterBodies(), ...h.actionSqs.deadLetterBodies()],
    };
  } finally {
    await h.close();
    await receiver.close();
    await store.stop();
  }
}

describe.concurrent('a 60 s DynamoDB outage on the notification path (Lambda handlers, DynamoDB Local SIGKILLed)', () => {
  it.each<Point>(['jobs queued', 'sends in flight', 'records being written'])(
    'loses no alert and no action run when the store dies with %s: each alert sent at least once, no delivery id more than twice, no record left pending or retrying, no dead letter',
    async (point) => {
      const outcome = await outageAt(point);

      expect(outcome.outageHappened).toBe(true);
      expect(outcome.alertedEntities).toBe(ALERTS);
      expect(outcome.actionedEntities).toBe(ALERTS);
      expect(outcome.mostSendsOfOneDelivery).toBeLessThanOrEqual(2);
      expect(outcome.pending).toEqual([]);
      expect(outcome.retrying).toEqual([]);
      expect(outcome.sent).toBe(ALERTS);
      expect(outcome.deadLetters).toEqual([]);
    },
    START_MS + SETTLE_MS + 60_000,
  );
});
