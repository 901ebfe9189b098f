import type { IncomingHttpHeaders, RequestListener, ServerResponse } from 'node:http';

/** A request a test's receiver was sent: its method, path (query included), headers and body as text. */
export interface SeenRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * A test receiver's listener: it reads each request's body whole, records the request in `seen`
 * (oldest first), then lets `answer` reply to it.
 */
export function recordingListener(
  seen: SeenRequest[],
  answer: (request: SeenRequest, res: ServerResponse) => void,
): RequestListener {
  return (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const request = {
        method: req.method ?? '',
        path: req.url ?? '/',
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
      };
      seen.push(request);
      answer(request, res);
    });
  };
}
