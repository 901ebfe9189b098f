import * as z from 'zod';

/**
 * The `config` of each check type, as one zod discriminated union by `check_type`: strict for
 * request bodies (`configSchemas`, `checkConfigSchema`), lenient for stored items
 * (`storedCheckConfigSchema`), so a check is parsed once at the API boundary, stored typed, and
 * read back typed without re-coercion deeper in.
 */

export const CHECK_TYPES = ['http', 'tcp', 'tls', 'dns', 'push'] as const;
export type CheckType = (typeof CHECK_TYPES)[number];
export const HTTP_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

export const DNS_RECORD_TYPES = ['A', 'AAAA', 'CNAME', 'MX', 'TXT', 'NS', 'SRV', 'CAA'] as const;

/** The longest interval of a probed check: one day. */
export const PULL_MAX_INTERVAL_SECONDS = 86_400;
/** The longest interval of a push check: 30 days (monthly jobs). */
export const PUSH_MAX_INTERVAL_SECONDS = 30 * 86_400;

const host = z.string().regex(/\S/, 'This field is required.').trim().min(1).max(253);
const port = z.number().int().min(1).max(65535);

/** The config each check type accepts on create and update (the Check responses show the same). */
export const configSchemas = {
  http: z.strictObject({}),
  tcp: z.strictObject({ host, port }),
  tls: z.strictObject({
    host,
    port: port.optional(),
    servername: host.optional(),
    expiry_threshold_days: z.number().int().min(0).max(3650).optional(),
  }),
  dns: z.strictObject({
    hostname: host,
    record_type: z.enum(DNS_RECORD_TYPES),
    expected_value: z.string().min(1).max(1024).optional(),
    nameserver: z.string().min(1).max(300).optional(),
  }),
  push: z.strictObject({
    grace_seconds: z
      .number()
      .int()
      .min(1)
      .max(2 * PUSH_MAX_INTERVAL_SECONDS)
      .optional()
      .meta({
        description:
          'The whole silence allowed after a result before the check fails (not added to the interval): at least interval_seconds; default interval_seconds x 2',
      }),
  }),
} as const;

/** A request's check type and config, checked together. */
export const checkConfigSchema = z.discriminatedUnion('check_type', [
  z.object({ check_type: z.literal('http'), config: configSchemas.http }),
  z.object({ check_type: z.literal('tcp'), config: configSchemas.tcp }),
  z.object({ check_type: z.literal('tls'), config: configSchemas.tls }),
  z.object({ check_type: z.literal('dns'), config: configSchemas.dns }),
  z.object({ check_type: z.literal('push'), config: configSchemas.push }),
]);

/** A port as stored: a number, or digits (read as the number they spell). */
const storedPort = z.union([
  port,
  z
    .string()
    .regex(/^\d{1,5}$/)
    .transform(Number)
    .pipe(port),
]);

/**
 * A stored check's type and config. Reads drop keys no type uses any more and accept a port
 * stored as digits; anything else that does not fit its type fails the read (a ZodError), so a
 * probe never runs on a guessed target.
 */
export const storedCheckConfigSchema = z.discriminatedUnion('check_type', [
  z.object({ check_type: z.literal('http'), config: z.object({}) }),
  z.object({ check_type: z.literal('tcp'), config: z.object({ host: z.string(), port: storedPort }) }),
  z.object({
    check_type: z.literal('tls'),
    config: z.object({
      host: z.string(),
      port: storedPort.optional(),
      servername: z.string().optional(),
      expiry_threshold_days: z.number().int().optional(),
    }),
  }),
  z.object({
    check_type: z.literal('dns'),
    config: z.object({
      hostname: z.string(),
      record_type: z.enum(DNS_RECORD_TYPES),
      expected_value: z.string().optional(),
      nameserver: z.string().optional(),
    }),
  }),
  z.object({
    check_type: z.literal('push'),
    config: z.object({ grace_seconds: z.number().int().optional() }),
  }),
]);

/** A check's type with its config, narrowed together by `check_type`. */
export type CheckConfig = z.output<typeof storedCheckConfigSchema>;

/** A push check's configured grace window (undefined: the default); other types have none. */
export function pushGraceSeconds(check: CheckConfig): number | undefined {
  return check.check_type === 'push' ? check.config.grace_seconds : undefined;
}

/**
 * Why a check's interval and grace do not fit together, or undefined. A push check's grace is the
 * whole silence allowed after a result (SPEC.md), so one shorter than the interval would fail the
 * check before its next report is due; pull checks run at most daily.
 */
export function scheduleProblem(
  check: CheckConfig & { interval_seconds: number },
): { path: string; message: string } | undefined {
  if (check.check_type !== 'push') {
    return check.interval_seconds > PULL_MAX_INTERVAL_SECONDS
      ? {
          path: 'interval_seconds',
          message: `Check at least once a day (${PULL_MAX_INTERVAL_SECONDS} seconds or less); only push checks may wait up to 30 days.`,
        }
      : undefined;
  }
  const grace = check.config.grace_seconds;
  if (grace === undefined || grace >= check.interval_seconds) return undefined;
  return {
    path: 'config.grace_seconds',
    message: `Enter ${check.interval_seconds} or more (the interval): the grace is the whole silence allowed after a report, so a shorter one would fail the check before its next report is due. Leave it empty for twice the interval.`,
  };
}
