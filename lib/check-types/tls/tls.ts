import * as z from 'zod';
import { defineCheckType, type ProbeJobOf } from '../contract/definition.ts';
import { hostSchema, portSchema, storedPortSchema } from '../contract/fields.ts';

const stored = z.object({
  host: z.string(),
  port: storedPortSchema.optional(),
  servername: z.string().optional(),
  expiry_threshold_days: z.number().int().optional(),
});
/**
 * tls: a TLS handshake with host:port; the certificate must be trusted (the system CAs, the
 * process's and the check's `tls.ca_pem`), unexpired and match `servername` (`tls.skip_verify`:
 * unexpired only); inside `expiry_threshold_days` (14 when absent) the check is degraded.
 */
export const tlsCheckType = defineCheckType('tls', {
  label: 'TLS certificate',
  input: z.strictObject({
    host: hostSchema,
    port: portSchema.optional(),
    servername: hostSchema.optional(),
    expiry_threshold_days: z.number().int().min(0).max(3650).optional(),
  }),
  stored,
  tls: true,
  defaultName: (config) => {
    const port = config.port ?? 443;
    return `TLS ${config.host}${port === 443 ? '' : `:${port}`}`;
  },
  targetLabel: (config) => `tls ${config.host}:${config.port ?? 443}`,
});

/** What a tls probe runs: the config with the common probe fields. */
export type TlsProbeJob = ProbeJobOf<'tls', typeof tlsCheckType>;
