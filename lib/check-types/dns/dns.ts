import * as z from 'zod';
import { DNS_RECORD_TYPES, type DnsRecordType } from '../../probes/dns-answers.ts';
import { defineCheckType, type ProbeJobOf } from '../contract/definition.ts';
import { hostSchema } from '../contract/fields.ts';

export type { DnsRecordType };

const stored = z.object({
  hostname: z.string(),
  record_type: z.enum(DNS_RECORD_TYPES),
  expected_value: z.string().optional(),
  nameserver: z.string().optional(),
});
/**
 * dns: one record type resolves (at `nameserver`, "host", "host:port" or "[v6]:port", when given)
 * and, with `expected_value`, one answer matches it.
 */
export const dnsCheckType = defineCheckType('dns', {
  label: 'DNS',
  input: z.strictObject({
    hostname: hostSchema,
    record_type: z.enum(DNS_RECORD_TYPES),
    expected_value: z.string().min(1).max(1024).optional(),
    nameserver: z.string().min(1).max(300).optional(),
  }),
  stored,
  tls: false,
  defaultName: (config) => `DNS ${config.record_type} ${config.hostname}`,
  targetLabel: (config) => `dns ${config.record_type} ${config.hostname}`,
});

/** What a dns probe runs: the config with the common probe fields. */
export type DnsProbeJob = ProbeJobOf<'dns', typeof dnsCheckType>;
