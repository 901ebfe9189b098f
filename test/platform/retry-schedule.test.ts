import { describe, expect, it } from 'vitest';
import {
  afterFailure,
  DEFAULT_RETRIES,
  OUTAGE_RETRIES,
  outageRetries,
  RetryLaterError,
  retryDelaySeconds,
} from '../../lib/platform/job-queue.ts';

/** The job queues' retry schedules: quick for probes and local jobs, 15 minutes for the notify and action queues. */

const waitedBeforeDeadLetter = (schedule: { maxAttempts: number; capSeconds: number }, spent = 0) => {
  let seconds = 0;
  // The receiver's attempts take the last receives before the dead letter, with their 1 s and 2 s.
  for (let attempt = 1; attempt < schedule.maxAttempts - spent; attempt += 1)
    seconds += retryDelaySeconds(attempt, schedule.capSeconds);
  return seconds;
};

describe('the retry schedules', () => {
  it('keeps probes and local jobs at 1 s, 2 s, 4 s, then a dead letter', () => {
    expect([1, 2, 3, 4].map((n) => afterFailure(n, DEFAULT_RETRIES))).toEqual([
      { status: 'retry', retryInSeconds: 1 },
      { status: 'retry', retryInSeconds: 2 },
      { status: 'retry', retryInSeconds: 4 },
      { status: 'dead' },
    ]);
  });

  it('retries the notify and action queues for at least 15 minutes, delays doubling to a minute, even when a receiver took two receives', () => {
    expect(OUTAGE_RETRIES).toEqual({ maxAttempts: 23, capSeconds: 60 });
    expect(waitedBeforeDeadLetter(OUTAGE_RETRIES, 2)).toBeGreaterThanOrEqual(900);
    expect([1, 6, 7, 22].map((n) => afterFailure(n, OUTAGE_RETRIES))).toEqual([
      { status: 'retry', retryInSeconds: 1 },
      { status: 'retry', retryInSeconds: 32 },
      { status: 'retry', retryInSeconds: 60 },
      { status: 'retry', retryInSeconds: 60 },
    ]);
    expect(afterFailure(23, OUTAGE_RETRIES)).toEqual({ status: 'dead' });
  });

  it('sizes a scaled schedule to cover what it is asked to', () => {
    const scaled = outageRetries(10, 90);
    expect(waitedBeforeDeadLetter(scaled, 2)).toBeGreaterThanOrEqual(90);
    expect(waitedBeforeDeadLetter({ ...scaled, maxAttempts: scaled.maxAttempts - 1 }, 2)).toBeLessThan(90);
  });

  it('comes back after the delay a RetryLaterError names, whatever the receive count', () => {
    expect(afterFailure(9, OUTAGE_RETRIES, new RetryLaterError('attempt 1 failed', 1))).toEqual({
      status: 'retry',
      retryInSeconds: 1,
    });
    expect(afterFailure(23, OUTAGE_RETRIES, new RetryLaterError('attempt 2 failed', 2))).toEqual({
      status: 'dead',
    });
  });
});
