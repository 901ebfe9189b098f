import { setTimeout as sleep } from 'node:timers/promises';
import * as z from 'zod';
import { ConditionFailedError, InvalidWriteError, ItemTooLargeError } from '../store/table.ts';

/** Maps DynamoDB write errors to the port's errors and retries transaction conflicts. */

/** Cancellation reasons worth another attempt: the transaction lost a race, nothing was decided. */
const RETRYABLE_REASONS = new Set([
  'TransactionConflict',
  'ThrottlingError',
  'ProvisionedThroughputExceeded',
  'RequestLimitExceeded',
]);
/** Single-item writes that met a transaction in flight, and transactions still in progress. */
const RETRYABLE_ERRORS = new Set(['TransactionConflictException', 'TransactionInProgressException']);

const cancellationSchema = z.object({
  CancellationReasons: z
    .array(z.object({ Code: z.string().optional(), Message: z.string().optional() }).loose())
    .optional(),
});

/** DynamoDB's words for an item over 400 KB ("Item size has exceeded…", "Item size to update has exceeded…"). */
const ITEM_TOO_LARGE = /item size (?:to update )?has exceeded the maximum allowed size/i;

function tooLargeIn(error: unknown): boolean {
  const parsed = cancellationSchema.safeParse(error);
  const reasons = parsed.success ? (parsed.data.CancellationReasons ?? []) : [];
  return reasons.some((r) => ITEM_TOO_LARGE.test(r.Message ?? ''));
}

type Outcome = { retry: true } | { retry: false; error: unknown };

function cancellationCodes(error: unknown): string[] {
  const parsed = cancellationSchema.safeParse(error);
  return parsed.success ? (parsed.data.CancellationReasons ?? []).map((r) => r.Code ?? 'None') : [];
}

/** Decides what a failed write means: retry, or the error to throw. */
export function classifyWriteError(error: unknown): Outcome {
  const name = error instanceof Error ? error.name : '';
  if (name === 'ConditionalCheckFailedException') {
    return { retry: false, error: new ConditionFailedError([0], { cause: error }) };
  }
  if (name === 'TransactionCanceledException') {
    const codes = cancellationCodes(error);
    const failed = codes.flatMap((code, i) => (code === 'ConditionalCheckFailed' ? [i] : []));
    if (failed.length > 0) return { retry: false, error: new ConditionFailedError(failed, { cause: error }) };
    if (codes.some((code) => RETRYABLE_REASONS.has(code))) return { retry: true };
    if (tooLargeIn(error)) {
      return { retry: false, error: new ItemTooLargeError('an item exceeds 400 KB', { cause: error }) };
    }
    if (codes.includes('ValidationError')) {
      return {
        retry: false,
        error: new InvalidWriteError('DynamoDB refused the transaction', { cause: error }),
      };
    }
    return { retry: false, error };
  }
  if (RETRYABLE_ERRORS.has(name)) return { retry: true };
  if (name === 'ValidationException' && error instanceof Error && ITEM_TOO_LARGE.test(error.message)) {
    return { retry: false, error: new ItemTooLargeError(error.message, { cause: error }) };
  }
  if (name === 'ValidationException' && error instanceof Error) {
    return { retry: false, error: new InvalidWriteError(error.message, { cause: error }) };
  }
  return { retry: false, error };
}

/** Full-jitter exponential backoff: up to 20 ms, 40 ms, ... capped at 1 s. */
export function backoffMs(attempt: number): number {
  return Math.random() * Math.min(1000, 20 * 2 ** attempt);
}

/** Runs a write, retrying conflicts up to `maxRetries` times; throws the port's errors. */
export async function withConflictRetries<T>(write: () => Promise<T>, maxRetries: number): Promise<T> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await write();
    } catch (error) {
      const outcome = classifyWriteError(error);
      if (!outcome.retry) throw outcome.error;
      if (attempt >= maxRetries) throw error;
      await sleep(backoffMs(attempt));
    }
  }
}
