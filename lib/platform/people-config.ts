import * as z from 'zod';

/**
 * The sign-in settings (docs/auth.md "Sessions"), parsed with the rest of the environment by
 * config.ts (the only reader of process.env), kept here so that file stays small.
 */
export const peopleEnv = {
  VIGIL_SESSION_IDLE_HOURS: z.coerce
    .number()
    .min(0.1)
    .max(24 * 30)
    .default(12),
  VIGIL_SESSION_MAX_DAYS: z.coerce.number().min(0.1).max(365).default(30),
};

export interface PeopleSettings {
  /** A console session unused this long is signed out. */
  sessionIdleMs: number;
  /** A console session ends this long after sign-in, however much it is used. */
  sessionMaxMs: number;
}

export function peopleSettings(e: {
  VIGIL_SESSION_IDLE_HOURS: number;
  VIGIL_SESSION_MAX_DAYS: number;
}): PeopleSettings {
  return {
    sessionIdleMs: Math.round(e.VIGIL_SESSION_IDLE_HOURS * 3_600_000),
    sessionMaxMs: Math.round(e.VIGIL_SESSION_MAX_DAYS * 86_400_000),
  };
}
