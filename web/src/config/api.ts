import { ApiError, credentialHeaders, toApiError } from '../api/client';
import type { operations } from '../api/schema';

/**
 * The configuration routes as the console's Export and Import call them (docs/config.md). They
 * answer YAML or take raw text, which the typed client does not carry, so they go through fetch
 * with the console's credential, and their answers take the generated OpenAPI types.
 */

/** A route's JSON answer as the generated OpenAPI types state it (npm run api:types). */
type JsonAnswer<O extends 'planConfig' | 'applyConfig'> =
  operations[O]['responses'][200]['content']['application/json'];

export type Plan = JsonAnswer<'planConfig'>;
export type PlannedChange = Plan['changes'][number];
export type ApplyResult = JsonAnswer<'applyConfig'>;

/** A file chosen for Import, ready to plan: the document's text and its media type. */
export interface ImportedDocument {
  text: string;
  contentType: 'application/json' | 'application/yaml';
  /** What the converter could not map, one line each (empty for a Vigil document). */
  unmapped: string[];
  /** Where it came from, in words: "a Vigil document", "an Uptime Kuma backup". */
  origin: string;
}

async function send(
  method: string,
  path: string,
  init: { body?: string; headers?: Record<string, string> } = {},
) {
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      credentials: 'same-origin',
      ...(init.body !== undefined ? { body: init.body } : {}),
      headers: { ...credentialHeaders(method), ...init.headers },
    });
  } catch {
    throw new ApiError(0, 'NETWORK', 'The server could not be reached. Check your connection and try again.');
  }
  if (!res.ok) {
    const body = await res.json().catch(() => undefined);
    throw toApiError(res.status, body, res.headers);
  }
  return res;
}

/** The tenant's configuration as YAML (secrets as `${ENV}` references). */
export async function exportYaml(): Promise<string> {
  return (await send('GET', '/v1/config/export', { headers: { Accept: 'application/yaml' } })).text();
}

/** Whether `text` is a Vigil document (YAML or JSON) rather than another product's file. */
function isVigilDocument(text: string): boolean {
  return /^\s*["']?apiVersion["']?\s*:\s*["']?vigil\/v1/m.test(text);
}

/**
 * Reads a chosen file: a Vigil document as it is; otherwise a Kuma backup (JSON) or a Gatus
 * configuration (YAML), converted by the server (POST /v1/config/convert).
 */
export async function importFile(name: string, text: string): Promise<ImportedDocument> {
  const json = name.toLowerCase().endsWith('.json') || text.trimStart().startsWith('{');
  if (isVigilDocument(text))
    return {
      text,
      contentType: json ? 'application/json' : 'application/yaml',
      unmapped: [],
      origin: 'a Vigil document',
    };
  const source = json ? 'kuma' : 'gatus';
  const res = await send('POST', `/v1/config/convert?source=${source}`, {
    body: text,
    headers: { 'Content-Type': 'text/plain' },
  });
  const converted = (await res.json()) as { document: Record<string, unknown>; unmapped: string[] };
  return {
    text: JSON.stringify(converted.document),
    contentType: 'application/json',
    unmapped: converted.unmapped,
    origin: json ? 'an Uptime Kuma backup' : 'a Gatus configuration',
  };
}

const pruneQuery = (prune: boolean) => (prune ? '?prune=true' : '');

export async function planDocument(doc: ImportedDocument, prune: boolean): Promise<Plan> {
  const res = await send('POST', `/v1/config/plan${pruneQuery(prune)}`, {
    body: doc.text,
    headers: { 'Content-Type': doc.contentType, Accept: 'application/json' },
  });
  return (await res.json()) as Plan;
}

export async function applyDocument(doc: ImportedDocument, prune: boolean): Promise<ApplyResult> {
  const res = await send('POST', `/v1/config/apply${pruneQuery(prune)}`, {
    body: doc.text,
    headers: { 'Content-Type': doc.contentType, Accept: 'application/json' },
  });
  return (await res.json()) as ApplyResult;
}
