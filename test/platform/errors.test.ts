import { describe, expect, it } from 'vitest';
import {
  AppError,
  ConflictError,
  ForbiddenError,
  LimitExceededError,
  LogLimitError,
  ReadOnlyError,
} from '../../lib/platform/errors.ts';

describe('errors of one code and status', () => {
  it.each([
    [ReadOnlyError, 'ReadOnlyError', 'READ_ONLY', 403, 'this API key is read-only'],
    [ForbiddenError, 'ForbiddenError', 'FORBIDDEN', 403, 'your role does not allow this'],
    [LogLimitError, 'LogLimitError', 'LOG_LIMIT', 409, 'the execution already holds 1,000 log lines'],
  ])('%o answers its code, status and default message', (Class, name, code, status, message) => {
    const error = new Class();

    expect(error).toBeInstanceOf(Class);
    expect(error).toBeInstanceOf(AppError);
    expect({
      name: error.name,
      ctor: error.constructor.name,
      code: error.code,
      status: error.status,
    }).toEqual({
      name,
      ctor: name,
      code,
      status,
    });
    expect(error.message).toBe(message);
    expect(error.expose).toBe(true);
    expect(new Class('said otherwise').message).toBe('said otherwise');
  });

  it.each([
    [ConflictError, 'ConflictError', 'CONFLICT', 409],
    [LimitExceededError, 'LimitExceededError', 'LIMIT_EXCEEDED', 403],
  ])('%o carries the message it is given', (Class, name, code, status) => {
    const error = new Class('the slug is taken');

    expect(error).toBeInstanceOf(Class);
    expect([error.name, error.constructor.name, error.code, error.status, error.message]).toEqual([
      name,
      name,
      code,
      status,
      'the slug is taken',
    ]);
    expect(String(error.stack).split('\n')[0]).toBe(`${name}: the slug is taken`);
  });

  it('keeps a subclass its own name over the code and status it inherits', () => {
    class SlugTaken extends ConflictError {
      override name = 'SlugTaken';
    }

    const error = new SlugTaken('taken');

    expect(error).toBeInstanceOf(ConflictError);
    expect([error.name, error.code, error.status]).toEqual(['SlugTaken', 'CONFLICT', 409]);
  });
});
