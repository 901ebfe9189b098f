import * as grpc from '@grpc/grpc-js';
import * as z from 'zod';
import { REDACTED } from '../domain/redacted.ts';
import { secretRedactor } from '../domain/secret-redaction.ts';
import { withDeadline } from '../platform/egress-deadline.ts';
import { resolveAllowed } from '../platform/egress-guard.ts';
import { withTrustWarning } from '../probes/check-trust.ts';
import { describeError, failed, passed, startTimer } from '../probes/outcome.ts';
import type { ProbeOutcome } from '../probes/types.ts';
import { defineCheckType } from './definition.ts';
import { checkHealth } from './grpc/health-client.ts';
import { keepMetadata, presentMetadata } from './grpc/metadata.ts';

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

const endpoint = (config: GrpcConfig) =>
  `${config.host.includes(':') ? `[${config.host}]` : config.host}:${config.port}`;
const serviceLabel = (service: string | undefined) => (service ? ` ${service}` : '');

/** gRPC health (grpc.health.v1 Health/Check): SERVING is up; any other answer or failure is down. */
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
  async probe(job, deps): Promise<ProbeOutcome> {
    const elapsed = startTimer();
    const secrets = Object.values(job.metadata ?? {});
    // A server's error text may echo the metadata it got: hidden before it is stored.
    const redact = secrets.length > 0 ? secretRedactor(secrets) : (text: string) => text;
    try {
      const status = await withDeadline(job.timeout_ms, async (signal) => {
        const guard = { allowPrivate: deps.allowPrivate, resolve: deps.resolve };
        const [target] = await resolveAllowed(job.host, guard);
        if (!target) throw new Error(`could not resolve host ${job.host}`);
        signal.throwIfAborted(); // the deadline may have passed during resolution
        return checkHealth({
          address: target.address,
          family: target.family,
          port: job.port,
          host: job.host,
          service: job.service ?? '',
          useTls: job.use_tls === true,
          trust: job.tls,
          runtimeCa: deps.tlsCa,
          metadata: job.metadata ?? {},
          deadlineMs: job.timeout_ms,
        });
      });
      const latency = elapsed();
      // Over TLS with skip_verify, every answer says the certificate was not verified.
      const trust = job.use_tls === true ? job.tls : undefined;
      if (status.status === 'SERVING')
        return withTrustWarning(passed(latency, 0, { grpc_status: 'SERVING' }), trust);
      const down = failed(`health status ${status.status}`, latency, 0, { grpc_status: status.status });
      return withTrustWarning(down, trust);
    } catch (err) {
      const latency = elapsed();
      const { message, status } = describeGrpcError(err, job.service ?? '', job.timeout_ms);
      return failed(redact(message), latency, 0, status ? { grpc_status: status } : undefined);
    }
  },
});

function isServiceError(err: unknown): err is grpc.ServiceError {
  return (
    err instanceof Error && typeof (err as Partial<grpc.ServiceError>).code === 'number' && 'details' in err
  );
}

/** A user's sentence for a failed call; `status` when the failure stands for a health status. */
function describeGrpcError(
  err: unknown,
  service: string,
  timeoutMs: number,
): { message: string; status?: string } {
  if (!isServiceError(err)) return { message: describeError(err) };
  const details = err.details.slice(0, 300);
  switch (err.code) {
    case grpc.status.NOT_FOUND:
      // The health service's answer for a service it does not know (health-checking.md).
      return {
        message: `health status SERVICE_UNKNOWN: the server does not know service "${service}"`,
        status: 'SERVICE_UNKNOWN',
      };
    case grpc.status.UNIMPLEMENTED:
      return { message: 'the server does not implement the gRPC health service (grpc.health.v1.Health)' };
    case grpc.status.DEADLINE_EXCEEDED:
      return { message: `timed out after ${timeoutMs} ms` };
    case grpc.status.UNAVAILABLE:
      if (/ECONNREFUSED/.test(details)) return { message: 'connection refused' };
      return { message: `could not connect: ${lastError(details)}` };
    default:
      return { message: `gRPC ${grpc.status[err.code] ?? err.code}: ${details}` };
  }
}

/**
 * The cause inside grpc-js's "No connection established. Last error: Error [CODE]: text. Resolution
 * note: …": the text alone ("self-signed certificate"), without Node's hints.
 */
function lastError(details: string): string {
  const last = /Last error: (?:\w*Error(?: \[\w+\])?: )?(.*)$/s.exec(details)?.[1] ?? details;
  const cut = (text: string, at: string) => text.split(at)[0] ?? text;
  return cut(cut(last, '; if the root CA'), ' Resolution note:').trim().replace(/\.$/, '');
}
