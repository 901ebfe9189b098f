import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { itemType, stamp } from './item-type.ts';
import { ConditionFailedError, type Item, type NewItem, type Table } from './table.ts';

/**
 * The deployment's page-cursor secret: one item in the table, created by whichever process needs
 * it first (a conditional put, so concurrent cold starts agree on one value) and read by the rest.
 * It lives in the table because both runtimes have one and it needs no infrastructure or config.
 */

/** Where the secret item lives: a partition of its own, never read by a tenant's queries. */
export const CURSOR_SECRET_KEY = { pk: 'SECRET#CURSOR', sk: '#SECRET' } as const;

/** The secret item's type. */
export const CURSOR_SECRET = itemType('cursor_secret');

const SECRET_BYTES = 32;

const secretItemSchema = z.object({
  entity: z.literal(CURSOR_SECRET.entity),
  secret: z.base64url().refine((value) => Buffer.from(value, 'base64url').length === SECRET_BYTES),
});

function secretOf(item: Item): Buffer {
  return Buffer.from(secretItemSchema.parse(item).secret, 'base64url');
}

/** Reads the deployment's cursor secret, creating it on first use. */
export async function loadCursorSecret(table: Table): Promise<Buffer> {
  const existing = await table.get(CURSOR_SECRET_KEY, { consistent: true });
  if (existing) return secretOf(existing);
  const secret = randomBytes(SECRET_BYTES);
  const item: NewItem = {
    ...CURSOR_SECRET_KEY,
    ...stamp(CURSOR_SECRET),
    secret: secret.toString('base64url'),
  };
  try {
    await table.transact([{ type: 'put', item, condition: { kind: 'itemNotExists' } }]);
    return secret;
  } catch (error) {
    if (!(error instanceof ConditionFailedError)) throw error;
    // Another process created it between our read and our put: theirs is the secret.
    const winner = await table.get(CURSOR_SECRET_KEY, { consistent: true });
    if (!winner) throw error;
    return secretOf(winner);
  }
}
