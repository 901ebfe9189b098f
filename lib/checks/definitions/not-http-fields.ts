import * as z from 'zod';
import type { CheckType } from '../../check-types/check-config.ts';
import { DEFAULTS } from './check-defaults.ts';

/** The http fields in the create body of another check type (lib/checks/check-input.ts). */

/** A field only http checks use: other types may leave it out or send its default. */
const httpOnly = <T extends z.ZodType>(value: T, type: CheckType, what: string) =>
  value.optional().meta({ description: `Only http checks ${what}; ${type} checks leave it out` });

/** The http fields as a `type` check's create body may carry them: absent, or their defaults. */
export const notHttp = (type: CheckType) => ({
  target_url: httpOnly(z.null({ error: `not used by ${type} checks` }), type, 'have a target URL'),
  method: httpOnly(z.literal('GET', { error: 'only http checks have a method' }), type, 'have a method'),
  headers: httpOnly(z.strictObject({}, { error: 'only http checks send headers' }), type, 'send headers'),
  body: httpOnly(z.null({ error: 'only http checks send a body' }), type, 'send a body'),
  expected_status: httpOnly(
    z.literal(DEFAULTS.expected_status, { error: 'only http checks expect a status' }),
    type,
    'expect a status',
  ),
  expected_statuses: httpOnly(z.null({ error: 'only http checks expect a status' }), type, 'expect statuses'),
  body_contains: httpOnly(z.literal('', { error: 'only http checks read a body' }), type, 'read a body'),
  assertions: httpOnly(z.array(z.never()).max(0, { error: 'only http checks assert' }), type, 'assert'),
  execution_mode: z.literal('pull', { error: `${type} checks use execution_mode "pull"` }).optional(),
});
