import * as z from 'zod';
import { defineRoute } from '../http/define-route.ts';
import { type AuthedRoute, ok } from '../http/types.ts';
import { ValidationError } from '../platform/errors.ts';
import { ImportError } from './importer.ts';
import { TEXT_IMPORTERS } from './registry.ts';

/**
 * POST /v1/config/convert?source=kuma|gatus (docs/api.md "Configuration import"): another product's
 * configuration file, as uploaded in the console's Import, converted to a Vigil document and the
 * lines it could not map. It writes nothing: the console shows the document's plan next, and
 * applying it is a separate, admin-only call.
 */

/** An uploaded export (a Kuma backup holds every monitor's history of settings): Lambda's payload limit. */
export const CONVERT_MAX_BODY_BYTES = 6 * 1024 * 1024;

/**
 * `?source=`: one of the importers registered when the routes are made, so the OpenAPI document
 * states them; a registry without any (a build without importers) takes any string, and the
 * handler names the known ones.
 */
function convertQuery() {
  const sources = Object.keys(TEXT_IMPORTERS).sort();
  const description = 'The product the file comes from: `kuma` (a backup .json) or `gatus` (a config .yaml)';
  const [first, ...rest] = sources;
  const source =
    first === undefined
      ? z.string()
      : z.enum([first, ...rest], { error: () => `Unknown source; one of: ${sources.join(', ')}.` });
  return z.strictObject({ source: source.meta({ description }) });
}

const convertResponse = z.strictObject({
  document: z.record(z.string(), z.unknown()).meta({
    description: 'The Vigil configuration document (`apiVersion: vigil/v1`, `kind: Config`, the lists)',
  }),
  unmapped: z
    .array(z.string())
    .meta({ description: 'One line per thing of the file left out, naming it and why' }),
});

/** Converts `text` with the importer of `source`; an unknown source or an unreadable file is a 400 naming why. */
function convertText(source: string, text: string): z.output<typeof convertResponse> {
  const importer = Object.hasOwn(TEXT_IMPORTERS, source) ? TEXT_IMPORTERS[source] : undefined;
  if (!importer) {
    const known = Object.keys(TEXT_IMPORTERS).sort().join(', ') || 'none';
    throw ValidationError.field('source', `Unknown source "${source}"; one of: ${known}.`);
  }
  try {
    return importer.convert(text);
  } catch (err) {
    if (err instanceof ImportError) throw new ValidationError(`${source}: ${err.message}`);
    throw err;
  }
}

export function convertRoutes(): AuthedRoute[] {
  return [
    defineRoute({
      method: 'POST',
      path: '/v1/config/convert',
      auth: 'key',
      // Converting reads nothing of the tenant and writes nothing: read-only keys may convert.
      readsOnly: true,
      body: 'raw',
      maxBodyBytes: CONVERT_MAX_BODY_BYTES,
      operationId: 'convertConfig',
      tag: 'Configuration',
      summary:
        'Converts an Uptime Kuma backup or a Gatus configuration file to a Vigil configuration document, without writing anything',
      schemas: {
        query: convertQuery(),
        rawBody: {
          contentType: 'text/plain',
          schema: z.string().meta({ description: 'The file’s text, as uploaded' }),
        },
        responses: { 200: convertResponse },
        errors: ['PAYLOAD_TOO_LARGE'],
      },
      handler: async ({ query, rawBody }) => ok(convertText(query.source, rawBody.toString('utf8'))),
    }),
  ];
}
