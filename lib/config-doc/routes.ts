import { stringify as toYaml } from 'yaml';
import * as z from 'zod';
import { defineRoute } from '../http/define-route.ts';
import { errorResponse } from '../http/requests.ts';
import type { InvokeCaller } from '../http/router.ts';
import { type AuthedContext, ok, type Route } from '../http/types.ts';
import type { AppliedChange, ApplyResult, ConfigEngine } from './kind.ts';
import { documentSchema, type KindSet, MAX_DOCUMENT_BYTES } from './plan/document.ts';

const tag = 'Configuration';
const NDJSON = 'application/x-ndjson';
/** The schema changes only with a deployment; clients (editors, the CLI) may keep it a while. */
const SCHEMA_CACHE = 'public, max-age=300';

const pruneQuery = z.object({
  prune: z
    .enum(['true', 'false'])
    .optional()
    .meta({ description: "`true`: also delete the tenant's objects the document leaves out" }),
});

/** The request body of a plan or apply: the document, as the schema of GET /v1/config/schema.json states it. */
const documentBody = (kinds: KindSet) => ({
  contentType: 'application/json',
  schema: documentSchema(kinds).meta({
    description:
      'The configuration document (docs/config.md), as JSON, or as YAML with `Content-Type: application/yaml`',
  }),
});

const fieldChange = z.object({ path: z.string(), from: z.unknown(), to: z.unknown() });
const plannedChange = z.object({
  op: z.enum(['create', 'update', 'delete']),
  kind: z.string(),
  id: z.string().meta({ description: "The object's identity in the document" }),
  fields: z.array(fieldChange).optional(),
});
const planWarning = z.object({
  variable: z.string().meta({ description: 'The unset environment variable, NAME of ${NAME}' }),
  used_at: z
    .array(z.string())
    .meta({ description: 'Each object to create and its field: "check <id> <path>"' }),
  message: z.string(),
});
const planAnswer = z.object({
  changes: z.array(plannedChange),
  unmapped: z.array(z.string()),
  warnings: z.array(planWarning).meta({
    description: 'One per ${NAME} reference left unset in an object to create: apply refuses that object',
  }),
});
const appliedChange = plannedChange.extend({
  status: z.enum(['applied', 'failed']),
  error: z.string().optional(),
});
const summary = z.object({
  created: z.number(),
  updated: z.number(),
  deleted: z.number(),
  failed: z.number(),
  unchanged: z.number(),
});
const applyAnswer = z.object({
  changes: z.array(appliedChange),
  unmapped: z.array(z.string()),
  applied: z.boolean().meta({ description: 'Every change applied (none failed)' }),
  summary,
});
const progressLines = z.string().meta({
  description:
    'One JSON line per object as it lands (an applied change), then one line {applied, summary, ' +
    'unmapped}; a failure after the first line ends the stream with a line {error, code}',
});

const caller = (ctx: AuthedContext): InvokeCaller => ({ principal: ctx.principal, request: ctx });

/** The document of a plan or apply: YAML when the request says so, JSON otherwise (YAML parses JSON too). */
function documentOf(ctx: AuthedContext): string {
  return ctx.rawBody.toString('utf8');
}

const wants = (ctx: AuthedContext, type: string) => (ctx.headers.accept ?? '').includes(type);

/**
 * An apply whose answer streams one line per object. The answer starts at the first object (or
 * at the end of an apply that changed nothing), so a document that does not parse, or an apply
 * the rate limit refuses, still answers with its own status and nothing applied.
 */
async function streamedApply(engine: ConfigEngine, ctx: AuthedContext, prune: boolean): Promise<Response> {
  const encoder = new TextEncoder();
  const line = (value: unknown) => encoder.encode(`${JSON.stringify(value)}\n`);
  let push: ((change: AppliedChange) => void) | undefined;
  const early: AppliedChange[] = [];
  let started: () => void = () => undefined;
  const firstObject = new Promise<void>((resolve) => {
    started = resolve;
  });
  const onProgress = (change: AppliedChange) => {
    if (push) push(change);
    else early.push(change);
    started();
  };
  const applying = engine.apply(caller(ctx), documentOf(ctx), { prune, onProgress });
  await Promise.race([firstObject, applying]);
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      for (const change of early) controller.enqueue(line(change));
      push = (change) => controller.enqueue(line(change));
      try {
        const result: ApplyResult = await applying;
        controller.enqueue(
          line({ applied: result.applied, summary: result.summary, unmapped: result.unmapped }),
        );
      } catch (err) {
        const answer = errorResponse(err, ctx.logger);
        controller.enqueue(encoder.encode(`${answer.body}\n`));
      }
      controller.close();
    },
  });
  return new Response(stream, {
    status: 200,
    headers: { 'content-type': NDJSON, 'cache-control': 'no-store' },
  });
}

