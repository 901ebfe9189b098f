import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { ConditionFailedError, InvalidWriteError } from './table.ts';

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
  CancellationReasons: z.array(z.object({ Code: z.string().optional() }).loose()).optional(),
});

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
    if (codes.includes('ValidationError')) {
      return {
        retry: false,
        error: new InvalidWriteError('DynamoDB refused the transaction', { cause: error }),
      };
    }
    return { retry: false, error };
  }
  if (RETRYABLE_ERRORS.has(name)) return { retry: true };
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
