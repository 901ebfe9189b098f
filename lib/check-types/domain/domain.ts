import { domainToASCII } from 'node:url';
import * as z from 'zod';
import { defineCheckType, type ProbeJobOf } from '../contract/definition.ts';

/**
 * RDAP servers rate-limit (a few queries a minute per client at some registries), and a
 * registration's expiry changes rarely: domain checks run at most hourly (docs/api.md).
 */
const DOMAIN_MIN_INTERVAL_SECONDS = 3600;

const input = z.strictObject({
  domain: z
    .string()
    .trim()
    .toLowerCase()
    .transform((name) => name.replace(/\.$/, ''))
    .pipe(
      z
        .string()
        .max(253, 'Enter a domain name of 253 characters or fewer.')
        .refine(
          (name) => /^[^\s./:@]+(\.[^\s./:@]+)+$/.test(name) && domainToASCII(name) !== '',
          'Enter a registered domain name such as example.com (no scheme, path or port).',
        ),
    )
    .meta({
      description: 'The registered domain whose expiry is watched (example.com, example.co.uk).',
      // ASCII labels without `--` (the document is stricter than the check: IDN and punycode pass it too).
      pattern: '^(?:[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*\\.)+[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*$',
      maxLength: 253,
    }),
  expiry_threshold_days: z
    .number()
    .int('Enter a whole number of days.')
    .min(1, 'Enter at least 1 day.')
    .max(365, 'Enter 365 days or fewer.')
    .optional()
    .meta({ description: 'Degraded when the registration expires within this many days; default 30.' }),
});

const stored = z.object({ domain: z.string(), expiry_threshold_days: z.number().int().optional() });

/** Domain expiry: the registration's expiration date from the registry's RDAP server (./domain-probe.ts). */
export const domainCheckType = defineCheckType('domain', {
  label: 'Domain expiry',
  input,
  stored,
  tls: false,
  // RDAP servers rate-limit; a registration's expiry date changes rarely.
  minIntervalSeconds: DOMAIN_MIN_INTERVAL_SECONDS,
  defaultName: (config) => `Domain ${config.domain}`,
  targetLabel: (config) => `domain ${config.domain}`,
});

/** What a domain probe runs: the config with the common probe fields. */
export type DomainProbeJob = ProbeJobOf<'domain', typeof domainCheckType>;
