import { ConditionFailedError, InvalidWriteError, ItemTooLargeError, type WriteOp } from '../store/table.ts';
import type { WriteResult } from './sqlite-writer.ts';

/** Messages between the event loop and the sqlite writer thread (structured clones). */

export type WriterRequest =
  | { id: number; kind: 'commit'; group: WriteOp[][] }
  | { id: number; kind: 'sweep'; nowSeconds: number; limit: number }
  | { id: number; kind: 'deleteChanges'; seq: number }
  | { id: number; kind: 'close' };

/** An error as it crosses the thread boundary: the engine's own errors keep their class. */
export type EncodedError =
  | { kind: 'condition'; failed: number[] }
  | { kind: 'invalid'; message: string }
  | { kind: 'too-large'; message: string }
  | { kind: 'error'; name: string; message: string; code?: string };

export type EncodedOutcome = { ok: true; result: WriteResult } | { ok: false; error: EncodedError };

export type WriterReply =
  | { id: number; kind: 'commit'; outcomes: EncodedOutcome[] }
  | { id: number; kind: 'sweep'; deleted: number; changes: number }
  | { id: number; kind: 'done' }
  | { id: number; kind: 'failed'; error: EncodedError };

export function encodeWriterError(error: unknown): EncodedError {
  if (error instanceof ConditionFailedError) return { kind: 'condition', failed: error.failed };
  if (error instanceof ItemTooLargeError) return { kind: 'too-large', message: error.message };
  if (error instanceof InvalidWriteError) return { kind: 'invalid', message: error.message };
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return {
      kind: 'error',
      name: error.name,
      message: error.message,
      ...(typeof code === 'string' ? { code } : {}),
    };
  }
  return { kind: 'error', name: 'Error', message: String(error) };
}

export function decodeWriterError(error: EncodedError): Error {
  switch (error.kind) {
    case 'condition':
      return new ConditionFailedError(error.failed);
    case 'invalid':
      return new InvalidWriteError(error.message);
    case 'too-large':
      return new ItemTooLargeError(error.message);
    case 'error':
      return Object.assign(new Error(`sqlite writer thread: ${error.message}`), {
        name: error.name,
        ...(error.code ? { code: error.code } : {}),
      });
  }
}
