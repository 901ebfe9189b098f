import { parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';
import { z } from 'zod';
import { startBackgroundCheckpoints } from './sqlite-checkpointer.ts';
import { openSqliteDatabase } from './sqlite-schema.ts';
import { createSqliteWriter, type WriteOutcome } from './sqlite-writer.ts';
import {
  type EncodedOutcome,
  encodeWriterError,
  type WriterReply,
  type WriterRequest,
} from './sqlite-writer-protocol.ts';

/**
 * The sqlite writer on a thread of its own (see sqlite-writer-client.ts): opens its own
 * connection to the database file and answers the event loop's requests in order.
 */

const options = z
  .object({
    path: z.string().min(1),
    streamEntities: z.array(z.string()).optional(),
    backgroundCheckpoints: z.boolean(),
  })
  .parse(workerData);

if (!parentPort) throw new Error('sqlite-writer-thread.ts runs only as a worker thread');
const port = parentPort;

const db = openSqliteDatabase(options.path);
const writer = createSqliteWriter(
  db,
  options.streamEntities ? { streamEntities: options.streamEntities } : {},
);
const checkpointer = options.backgroundCheckpoints
  ? startBackgroundCheckpoints(db, {
      onError: (message) => process.emitWarning(`sqlite background checkpoint failed: ${message}`),
    })
  : undefined;

/** Transactions merged into one commit at most (bounds how long the writer holds its lock). */
const MAX_MERGED = 1024;

function encode(outcome: WriteOutcome): EncodedOutcome {
  return outcome.ok ? outcome : { ok: false, error: encodeWriterError(outcome.error) };
}

/**
 * Commit requests queued behind one another share one sqlite transaction (one WAL commit); each
 * request still hears back about its own transactions only, after the shared COMMIT.
 */
function commitAll(requests: Extract<WriterRequest, { kind: 'commit' }>[]): WriterReply[] {
  const group = requests.flatMap((request) => request.group);
  const nowMs = Math.max(...requests.map((request) => request.nowMs));
  let outcomes: WriteOutcome[];
  try {
    outcomes = writer.commitGroup(group, nowMs);
  } catch (error) {
    return requests.map((request) => ({ id: request.id, kind: 'failed', error: encodeWriterError(error) }));
  }
  let next = 0;
  return requests.map((request) => {
    const own = outcomes.slice(next, next + request.group.length);
    next += request.group.length;
    return { id: request.id, kind: 'commit', outcomes: own.map(encode) };
  });
}

function answer(request: Exclude<WriterRequest, { kind: 'commit' }>): WriterReply {
  switch (request.kind) {
    case 'sweep':
      return {
        id: request.id,
        kind: 'sweep',
        ...writer.sweepExpired(request.nowSeconds, request.limit, request.nowMs),
      };
    case 'deleteChanges':
      writer.deleteChangesThrough(request.seq);
      return { id: request.id, kind: 'done' };
    case 'close':
      return { id: request.id, kind: 'done' };
  }
}

function answerOne(request: Exclude<WriterRequest, { kind: 'commit' }>): WriterReply {
  try {
    return answer(request);
  } catch (error) {
    return { id: request.id, kind: 'failed', error: encodeWriterError(error) };
  }
}

async function close(reply: WriterReply): Promise<void> {
  await checkpointer?.stop();
  db.close();
  port.postMessage(reply);
  port.close();
}

port.on('message', (first: WriterRequest) => {
  if (first.kind !== 'commit') {
    const reply = answerOne(first);
    if (first.kind === 'close') void close(reply);
    else port.postMessage(reply);
    return;
  }
  const commits = [first];
  let merged = first.group.length;
  let after: Exclude<WriterRequest, { kind: 'commit' }> | undefined;
  while (merged < MAX_MERGED) {
    const queued = receiveMessageOnPort(port)?.message as WriterRequest | undefined;
    if (!queued) break;
    if (queued.kind !== 'commit') {
      after = queued;
      break;
    }
    commits.push(queued);
    merged += queued.group.length;
  }
  for (const reply of commitAll(commits)) port.postMessage(reply);
  if (!after) return;
  const reply = answerOne(after);
  if (after.kind === 'close') void close(reply);
  else port.postMessage(reply);
});
