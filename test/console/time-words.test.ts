import { describe, expect, it } from 'vitest';
import { everyWords, relativeWords } from '../../web/src/ui/time-words.ts';

/** The console's shared time words (web/src/ui/time-words.ts): relative times and intervals. */
describe('time words', () => {
  const now = Date.parse('2026-06-01T12:00:00.000Z');

  it('says how long ago or how soon, in the unit people use', () => {
    expect(relativeWords(now - 2_000, now)).toBe('just now');
    expect(relativeWords(now - 40_000, now)).toBe('40 s ago');
    expect(relativeWords(now - 3 * 60_000 - 10_000, now)).toBe('3 min ago');
    expect(relativeWords(now + 20_000, now)).toBe('in 20 s');
    expect(relativeWords(now - 5 * 3_600_000, now)).toBe('5 h ago');
    expect(relativeWords(now - 30 * 3_600_000, now)).toBe('1 day ago');
    expect(relativeWords(now - 9 * 86_400_000, now)).toBe('9 days ago');
  });

  it('says an interval as "every ..."', () => {
    expect(everyWords(30)).toBe('every 30 s');
    expect(everyWords(300)).toBe('every 5 min');
    expect(everyWords(7200)).toBe('every 2 h');
    expect(everyWords(60)).toBe('every minute');
    expect(everyWords(3600)).toBe('every hour');
    expect(everyWords(86_400)).toBe('every day');
    expect(everyWords(172_800)).toBe('every 2 days');
    expect(everyWords(90)).toBe('every 1 min 30 s');
    expect(everyWords(86_399)).toBe('every 23 h 59 min');
  });
});
