import { z } from 'zod';

/**
 * The `config` of each check type, as one zod discriminated union by `check_type`: strict for
 * request bodies (`configSchemas`, `checkConfigSchema`), lenient for stored items
 * (`storedCheckConfigSchema`), so a check is parsed once at the API boundary, stored typed, and
 * read back typed without re-coercion deeper in.
 */

export const DNS_RECORD_TYPES = ['A', 'AAAA', 'CNAME', 'MX', 'TXT', 'NS', 'SRV', 'CAA'] as const;

const host = z.string().regex(/\S/, 'must not be blank').trim().min(1).max(253);
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
      .max(30 * 86400)
      .optional(),
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
