import * as z from 'zod';
import { idSchema, namesResource } from '../http/route-schemas.ts';
import type { PersonUse } from '../providers/person-use.ts';
import { CONTACT_KIND_DEFINITIONS, type ContactKind } from './kinds/registry.ts';

/** Request shapes of the contact routes (docs/on-call.md); unknown fields are rejected (400). */

const contactMethodIdSchema = idSchema('cmt');
export const contactMethodParams = z.object({ id: namesResource(contactMethodIdSchema, 'contact method') });

const label = z
  .string()
  .regex(/\S/, 'Enter a label, or leave it out.')
  .trim()
  .max(60, 'Enter at most 60 characters.')
  .optional()
  .meta({ description: 'Your own name for it ("work phone")' });

const kindNames = Object.keys(CONTACT_KIND_DEFINITIONS).join(', ');

/** One request variant per kind: its address as the kind takes it (console: none, it is the signed-in console). */
const variants = (Object.entries(CONTACT_KIND_DEFINITIONS) as [ContactKind, PersonUse][]).map(
  ([kind, definition]) =>
    definition.address
      ? z.strictObject({ kind: z.literal(kind), address: definition.address, label })
      : z.strictObject({ kind: z.literal(kind), label }),
);

/** A new contact method: its kind and the address it reaches. */
export const contactMethodBody = z.discriminatedUnion(
  'kind',
  variants as unknown as [(typeof variants)[number], ...(typeof variants)[number][]],
  {
    error: (issue) => (issue.code === 'invalid_union' ? `Choose a kind: ${kindNames}.` : undefined),
  },
);
export type ContactMethodBody = z.output<typeof contactMethodBody>;

export const verifyBody = z.strictObject({
  code: z
    .string()
    .regex(/^\d{6}$/, 'Enter the 6-digit code you received.')
    .meta({ description: 'The 6-digit code sent to the contact method' }),
});

/** Rules one person may keep; the longest delay a rule may have. */
const RULE_LIMITS = { rules: 20, maxAfterSeconds: 24 * 3600 } as const;

const ruleInput = z.strictObject({
  after_seconds: z
    .int('Enter whole seconds.')
    .min(0, 'Enter 0 (at once) or more seconds.')
    .max(RULE_LIMITS.maxAfterSeconds, `Enter at most ${RULE_LIMITS.maxAfterSeconds} seconds (a day).`)
    .meta({ description: 'Seconds after the page starts (0: at once)' }),
  contact_method_id: contactMethodIdSchema.meta({ description: 'One of your verified contact methods' }),
});

/** The person's whole rule list, replaced at once. */
export const rulesBody = z.strictObject({
  rules: z
    .array(ruleInput)
    .max(RULE_LIMITS.rules, `Keep at most ${RULE_LIMITS.rules} rules.`)
    .meta({ description: 'When to use which contact method; answered sorted by after_seconds' }),
});
export type RulesBody = z.output<typeof rulesBody>;
