import * as z from 'zod';

/** A command-line flag's whole number within [min, max], with messages that name the flag. */
export const integerFlag = (flag: string, min: number, max: number) =>
  z.coerce
    .number({ error: `${flag} must be a number` })
    .int(`${flag} must be a whole number`)
    .min(min, `${flag} must be at least ${min}`)
    .max(max, `${flag} must be at most ${max}`);
