import { createHash, randomInt, timingSafeEqual } from 'node:crypto';

/**
 * A contact method's verification code: 6 digits from the CSPRNG, sent once through the method
 * itself, stored only as a SHA-256 over the method's id and the code (so one hash never matches
 * another method's), single-use, valid for CODE_TTL_MS, burnt after MAX_ATTEMPTS wrong tries.
 */

export const CODE_TTL_MS = 10 * 60_000;
export const MAX_ATTEMPTS = 5;
/** Resends: one a minute, at most SENDS_PER_HOUR in any hour (each one a message to a person). */
const RESEND_GAP_MS = 60_000;
const SENDS_PER_HOUR = 5;
const HOUR_MS = 3_600_000;

/** A fresh 6-digit code. */
export function newCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

/** The stored form of `code` for the method `methodId`. */
export function codeHash(methodId: string, code: string): string {
  return createHash('sha256').update(`${methodId}:${code}`).digest('hex');
}

/** Whether `code` is the one whose hash was stored (compared in constant time). */
export function codeMatches(methodId: string, code: string, storedHash: string): boolean {
  const given = Buffer.from(codeHash(methodId, code), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return given.length === stored.length && timingSafeEqual(given, stored);
}

/**
 * Milliseconds until another code may be sent, given the earlier sends (ISO times), or 0 when
 * one may go now; also the sends still inside the hour, which the next write keeps.
 */
export function resendWait(sends: readonly string[], now: number): { waitMs: number; recent: string[] } {
  const recent = sends.filter((s) => now - Date.parse(s) < HOUR_MS);
  const last = recent.length > 0 ? Date.parse(recent[recent.length - 1] as string) : undefined;
  const gap = last === undefined ? 0 : Math.max(0, last + RESEND_GAP_MS - now);
  const oldest = recent[0];
  const hourly = recent.length >= SENDS_PER_HOUR && oldest ? Date.parse(oldest) + HOUR_MS - now : 0;
  return { waitMs: Math.max(gap, hourly), recent };
}
