import { z } from 'zod';
import type { Item } from './table.ts';

const itemSchema = z.looseObject({
  pk: z.string(),
  sk: z.string(),
  entity: z.string(),
  gsi1pk: z.string().optional(),
  gsi1sk: z.string().optional(),
  gsi2pk: z.string().optional(),
  gsi2sk: z.string().optional(),
  ttl: z.number().optional(),
});

/** Parses an item read from either engine (generic keys and `entity` required, the rest open). */
export function parseStoredItem(raw: unknown): Item {
  return itemSchema.parse(raw);
}

/** The item if `raw` is one, else undefined (for filters that must not throw mid-transaction). */
export function asItem(raw: unknown): Item | undefined {
  const parsed = itemSchema.safeParse(raw);
  return parsed.success ? parsed.data : undefined;
}
