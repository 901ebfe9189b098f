import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { classifyWriteError } from '../../lib/dynamodb/dynamodb-errors.ts';
import { InvalidWriteError, ItemTooLargeError } from '../../lib/store/table.ts';

function validationException(message: string): Error {
  return Object.assign(new Error(message), { name: 'ValidationException' });
}

describe('DynamoDB item-size errors', () => {
  it.each([
    'Item size has exceeded the maximum allowed size',
    'Item size to update has exceeded the maximum allowed size',
  ])('turns the ValidationException "%s" into ItemTooLargeError', (message) => {
    const outcome = classifyWriteError(validationException(message));
    expect(outcome.retry).toBe(false);
    expect(outcome.retry === false && outcome.error).toBeInstanceOf(ItemTooLargeError);
  });

  it('turns a transaction cancelled for an item over the limit into ItemTooLargeError', () => {
    const error = new TransactionCanceledException({
      $metadata: {},
      message: 'Transaction cancelled',
      CancellationReasons: [
        { Code: 'None' },
        { Code: 'ValidationError', Message: 'Item size has exceeded the maximum allowed size' },
      ],
    });
    const outcome = classifyWriteError(error);
    expect(outcome.retry === false && outcome.error).toBeInstanceOf(ItemTooLargeError);
  });

  it('keeps other ValidationExceptions an InvalidWriteError of another kind', () => {
    const outcome = classifyWriteError(validationException('One or more parameter values were invalid'));
    const error = outcome.retry === false ? outcome.error : undefined;
    expect(error).toBeInstanceOf(InvalidWriteError);
    expect(error).not.toBeInstanceOf(ItemTooLargeError);
  });
});
