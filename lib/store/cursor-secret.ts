import { randomBytes } from 'node:crypto';
import * as z from 'zod';
import { defineItem } from './item-definition.ts';
import { itemType } from './item-type.ts';
import { ConditionFailedError, type Table } from './table.ts';

/**
 * The deployment's page-cursor secret: one item in the table, created by whichever process needs
 * it first (a conditional put, so concurrent cold starts agree on one value) and read by the rest.
 * It lives in the table because both runtimes have one and it needs no infrastructure or config.
 * This module owns the item (`cursor_secret`, docs/data-model.md).
 */

const SECRET_BYTES = 32;

const cursorSecret = defineItem({
  type: itemType('cursor_secret'),
  schema: z.object({
    secret: z.base64url().refine((value) => Buffer.from(value, 'base64url').length === SECRET_BYTES),
  }),
  // A partition of its own, never read by a tenant's queries.
  key: (_k: Record<string, never>) => ({ pk: 'SECRET#CURSOR', sk: '#SECRET' }),
  keyOf: () => ({}),
  docKey: {},
});

const read = async (table: Table): Promise<Buffer | undefined> => {
  const stored = await cursorSecret.get(table, {}, { consistent: true });
  return stored && Buffer.from(stored.secret, 'base64url');
};

/** Reads the deployment's cursor secret, creating it on first use. */
export async function loadCursorSecret(table: Table): Promise<Buffer> {
  const existing = await read(table);
  if (existing) return existing;
  const secret = randomBytes(SECRET_BYTES);
  try {
    await table.transact([
      cursorSecret.put({ secret: secret.toString('base64url') }, { kind: 'itemNotExists' }),
    ]);
    return secret;
  } catch (error) {
    if (!(error instanceof ConditionFailedError)) throw error;
    // Another process created it between our read and our put: theirs is the secret.
    const winner = await read(table);
    if (!winner) throw error;
    return winner;
  }
}
