import { request as httpRequest } from 'node:http';
import { EDGE_SECRET_HEADER, VIEWER_HOST_HEADER } from '../../../lib/lambda-http/edge-address.ts';
import {
  type ApiHarness,
  type ApiResponse,
  type LocalHarness,
  parseResponse,
} from '../../support/api-harness.ts';

/**
 * A request on a page's custom domain, on either runtime: locally its Host header (node:http
 * sends the one given, fetch the URL's own); in the cloud the viewer Host the CloudFront edge
 * hands the API, believed with the edge secret (VIGIL_EDGE_SECRET of the harness).
 */
export function requestOnDomain(
  api: ApiHarness,
  edgeSecret: string,
  domain: string,
  method: string,
  path: string,
  options: { headers?: Record<string, string>; rawBody?: string } = {},
): Promise<ApiResponse> {
  if (api.runtime === 'lambda')
    return api.request(method, path, {
      ...(options.rawBody !== undefined ? { rawBody: options.rawBody } : {}),
      headers: { [EDGE_SECRET_HEADER]: edgeSecret, [VIEWER_HOST_HEADER]: domain, ...options.headers },
    });
  const url = new URL(path, (api as LocalHarness).local.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { method, headers: { ...options.headers, host: `${domain}:${url.port}` } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const headers: Record<string, string> = {};
          for (const [name, value] of Object.entries(res.headers))
            if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
          resolve(parseResponse(res.statusCode ?? 0, headers, Buffer.concat(chunks).toString('utf8')));
        });
      },
    );
    req.on('error', reject);
    req.end(options.rawBody);
  });
}
