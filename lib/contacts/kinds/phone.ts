import * as z from 'zod';

/** A phone number as SMS and calls take it. */
export const phoneAddress = z
  .string()
  .regex(/^\+[1-9]\d{6,14}$/, 'Enter a phone number in E.164 form: + and country code, such as +14155550100.')
  .meta({ description: 'A phone number in E.164 form, such as +14155550100' });
