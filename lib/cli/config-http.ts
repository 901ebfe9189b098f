import pkg from '../../package.json' with { type: 'json' };

/**
 * The HTTP side of `vigil export|plan|apply` (lib/cli/config-cli.ts): calls of a Vigil server's
 * configuration routes with the caller's key, bounded in time, and the server's refusals in words.
 */

/** The server the commands talk to and the key they send. */
export interface Server {
  url: string;
  key: string;
  /** The whole call's bound, answer included (an apply of many objects takes long). */
  timeoutMs: number;
}

/** A call the server refused or that did not complete: its message is printed as is. */
export class ServerError extends Error {
  override name = 'ServerError';
}

/** The CLI's user agent: the audit log records the writes it causes as `via: cli` (lib/audit/audit-sink.ts). */
const CLI_USER_AGENT_VALUE = `vigil-cli/${pkg.version} (node ${process.version}; ${process.platform}-${process.arch})`;

/** The server's error envelope in words: its message, and each invalid field on a line of its own. */
function errorOf(status: number, text: string): string {
  try {
    const body = JSON.parse(text) as { error?: unknown; details?: { path?: string; message?: string }[] };
    if (typeof body.error === 'string') {
      const details = (body.details ?? []).map((d) => `\n  ${d.path}: ${d.message}`).join('');
      return `${body.error}${details}`;
    }
  } catch {
    // Not the API's JSON envelope (a proxy's page): its first line says enough.
  }
  return text.split('\n')[0]?.slice(0, 200) || `the server answered ${status}`;
}

/** A refusal as the user should read it: what to check for 401 and 403, when to retry for 429. */
async function refusal(res: Response): Promise<ServerError> {
  const message = errorOf(res.status, await res.text());
  if (res.status === 401)
    return new ServerError(`the server refused the key (401: ${message}); check --key or VIGIL_API_KEY`);
  if (res.status === 403) return new ServerError(`not allowed (403): ${message}`);
  if (res.status === 429) {
    const after = res.headers.get('retry-after');
    const when = after ? `; retry after ${after} s` : '';
    return new ServerError(`rate limited (429): ${message}${when}`);
  }
  return new ServerError(`the server answered ${res.status}: ${message}`);
}

/**
 * Sends one request and answers the response once its status is a success; a refusal, a timeout
 * or an unreachable server throws ServerError. The body is left to the caller (an apply streams).
 */
export async function call(
  server: Server,
  method: 'GET' | 'POST',
  path: string,
  options: { accept: string; body?: string; contentType?: string; signal?: AbortSignal } = { accept: '' },
): Promise<Response> {
  const url = new URL(path, server.url.endsWith('/') ? server.url : `${server.url}/`);
  let res: Response;
  try {
    res = await fetch(url, {
      method,
      headers: {
        authorization: `Bearer ${server.key}`,
        'user-agent': CLI_USER_AGENT_VALUE,
        accept: options.accept,
        ...(options.contentType ? { 'content-type': options.contentType } : {}),
      },
      ...(options.body !== undefined ? { body: options.body } : {}),
      signal: options.signal ?? AbortSignal.timeout(server.timeoutMs),
    });
  } catch (err) {
    throw new ServerError(`${url.origin} did not answer: ${reasonOf(err)}`);
  }
  if (!res.ok) throw await refusal(res);
  return res;
}

/** Why a fetch failed, in words (a timeout, a refused connection). */
function reasonOf(err: unknown): string {
  if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError'))
    return 'no answer in time';
  const cause =
    err instanceof Error ? (err.cause as { code?: string; message?: string } | undefined) : undefined;
  return cause?.code ?? cause?.message ?? (err instanceof Error ? err.message : String(err));
}

/** The answer's lines as they arrive (NDJSON), each parsed; a line that is not JSON throws ServerError. */
export async function* jsonLines(res: Response): AsyncGenerator<Record<string, unknown>> {
  if (!res.body) return;
  const decoder = new TextDecoder();
  let pending = '';
  const parse = (line: string) => {
    try {
      return JSON.parse(line) as Record<string, unknown>;
    } catch {
      throw new ServerError(`the server sent a line that is not JSON: ${line.slice(0, 200)}`);
    }
  };
  try {
    for await (const chunk of res.body) {
      pending += decoder.decode(chunk, { stream: true });
      let end = pending.indexOf('\n');
      while (end >= 0) {
        const line = pending.slice(0, end).trim();
        pending = pending.slice(end + 1);
        if (line) yield parse(line);
        end = pending.indexOf('\n');
      }
    }
  } catch (err) {
    if (err instanceof ServerError) throw err;
    throw new ServerError(`the answer broke off: ${reasonOf(err)}`);
  }
  const last = (pending + decoder.decode()).trim();
  if (last) yield parse(last);
}
