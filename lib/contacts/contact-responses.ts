import * as z from 'zod';
import { timestampSchema } from '../http/route-schemas.ts';
import type { ContactMethodRecord } from './contact-items.ts';
import { CONTACT_KINDS, registeredKind } from './kinds/registry.ts';
import { MAX_ATTEMPTS } from './verification-code.ts';

/** The public shapes of contact methods and rules: the code's hash never leaves the store. */

export const publicContactMethodSchema = z
  .strictObject({
    id: z.string(),
    kind: z.enum(CONTACT_KINDS),
    address: z.string().nullable().meta({ description: 'What it reaches; null for console' }),
    label: z.string().nullable(),
    verified: z.boolean(),
    verified_at: timestampSchema.nullable(),
    verification: z
      .strictObject({
        expires_at: timestampSchema,
        attempts_left: z.int(),
      })
      .nullable()
      .meta({ description: 'The code pending, if any: when it expires and how many wrong tries are left' }),
    created_at: timestampSchema,
    updated_at: timestampSchema,
  })
  .meta({ id: 'ContactMethod' });
export type PublicContactMethod = z.output<typeof publicContactMethodSchema>;

export const contactMethodListSchema = z.strictObject({
  contact_methods: z.array(publicContactMethodSchema),
});

export const publicRulesSchema = z
  .strictObject({
    rules: z.array(z.strictObject({ after_seconds: z.int(), contact_method_id: z.string() })),
    updated_at: timestampSchema.nullable().meta({ description: 'null until the rules are first set' }),
  })
  .meta({ id: 'NotificationRules' });
export type PublicRules = z.output<typeof publicRulesSchema>;

export function publicContactMethod(m: ContactMethodRecord): PublicContactMethod {
  return {
    id: m.id,
    kind: registeredKind(m.kind),
    address: m.address,
    label: m.label,
    verified: m.verified,
    verified_at: m.verified_at,
    verification: m.code
      ? { expires_at: m.code.expires_at, attempts_left: MAX_ATTEMPTS - m.code.attempts }
      : null,
    created_at: m.created_at,
    updated_at: m.updated_at,
  };
}
