import { parentPort, workerData } from 'node:worker_threads';
import * as z from 'zod';
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
    streamEntities: z
      .array(z.union([z.string(), z.object({ entity: z.string(), gsi2Moves: z.literal(true) })]))
      .optional(),
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

function encode(outcome: WriteOutcome): EncodedOutcome {
  return outcome.ok ? outcome : { ok: false, error: encodeWriterError(outcome.error) };
}

// The table sends one group at a time (sqlite-table.ts), so each commit request is one commit.
function answer(request: WriterRequest): WriterReply {
  switch (request.kind) {
    case 'commit':
      return {
        id: request.id,
        kind: 'commit',
        outcomes: writer.commitGroup(request.group).map(encode),
      };
    case 'sweep':
      return {
        id: request.id,
        kind: 'sweep',
        ...writer.sweepExpired(request.nowSeconds, request.limit),
      };
    case 'deleteChanges':
      writer.deleteChangesThrough(request.seq);
      return { id: request.id, kind: 'done' };
    case 'close':
      return { id: request.id, kind: 'done' };
  }
}

port.on('message', async (request: WriterRequest) => {
  let reply: WriterReply;
  try {
    reply = answer(request);
  } catch (error) {
    // The commit itself failed (the whole group): every transaction of it hears the error.
    reply = { id: request.id, kind: 'failed', error: encodeWriterError(error) };
  }
  if (request.kind === 'close') {
    await checkpointer?.stop();
    db.close();
    port.postMessage(reply);
    port.close();
    return;
  }
  port.postMessage(reply);
});
