import { type IncomingHttpHeaders, type RequestOptions, request } from 'node:http';

/** An answer read whole: its status, headers and body as text. */
export interface Raw {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * One request on a connection of its own (no agent), `body` sent as given; the path goes out byte
 * for byte (fetch would resolve `..` before sending).
 */
export function rawRequest(options: RequestOptions, body?: Buffer | string): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request({ ...options, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString(),
        }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}
