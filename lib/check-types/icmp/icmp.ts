import * as z from 'zod';
import { defineCheckType, type ProbeJobOf } from '../contract/definition.ts';

const host = z
  .string()
  .trim()
  .min(1, 'Enter the host to ping: a name (router.lan) or an IP address.')
  .max(253, 'Enter a host name of 253 characters or fewer.')
  .meta({ description: 'The host to send echo requests to: a name or an IPv4 or IPv6 address.' });

const input = z.strictObject({
  host,
  count: z
    .number()
    .int('Enter a whole number of echo requests.')
    .min(1, 'Send at least 1 echo request.')
    .max(10, 'Send at most 10 echo requests per run.')
    .optional()
    .meta({ description: 'Echo requests sent per run, 0.2 s apart (1 to 10; default 3).' }),
  max_loss_percent: z
    .number()
    .int('Enter a whole percentage.')
    .min(0, 'Enter a percentage from 0 to 99.')
    .max(99, 'Enter a percentage from 0 to 99: losing every echo request is always down.')
    .optional()
    .meta({
      description:
        'Packet loss above this percentage is degraded; losing every echo request is down (0 to 99; default 0: any loss is degraded).',
    }),
  degraded_rtt_ms: z
    .number()
    .int('Enter a whole number of milliseconds.')
    .min(1, 'Enter at least 1 millisecond.')
    .max(60_000, 'Enter 60000 milliseconds or fewer.')
    .optional()
    .meta({ description: 'An average round trip slower than this (ms) is degraded; absent: never.' }),
});

const stored = z.object({
  host: z.string(),
  count: z.number().int().optional(),
  max_loss_percent: z.number().optional(),
  degraded_rtt_ms: z.number().optional(),
});

/**
 * ICMP echo ("ping"). Node has no ICMP sockets, so the probe (./icmp-probe.ts) runs the system's
 * iputils `ping` (./icmp/ping-command.ts says why that and not the npm package) on the address
 * the SSRF guard checked, never on the name, so a name cannot be resolved again to a private
 * address.
 */
export const icmpCheckType = defineCheckType('icmp', {
  label: 'Ping (ICMP)',
  input,
  stored,
  tls: false,
  unsupported: {
    cloud:
      'icmp checks need raw network access, which AWS Lambda does not give: run them on the local runtime.',
  },
  defaultName: (config) => `Ping ${config.host}`,
  targetLabel: (config) => `icmp ${config.host}`,
});

/** What an icmp probe runs: the config with the common probe fields. */
export type IcmpProbeJob = ProbeJobOf<'icmp', typeof icmpCheckType>;
