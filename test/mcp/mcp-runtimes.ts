// The runtime's global first: functions/mcp.ts reads it when it loads.
import '../support/lambda-streaming-global.ts';
import { afterAll, beforeAll, expect, inject } from 'vitest';
import { createMcpHandler } from '../../functions/mcp.ts';
import type { App } from '../../lib/app.ts';
import { createCloudApp, MCP_SSE_FUNCTION_MS } from '../../lib/cloud/http-composition.ts';
import { loadConfig } from '../../lib/platform/config.ts';
import type { Table } from '../../lib/store/table.ts';
import { fakeStreamingRuntime } from '../status/stream-drivers.ts';
import { startLocalHarness } from '../support/api-harness.ts';
import { createTestTable } from '../support/dynamodb-local.ts';
import { DEPLOYED_QUEUES, startFauxqsEngine } from '../support/fauxqs.ts';
import { functionUrlFront, localFront, type McpFront } from './mcp-fronts.ts';

/**
 * /v1/mcp of both runtimes behind a loopback front (test/mcp/mcp-fronts.ts), for a new tenant (its
 * catalog-ops skill registered, as every new tenant's is): the local runtime, and the cloud MCP function as its function
 * URL runs it over DynamoDB Local. It sets the Lambda runtime's `awslambda` global before
 * functions/mcp.ts loads (test/support/lambda-streaming-global.ts).
 */

export interface McpRuntime {
  /** The front's URL, `http://localhost:<port>/v1/mcp`. */
  url: string;
  /** The tenant's admin key. */
  key: string;
  tenantId: string;
  /** The composed core behind the front (its recorder writes results as probes do). */
  app: App;
  /** The table behind it (SQLite, or DynamoDB Local), for a test that stores what no route can (an expired session). */
  table: Table;
  /** Another tenant, and its admin key. */
  createTenant(name: string): Promise<{ tenantId: string; key: string }>;
  close(): Promise<void>;
}

export interface RuntimeOptions {
  /** The front adds this tenant's key to requests that carry none (the conformance suite sends none). */
  addKey?: boolean;
  /**
   * The cloud's streams last as long as the MCP function holds them (functions/mcp.ts), not the
   * api function's 20 s: a test that must not meet a session stream's reconnection (a change made
   * while the client reconnects is not replayed) asks for it.
   */
  functionStreams?: boolean;
}

async function startLocal(options: RuntimeOptions): Promise<McpRuntime> {
  const api = await startLocalHarness({ scheduler: false });
  const front = await localFront(api.local.url, options.addKey ? api.adminKey : undefined);
  return ready(
    front,
    { key: api.adminKey, tenantId: api.tenantId, app: api.app, table: api.local.table },
    () => api.close(),
  );
}

async function startFunction(options: RuntimeOptions): Promise<McpRuntime> {
  const table = await createTestTable(inject('dynamodbEndpoint'));
  // The MCP function enqueues notify jobs (an acknowledgement's), as deployed (infra/vigil-stack.ts).
  const sqs = await startFauxqsEngine();
  const notify = sqs.createQueue('vigil-notify', DEPLOYED_QUEUES.notify);
  const config = loadConfig('cloud', {
    VIGIL_TABLE_NAME: table.tableName,
    VIGIL_NOTIFY_QUEUE_URL: notify.url,
    VIGIL_LOG_LEVEL: 'silent',
    VIGIL_RATE_LIMIT_RPS: '0',
    VIGIL_AUTH_FAILURE_LIMIT: '0',
  });
  const cloud = createCloudApp(config, {
    dynamodb: table.client,
    sqs: sqs.sqs,
    logWrite: () => {},
    ...(options.functionStreams ? { mcpSse: { maxDurationMs: MCP_SSE_FUNCTION_MS } } : {}),
  });
  const { rawKey, tenant } = await cloud.app.tenants.createTenant({ name: 'Acme', email: 'ops@acme.test' });
  const handler = createMcpHandler({ ...cloud, runtime: fakeStreamingRuntime() });
  const front = await functionUrlFront(handler, options.addKey ? rawKey : undefined);
  return ready(front, { key: rawKey, tenantId: tenant.id, app: cloud.app, table: cloud.table }, async () => {
    await table.drop();
    await sqs.stop();
  });
}

async function ready(
  front: McpFront,
  of: { key: string; tenantId: string; app: App; table: Table },
  stop: () => Promise<void>,
): Promise<McpRuntime> {
  return {
    url: front.url,
    ...of,
    createTenant: async (name) => {
      const created = await of.app.tenants.createTenant({ name, email: `ops@${name.toLowerCase()}.test` });
      return { tenantId: created.tenant.id, key: created.rawKey };
    },
    close: async () => {
      await front.close();
      await stop();
    },
  };
}

/** Both runtimes, by name, for `describe.each`. */
export const MCP_RUNTIMES: ReadonlyArray<[string, (options?: RuntimeOptions) => Promise<McpRuntime>]> = [
  ['local runtime', (options = {}) => startLocal(options)],
  ['cloud MCP function (function URL events, DynamoDB Local)', (options = {}) => startFunction(options)],
];

/**
 * A describe block's runtime: started before its tests by `start` (one of MCP_RUNTIMES), closed
 * after them with every client its tests kept open (`keep`).
 */
export function mcpRuntimeOf(start: () => Promise<McpRuntime>) {
  let rt: McpRuntime | undefined;
  const clients: Array<{ close(): Promise<void> }> = [];
  beforeAll(async () => {
    rt = await start();
  }, 60_000);
  afterAll(async () => {
    for (const client of clients) await client.close();
    await rt?.close();
  });
  return {
    /** The runtime (after beforeAll). */
    get rt(): McpRuntime {
      if (!rt) throw new Error('the MCP runtime is read before its beforeAll started it');
      return rt;
    },
    /** Closes `client` after the block's tests; answers it. */
    keep<C extends { close(): Promise<void> }>(client: C): C {
      clients.push(client);
      return client;
    },
  };
}

/** A REST POST through the runtime's front (both fronts serve every route of the app); its JSON answer, a 200 or 201. */
export async function rest(rt: McpRuntime, path: string, body: unknown = {}, key = rt.key) {
  const res = await fetch(new URL(path, rt.url), {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  // biome-ignore lint/suspicious/noExplicitAny: the API's JSON answer
  const json = (await res.json()) as any;
  expect([200, 201], JSON.stringify(json)).toContain(res.status);
  return json;
}
