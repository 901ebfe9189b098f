import { createHash } from 'node:crypto';
import { parse } from 'cookie';
import { randomBase62 } from '../../auth/api-key.ts';
import type { Logger } from '../../platform/logger.ts';
import { ConditionFailedError, type Table } from '../../store/table.ts';
import { type Credential, getCredential } from '../credential-items.ts';
import { credentialChangeOps } from '../credential-write.ts';

/**
 * The device cookie (docs/auth.md "Failed sign-ins"): a random value a browser gets at its first
 * successful sign-in to an account and sends to later sign-ins; the credential keeps its SHA-256.
 * A browser that signed in before is thus told apart from a guesser: the account's failure limit
 * does not slow it down. It proves nothing else: the password (and code) are still needed.
 */
export const DEVICE_COOKIE = 'vigil_device';
export const DEVICE_COOKIE_MAX_AGE_S = 365 * 86_400;
/** Browsers remembered per credential; the least recently signed-in one goes first. */
const MAX_DEVICES = 10;
const RAW = /^vdv_[0-9A-Za-z]{40}$/;

/** The device cookie a sign-in request carries, if well formed. */
export function deviceOf(headers: Record<string, string>): string | undefined {
  const header = headers.cookie;
  if (header === undefined || header.length > 8192) return undefined;
  const value = parse(header)[DEVICE_COOKIE];
  return value !== undefined && RAW.test(value) ? value : undefined;
}

/** A new device cookie value (238 random bits). */
export const newDevice = () => `vdv_${randomBase62(40)}`;

const deviceHash = (raw: string) => createHash('sha256').update(raw, 'utf8').digest('hex');

/** Whether the browser of `raw` signed in with one of these credentials before. */
export const knownDevice = (credentials: readonly Credential[], raw: string | undefined): boolean => {
  if (raw === undefined) return false;
  const hash = deviceHash(raw);
  return credentials.some((credential) => credential.device_hashes?.includes(hash) === true);
};

/**
 * Remembers the browser of `raw` in the user's credential (the most recent last, at most
 * MAX_DEVICES), in a write conditioned on the credential's version, tried twice; a failure is
 * logged: the sign-in stands, the browser is just not remembered.
 */
export async function rememberDevice(
  deps: { table: Table; logger: Logger },
  who: { tenantId: string; userId: string },
  raw: string,
  nowMs: number,
): Promise<void> {
  const hash = deviceHash(raw);
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      const credential = await getCredential(deps.table, who.tenantId, who.userId);
      if (!credential || credential.device_hashes?.at(-1) === hash) return;
      const kept = (credential.device_hashes ?? []).filter((h) => h !== hash);
      const device_hashes = [...kept, hash].slice(-MAX_DEVICES);
      await deps.table.transact(credentialChangeOps(credential, { device_hashes }, nowMs));
      return;
    } catch (err) {
      if (err instanceof ConditionFailedError && attempt === 0) continue;
      deps.logger.warn('sign-in device not remembered', { err });
      return;
    }
  }
}
