import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import {
  CreateTableCommand,
  DeleteTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ListTablesCommand,
} from '@aws-sdk/client-dynamodb';
import { createTableDefinition } from '../../lib/dynamodb/dynamodb-table.ts';

/** DynamoDB Local from the jar shipped in `amplify-dynamodb-simulator`, run by `java` on PATH. */

export interface DynamoDbLocal {
  endpoint: string;
  port: number;
  stop(): Promise<void>;
  /** SIGKILLs the JVM (no shutdown of any kind) and waits until it is gone: a store outage. */
  kill(): Promise<void>;
}

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const emulatorDir = join(root, 'node_modules', 'amplify-dynamodb-simulator', 'emulator');
const START_TIMEOUT_MS = 45_000;
const STOP_TIMEOUT_MS = 5_000;

/** A port that was free on loopback a moment ago (for a server that cannot take port 0 itself, as DynamoDB Local). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port > 0 ? resolve(port) : reject(new Error('no port assigned'))));
    });
  });
}

/**
 * A client for DynamoDB Local: loopback endpoint, dummy secret and region. DynamoDB Local keeps one
 * database per access key id and region, so `database` names the database the client sees (a
 * test table's own: TestTable.connect()).
 */
function localClient(endpoint: string, database = 'local'): DynamoDBClient {
  return new DynamoDBClient({
    endpoint,
    region: 'local',
    credentials: { accessKeyId: database, secretAccessKey: 'local' },
    maxAttempts: 3,
  });
}

/** Polls ListTables until DynamoDB Local answers; `failure` reports a process that already died. */
async function waitForDynamoDbLocal(
  endpoint: string,
  failure: () => string | undefined = () => undefined,
  timeoutMs = START_TIMEOUT_MS,
) {
  const client = localClient(endpoint);
  const deadline = Date.now() + timeoutMs;
  try {
    while (Date.now() < deadline) {
      const dead = failure();
      if (dead) throw new Error(dead);
      try {
        await client.send(new ListTablesCommand({ Limit: 1 }));
        return;
      } catch {
        await delay(100);
      }
    }
    throw new Error(`DynamoDB Local at ${endpoint} did not answer within ${timeoutMs} ms (is java on PATH?)`);
  } finally {
    client.destroy();
  }
}

function stopProcess(child: ChildProcess): Promise<void> {
  const exited = child.exitCode !== null || child.signalCode !== null;
  const done = exited
    ? Promise.resolve()
    : new Promise<void>((resolve) => {
        const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
      });
  // Closing stdin is the stop signal for the watchdog shell (see startDynamoDbLocal).
  child.stdin?.end();
  return done;
}

/**
 * Starts DynamoDB Local in memory on an ephemeral port; by default waits until it answers.
 * DynamoDB Local 1.x has no bind-address flag, so it listens on every interface; clients only
 * use 127.0.0.1, and telemetry is off. With `dbPath` its data is kept in a file there instead, so
 * a process killed and started again on the same `port` and path finds its tables as it left them.
 */
export async function startDynamoDbLocal(
  options: { waitUntilReady?: boolean; dbPath?: string; port?: number; startTimeoutMs?: number } = {},
): Promise<DynamoDbLocal> {
  const jar = join(emulatorDir, 'DynamoDBLocal.jar');
  if (!existsSync(jar)) throw new Error(`DynamoDB Local jar not found at ${jar}`);
  const port = options.port ?? (await freePort());
  const libraryPath = `-Djava.library.path=${join(emulatorDir, 'DynamoDBLocal_lib')}`;
  const args = [
    libraryPath,
    '-jar',
    jar,
    ...(options.dbPath ? ['-dbPath', options.dbPath] : ['-inMemory']),
    // No -sharedDb: one database per access key id, so each test table lives in its own (see
    // createTestTable). In one shared database every stream-enabled table ever created, deleted
    // ones included, slowed the calls of every later one: after 600 such tables a put on a new
    // stream table took 38 ms against 2 to 4 ms in a database of its own, and the DynamoDB files
    // late in the suite ran 10 to 40 times slower than alone (CONTRIBUTING.md, "The test suite").
    '-disableTelemetry',
    '-port',
    String(port),
  ];
  // A shell between us and java: when our end of its stdin closes (stop(), or this process dying
  // without a chance to clean up), it kills java, so no JVM outlives the test run.
  // It prints java's pid first, for kill().
  const watchdog =
    'exec 3<&0; java "$@" & pid=$!; echo "java-pid:$pid"; (read -r _ <&3; kill "$pid" 2>/dev/null) & wait "$pid"';
  const child = spawn('sh', ['-c', watchdog, 'dynamodb-local', ...args], {
    cwd: emulatorDir,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  let javaPid: number | undefined;
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-4000);
    javaPid ??= Number(/java-pid:(\d+)/.exec(output)?.[1]) || undefined;
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  await new Promise<void>((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', reject);
  });
  let stopping = false;
  child.once('exit', (code) => {
    if (!stopping) process.stderr.write(`DynamoDB Local exited early (${code}):\n${output}\n`);
  });
  const stop = () => {
    stopping = true;
    return stopProcess(child);
  };
  const kill = async () => {
    stopping = true;
    const pid = javaPid;
    if (!pid) throw new Error(`no java pid in the DynamoDB Local output:\n${output}`);
    const exited = new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) resolve();
      else child.once('exit', () => resolve());
    });
    process.kill(pid, 'SIGKILL');
    await exited;
    child.stdin?.end();
  };
  const endpoint = `http://127.0.0.1:${port}`;
  if (options.waitUntilReady ?? true) {
    const failure = () =>
      child.exitCode === null ? undefined : `DynamoDB Local exited with ${child.exitCode}:\n${output}`;
    try {
      await waitForDynamoDbLocal(endpoint, failure, options.startTimeoutMs);
    } catch (error) {
      await stop();
      throw error;
    }
  }
  return { endpoint, port, stop, kill };
}

export interface TestTable {
  client: DynamoDBClient;
  tableName: string;
  /** Another client of the table's own database (the caller destroys it). */
  connect(): DynamoDBClient;
  /** Deletes the table and destroys the client. */
  drop(): Promise<void>;
}

async function waitUntilActive(client: DynamoDBClient, tableName: string): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const described = await client.send(new DescribeTableCommand({ TableName: tableName }));
    if (described.Table?.TableStatus === 'ACTIVE') return;
    await delay(50);
  }
  throw new Error(`table ${tableName} did not become ACTIVE`);
}

// One readiness check per endpoint per test worker (the global setup does not wait for the JVM).
const ready = new Map<string, Promise<void>>();

/**
 * Creates a fresh, uniquely named table (the production definition) on DynamoDB Local, alone in a
 * database of its own (its access key id): no other table's history slows its calls.
 */
export async function createTestTable(endpoint: string, prefix = 'vigil-test'): Promise<TestTable> {
  let waiting = ready.get(endpoint);
  if (!waiting) {
    waiting = waitForDynamoDbLocal(endpoint);
    ready.set(endpoint, waiting);
    waiting.catch(() => ready.delete(endpoint));
  }
  await waiting;
  const id = randomUUID();
  const database = `db${id.replaceAll('-', '')}`;
  const client = localClient(endpoint, database);
  const tableName = `${prefix}-${id}`;
  await client.send(new CreateTableCommand(createTableDefinition(tableName)));
  await waitUntilActive(client, tableName);
  return {
    client,
    tableName,
    connect: () => localClient(endpoint, database),
    drop: async () => {
      try {
        await client.send(new DeleteTableCommand({ TableName: tableName }));
      } finally {
        client.destroy();
      }
    },
  };
}
