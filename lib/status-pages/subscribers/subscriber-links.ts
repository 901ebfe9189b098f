import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { loadCursorSecret } from '../../store/cursor-secret.ts';
import type { Table } from '../../store/table.ts';

/**
 * The links a subscriber is sent: the confirmation link (single use, expiring) and the manage link
 * (also the RFC 8058 one-click unsubscribe URL). A link's token is `<subscriber id>.<mac>`: an
 * HMAC-SHA256 of the purpose, the page, the subscriber and the nonce stored on it, under a key
 * derived from the deployment's secret. Nothing secret is stored (the nonce alone makes no link),
 * yet a job can write the link again from the stored nonce, so a notice carries the manage link
 * without the token ever being kept; a new nonce voids the old link.
 */

type Purpose = 'confirm' | 'manage';
export type LinkKey = () => Promise<Buffer>;

const TOKEN = /^(psb_[0-9a-f]{26})\.([A-Za-z0-9_-]{43})$/;

/** The key of the links, derived once per process from the deployment's secret (lib/store/cursor-secret.ts). */
export function linkKeyOf(table: Table): LinkKey {
  let key: Promise<Buffer> | undefined;
  return () => {
    key ??= loadCursorSecret(table).then((secret) =>
      createHmac('sha256', secret).update('vigil page subscriber links v1').digest(),
    );
    return key;
  };
}

/** A fresh nonce (128 random bits). */
export const newNonce = (): string => randomBytes(16).toString('base64url');

interface Subject {
  tenant_id: string;
  page: string;
  id: string;
}

const mac = (key: Buffer, purpose: Purpose, s: Subject, nonce: string) =>
  createHmac('sha256', key)
    .update(`${purpose}\0${s.tenant_id}\0${s.page}\0${s.id}\0${nonce}`)
    .digest('base64url');

/** The token of a link. */
export function linkToken(key: Buffer, purpose: Purpose, s: Subject, nonce: string): string {
  return `${s.id}.${mac(key, purpose, s, nonce)}`;
}

/** The subscriber id a token names, or undefined for a token of no valid shape. */
export function tokenSubscriber(token: string): string | undefined {
  return TOKEN.exec(token)?.[1];
}

/** Whether `token` is the link of this purpose for the subscriber's current nonce (constant time). */
export function tokenMatches(
  key: Buffer,
  purpose: Purpose,
  s: Subject,
  nonce: string | null,
  token: string,
): boolean {
  const given = TOKEN.exec(token);
  if (!given || nonce === null || given[1] !== s.id) return false;
  const expected = Buffer.from(mac(key, purpose, s, nonce));
  const actual = Buffer.from(given[2] ?? '');
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/** The paths of the links under the page's routes (the keyless routes of subscriber-routes.ts). */
export const confirmPath = (token: string) => `/confirm/${token}`;
export const managePath = (token: string) => `/subscription/${token}`;
