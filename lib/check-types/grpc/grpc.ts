import * as z from 'zod';
import { REDACTED } from '../../domain/redaction.ts';
import { type ConfiguredProbeJob, defineCheckType } from '../contract/definition.ts';
import { keepMetadata, presentMetadata } from './metadata.ts';

/** gRPC metadata keys: lowercase ASCII (no `-bin` binary values), none of the protocol's own. */
const metadataKey = z
  .string()
  .regex(
    /^[0-9a-z_.-]{1,100}$/,
    'Metadata keys are lowercase letters, digits, "-", "_" and ".", 100 characters at most.',
  )
  .refine((key) => !key.endsWith('-bin'), 'Binary metadata (keys ending in -bin) is not supported.')
  .refine(
    (key) => !key.startsWith('grpc-') && !['te', 'content-type', 'user-agent'].includes(key),
    'This key is reserved by gRPC itself: choose another one.',
  );
const metadataValue = z
  .string()
  .regex(/^[\x20-\x7e]{0,4096}$/, 'Metadata values are printable ASCII, 4096 characters at most.');

const input = z.strictObject({
  host: z
    .string()
    .trim()
    .min(1, 'Enter the host of the gRPC server: a name (api.example.com) or an IP address.')
    .max(253, 'Enter a host name of 253 characters or fewer.')
    .meta({ description: 'The gRPC server: a name or an IP address.' }),
  port: z
    .number()
    .int('Enter a whole port number.')
    .min(1, 'Enter a port from 1 to 65535.')
    .max(65535, 'Enter a port from 1 to 65535.')
    .meta({ description: 'The gRPC server port.' }),
  service: z.string().max(200, 'Enter a service name of 200 characters or fewer.').optional().meta({
    description: 'The service asked about (e.g. "my.package.Orders"); "" or absent: the server as a whole.',
  }),
  use_tls: z.boolean().optional().meta({
    description:
      'Connect with TLS (trusted per check by the check-level `tls` field) instead of plaintext; default false.',
  }),
  metadata: z
    .record(metadataKey, metadataValue)
    .refine((m) => Object.keys(m).length <= 20, 'Send at most 20 metadata entries.')
    .optional()
    .meta({
      description: `Metadata sent with each call (e.g. an authorization token): write-only, always shown as ${REDACTED}.`,
    }),
});

const stored = z.object({
  host: z.string(),
  port: z.number().int(),
  service: z.string().optional(),
  use_tls: z.boolean().optional(),
  metadata: z.record(z.string(), z.string()).optional(),
});

/** The config as the Check responses show it: metadata values always read `********`. */
const view = input.extend({
  metadata: z
    .record(z.string(), z.literal(REDACTED))
    .optional()
    .meta({
      description: `Metadata keys sent with each call; values are written-only and read ${REDACTED}.`,
    }),
});

export type GrpcConfig = z.output<typeof input>;
/** What a grpc probe runs: the config with the common probe fields. */
export type GrpcProbeJob = ConfiguredProbeJob<'grpc', GrpcConfig>;

const endpoint = (config: GrpcConfig) =>
  `${config.host.includes(':') ? `[${config.host}]` : config.host}:${config.port}`;
const serviceLabel = (service: string | undefined) => (service ? ` ${service}` : '');

/**
 * gRPC health (grpc.health.v1 Health/Check): SERVING is up; any other answer or failure is down
 * (./grpc-probe.ts, which loads @grpc/grpc-js only when it runs).
 */
export const grpcCheckType = defineCheckType('grpc', {
  label: 'gRPC health',
  input,
  stored,
  tls: true,
  view,
  present: (config) => presentMetadata(config),
  keep: (incoming, stored) => keepMetadata(incoming, stored),
  secrets: (config) => Object.values(config.metadata ?? {}),
  defaultName: (config) => `gRPC ${endpoint(config)}${serviceLabel(config.service)}`,
  targetLabel: (config) => `grpc ${endpoint(config)}${serviceLabel(config.service)}`,
});