/** POST /v1/config/plan and /v1/config/apply, GET /v1/config/export and /v1/config/schema.json (docs/config.md). */
export function configRoutes(deps: { engine: ConfigEngine; kinds: KindSet }): Route[] {
  const { engine } = deps;
  let schemaText: string | undefined;
  return [
    defineRoute({
      method: 'POST',
      path: '/v1/config/plan',
      auth: 'key',
      // It writes nothing, so a read-only key may see what a document would change.
      readsOnly: true,
      // Both read every object of the tenant, as an export does: bounded per tenant in flight.
      expensive: true,
      body: 'raw',
      maxBodyBytes: MAX_DOCUMENT_BYTES,
      operationId: 'planConfig',
      tag,
      summary: 'The changes applying a configuration document would make, field by field; changes nothing',
      schemas: {
        query: pruneQuery,
        rawBody: documentBody(deps.kinds),
        responses: { 200: planAnswer },
        // The tenant holds what has no document form (two actions of one name, an action on a deleted check).
        errors: ['CONFLICT'],
      },
      handler: async (ctx) =>
        ok(await engine.plan(caller(ctx), documentOf(ctx), { prune: ctx.query.prune === 'true' })),
    }),
    defineRoute({
      method: 'POST',
      path: '/v1/config/apply',
      auth: 'key',
      role: 'admin',
      expensive: true,
      body: 'raw',
      maxBodyBytes: MAX_DOCUMENT_BYTES,
      operationId: 'applyConfig',
      tag,
      summary:
        'Applies a configuration document object by object (each object atomic), with a summary; ' +
        "it takes one token per changed object from the account's configuration bucket, up front " +
        '(429 with nothing applied when there are not enough)',
      schemas: {
        query: pruneQuery,
        rawBody: documentBody(deps.kinds),
        responses: {
          200: { contentType: 'application/json', schema: applyAnswer, also: { [NDJSON]: progressLines } },
        },
        errors: ['CONFLICT'],
      },
      handler: async (ctx) => {
        const prune = ctx.query.prune === 'true';
        if (wants(ctx, NDJSON)) return streamedApply(engine, ctx, prune);
        return ok(await engine.apply(caller(ctx), documentOf(ctx), { prune }));
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/config/export',
      auth: 'key',
      expensive: true,
      operationId: 'exportConfig',
      tag,
      summary:
        "The account's configuration as a document: YAML, or JSON with `Accept: application/json`; secrets as references to environment variables",
      schemas: {
        responses: {
          200: {
            contentType: 'application/yaml',
            schema: z.string(),
            also: { 'application/json': z.record(z.string(), z.unknown()) },
          },
        },
        errors: ['CONFLICT'],
      },
      handler: async (ctx) => {
        const document = await engine.exportDocument(caller(ctx));
        const json = wants(ctx, 'application/json');
        const body = json ? JSON.stringify(document) : toYaml(document, { aliasDuplicateObjects: false });
        const type = json ? 'application/json; charset=utf-8' : 'application/yaml; charset=utf-8';
        return new Response(body, {
          status: 200,
          headers: { 'content-type': type, 'cache-control': 'no-store' },
        });
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/config/schema.json',
      auth: 'none',
      operationId: 'getConfigSchema',
      tag,
      summary:
        "The JSON Schema (draft 2020-12) of the configuration document, generated from the API's own validators",
      schemas: { responses: { 200: z.record(z.string(), z.unknown()) } },
      handler: async () => {
        schemaText ??= JSON.stringify(
          z.toJSONSchema(documentSchema(deps.kinds), {
            io: 'input',
            target: 'draft-2020-12',
            unrepresentable: 'any',
          }),
        );
        return new Response(schemaText, {
          status: 200,
          headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': SCHEMA_CACHE },
        });
      },
    }),
  ];
}
