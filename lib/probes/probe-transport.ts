import type { HttpTransport } from '../egress/egress.ts';
import { http1Request } from '../egress/http1-client.ts';
import { undiciRequest } from '../egress/undici-client.ts';
import type { ProbeHttpClient } from './types.ts';

/**
 * The transport of http probes named by VIGIL_PROBE_HTTP_CLIENT, for the local runtime and its
 * probe threads only: the cloud worker probes with http1 and never imports this (its bundle would
 * carry undici).
 */
export function probeTransport(client: ProbeHttpClient): HttpTransport {
  return client === 'undici' ? undiciRequest : http1Request;
}
