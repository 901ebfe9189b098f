import { rootCertificates } from 'node:tls';
import type * as grpc from '@grpc/grpc-js';
import type { CheckTlsTrust } from '../contract/definition.ts';

/**
 * One grpc.health.v1 Health/Check call (https://github.com/grpc/grpc/blob/master/doc/health-checking.md)
 * with @grpc/grpc-js. The two messages are tiny (a string field 1, an enum field 1), so they are
 * encoded here rather than loaded from health.proto with @grpc/proto-loader: the cloud bundles its
 * functions with esbuild, where a .proto read from node_modules at run time would not be there.
 * The tests run this client against grpc-health-check's own server implementation.
 */

/** HealthCheckResponse.ServingStatus (health.proto). */
const SERVING_STATUSES = ['UNKNOWN', 'SERVING', 'NOT_SERVING', 'SERVICE_UNKNOWN'] as const;
type ServingStatus = (typeof SERVING_STATUSES)[number];

/** HealthCheckRequest { string service = 1; } */
function encodeRequest(request: { service: string }): Buffer {
  const text = Buffer.from(request.service, 'utf8');
  if (text.length === 0) return Buffer.alloc(0); // proto3: a default value is not written
  return Buffer.concat([Buffer.from([0x0a]), varint(text.length), text]);
}

function varint(n: number): Buffer {
  const bytes: number[] = [];
  let rest = n;
  while (rest > 0x7f) {
    bytes.push((rest & 0x7f) | 0x80);
    rest >>>= 7;
  }
  bytes.push(rest);
  return Buffer.from(bytes);
}

/** HealthCheckResponse { ServingStatus status = 1; }: the status, skipping fields a newer proto adds. */
function decodeResponse(bytes: Buffer): { status: ServingStatus | `status ${number}` } {
  let at = 0;
  let status = 0;
  const readVarint = (): number => {
    let value = 0;
    for (let shift = 0; shift < 35; shift += 7) {
      const byte = bytes[at++];
      if (byte === undefined) throw new Error('truncated health response');
      value += (byte & 0x7f) * 2 ** shift;
      if ((byte & 0x80) === 0) return value;
    }
    throw new Error('malformed health response');
  };
  while (at < bytes.length) {
    const key = readVarint();
    const wire = key & 7;
    if (wire === 0) {
      const value = readVarint();
      if (key >>> 3 === 1) status = value;
    } else if (wire === 2) at += readVarint();
    else if (wire === 1) at += 8;
    else if (wire === 5) at += 4;
    else throw new Error('malformed health response');
  }
  return { status: SERVING_STATUSES[status] ?? `status ${status}` };
}

const makeHealthClient = (grpc: GrpcJs) =>
  grpc.makeGenericClientConstructor(
    {
      Check: {
        path: '/grpc.health.v1.Health/Check',
        requestStream: false,
        responseStream: false,
        requestSerialize: encodeRequest,
        requestDeserialize: () => ({ service: '' }),
        responseSerialize: () => Buffer.alloc(0),
        responseDeserialize: decodeResponse,
      },
    },
    'Health',
  );

type GrpcJs = typeof grpc;
let loaded: Promise<{ grpc: GrpcJs; HealthClient: grpc.ServiceClientConstructor }> | undefined;

/**
 * @grpc/grpc-js, loaded at the first gRPC probe, not with this module: with protobufjs it is the
 * largest dependency a function could carry, and only a gRPC check needs it. The cloud leaves it
 * out of the bundle (infra/node-function.ts `lazyModules`), so this import is its only way in; a
 * static `import` of it anywhere would be hoisted to the bundle's start and load it at once.
 */
function load() {
  loaded ??= import('@grpc/grpc-js').then((grpc) => ({ grpc, HealthClient: makeHealthClient(grpc) }));
  return loaded;
}

/** grpc-js's status codes (by number and by name), for the probe's messages. */
export async function grpcStatus(): Promise<typeof grpc.status> {
  return (await load()).grpc.status;
}

export interface HealthCall {
  /** The address the SSRF guard checked (never the name: no second resolution). */
  address: string;
  family: 4 | 6;
  port: number;
  /** The configured host: the authority, and the name the certificate must match. */
  host: string;
  service: string;
  useTls: boolean;
  trust: CheckTlsTrust | undefined;
  /** Extra CAs of the runtime (VIGIL_EXTRA_CA). */
  runtimeCa: string[] | undefined;
  metadata: Record<string, string>;
  deadlineMs: number;
}

/** The answered status, or a grpc ServiceError (code, details) when the call failed. */
export async function checkHealth(call: HealthCall): Promise<{ status: string }> {
  const { grpc, HealthClient } = await load();
  const target =
    call.family === 6 ? `ipv6:[${call.address}]:${call.port}` : `ipv4:${call.address}:${call.port}`;
  const options: grpc.ChannelOptions = {
    // The checked address is the only destination: no proxy from the environment, no retries.
    'grpc.enable_http_proxy': 0,
    'grpc.enable_retries': 0,
    'grpc.default_authority': `${call.host}:${call.port}`,
    'grpc.max_receive_message_length': 64 * 1024,
    ...(call.useTls ? { 'grpc.ssl_target_name_override': call.host } : {}),
  };
  const client = new HealthClient(target, credentialsOf(grpc, call), options);
  const metadata = new grpc.Metadata();
  for (const [key, value] of Object.entries(call.metadata)) metadata.set(key, value);
  return new Promise((resolve, reject) => {
    client.makeUnaryRequest(
      '/grpc.health.v1.Health/Check',
      encodeRequest,
      decodeResponse,
      { service: call.service },
      metadata,
      { deadline: Date.now() + call.deadlineMs },
      (err: grpc.ServiceError | null, response?: { status: string }) => {
        client.close();
        if (err || !response) reject(err ?? new Error('empty health response'));
        else resolve(response);
      },
    );
  });
}

function credentialsOf(grpc: GrpcJs, call: HealthCall): grpc.ChannelCredentials {
  if (!call.useTls) return grpc.credentials.createInsecure();
  const extra = [...(call.runtimeCa ?? []), ...(call.trust?.ca_pem ? [call.trust.ca_pem] : [])];
  const roots = extra.length > 0 ? Buffer.from([...rootCertificates, ...extra].join('\n')) : null;
  if (call.trust?.skip_verify === true) {
    return grpc.credentials.createSsl(roots, null, null, {
      rejectUnauthorized: false,
      checkServerIdentity: () => undefined,
    });
  }
  return grpc.credentials.createSsl(roots);
}
