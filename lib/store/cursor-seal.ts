import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import * as z from 'zod';

/**
 * Page cursors as clients see them: the store position sealed with AES-256-GCM under a key derived
 * from the deployment's secret, the list it belongs to bound as associated data. Clients can
 * neither read the table keys inside nor change them, and a cursor of another list (another check,
 * another tenant) fails to open; nothing is stored per cursor.
 */

const FORMAT = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const positionSchema = z.record(z.string(), z.string());

export interface CursorSeal {
  /** The client cursor for a store position in `list`. */
  seal(position: Record<string, string>, list: string): Promise<string>;
  /** The store position of a client cursor, or undefined if it was not sealed here for `list`. */
  open(cursor: string, list: string): Promise<Record<string, string> | undefined>;
}

/** A seal whose key is derived once from `loadSecret` (retried on the next call if loading fails). */
export function createCursorSeal(loadSecret: () => Promise<Buffer>): CursorSeal {
  let key: Promise<Buffer> | undefined;
  const keyOnce = (): Promise<Buffer> => {
    key ??= loadSecret().then(
      (secret) => Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), 'vigil page cursor', 32)),
      (error: unknown) => {
        key = undefined;
        throw error;
      },
    );
    return key;
  };

  return {
    async seal(position, list) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', await keyOnce(), iv);
      cipher.setAAD(Buffer.from(list, 'utf8'));
      const body = Buffer.concat([cipher.update(JSON.stringify(position), 'utf8'), cipher.final()]);
      return Buffer.concat([Buffer.from([FORMAT]), iv, cipher.getAuthTag(), body]).toString('base64url');
    },

    async open(cursor, list) {
      const raw = Buffer.from(cursor, 'base64url');
      if (raw.length <= 1 + IV_BYTES + TAG_BYTES || raw[0] !== FORMAT) return undefined;
      const iv = raw.subarray(1, 1 + IV_BYTES);
      const tag = raw.subarray(1 + IV_BYTES, 1 + IV_BYTES + TAG_BYTES);
      const key = await keyOnce(); // a store failure here is a 500, not a bad cursor
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, iv);
        decipher.setAAD(Buffer.from(list, 'utf8'));
        decipher.setAuthTag(tag);
        const body = Buffer.concat([
          decipher.update(raw.subarray(1 + IV_BYTES + TAG_BYTES)),
          decipher.final(),
        ]);
        return positionSchema.parse(JSON.parse(body.toString('utf8')));
      } catch {
        return undefined;
      }
    },
  };
}
