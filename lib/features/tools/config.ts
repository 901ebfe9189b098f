import { randomUUID } from 'node:crypto';
import type { ToolKitDeps } from '../../catalog/entities.ts';
import type { ConfigEngine, InvokeCaller } from '../../config-doc/kind.ts';
import { appliedLine, planText } from '../../config-doc/plan-text.ts';
import type { Principal } from '../../domain/principal.ts';
import { ForbiddenError, ValidationError } from '../../platform/errors.ts';
import { type BuiltinTool, writes } from '../../platform/mcp-tool.ts';
import { asToolResult, toolError, toolResult } from '../../platform/tool-answers.ts';

/**
 * plan_config and apply_config (docs/mcp.md, docs/config.md): an agent proposes a configuration
 * document, a person reads its plan, and an admin applies it. Both go through the configuration
 * engine, which calls the tenant's own routes as the caller: validation, limits and the audit log
 * apply to each object as they would over HTTP.
 */

/** Answered when the app was composed without the engine (it is made after the routes it calls). */
const NO_ENGINE = 'UNAVAILABLE: the configuration engine is not available here';

/** The document argument: YAML or JSON text, or the document itself (the engine parses either). */
function documentOf(args: Record<string, unknown>): unknown {
  const document = args.document;
  if (typeof document === 'string' ? document.trim() === '' : typeof document !== 'object' || !document)
    throw ValidationError.field(
      'document',
      'A configuration document (YAML or JSON text, or an object) is required.',
    );
  return document;
}

/**
 * The caller as the engine's in-process calls see it. An MCP call has no request of its own to
 * pass on: each object's write is recorded as the caller's (a key or an OAuth client), via the API.
 */
/** What plan_config and apply_config take, bound by the configuration's mount: the engine, made after the routes it calls (so read at each call). */
type ConfigToolDeps = ToolKitDeps & { config: () => ConfigEngine | undefined };

function callerOf(deps: ConfigToolDeps, principal: Principal): InvokeCaller {
  const requestId = randomUUID();
  return {
    principal,
    request: {
      headers: { 'user-agent': 'vigil-mcp' },
      requestId,
      sourceIp: undefined,
      logger: deps.logger.child({ request_id: requestId, tenant_id: principal.tenantId }),
    },
  };
}

/** The input both tools take (JSON Schema, as the catalog-ops manifest offers it). */
const configToolInput = {
  type: 'object',
  properties: {
    document: {
      anyOf: [{ type: 'string' }, { type: 'object' }],
      description:
        'The configuration document: YAML or JSON text, or the object (apiVersion: vigil/v1, kind: Config, then blueprints, entities, relations, channels, checks, routes, maintenance, status_pages, actions, skills)',
    },
    prune: {
      type: 'boolean',
      default: false,
      description: 'Also delete what the tenant has and the document does not',
    },
  },
  required: ['document'],
  additionalProperties: false,
} as const;

/** plan_config: the changes a document would make, field by field; changes nothing. */
export const planConfig: BuiltinTool<ConfigToolDeps> = {
  name: 'plan_config',
  offer: {
    toolset: 'config-ops',
    order: 10,
    version: '1.0.0',
    description:
      'The changes a configuration document would make (create, update field by field, delete with prune), as `vigil plan` shows them; changes nothing. References are by name: entity "<blueprint>/<slug>", check "<entity>:<name>", channel by name.',
    inputSchema: configToolInput,
  },
  annotations: {
    title: 'Plan configuration',
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  handler: (deps, caller, args) =>
    asToolResult(async () => {
      const engine = deps.config?.();
      if (!engine) return toolError(NO_ENGINE);
      const plan = await engine.plan(callerOf(deps, caller), documentOf(args), {
        prune: args.prune === true,
      });
      return toolResult(planText(plan), { ...plan });
    }),
};

/** apply_config: applies a document object by object (admins only), answering each object's outcome. */
export const applyConfig: BuiltinTool<ConfigToolDeps> = {
  name: 'apply_config',
  offer: {
    toolset: 'config-ops',
    order: 20,
    version: '1.0.0',
    description:
      'Applies a configuration document object by object (admins only; an OAuth client needs the admin scope) and answers each object’s outcome and a summary; a second apply of the same document changes nothing.',
    inputSchema: configToolInput,
  },
  annotations: writes('Apply configuration', { destructive: true, idempotent: true }),
  handler: (deps, caller, args) =>
    asToolResult(async () => {
      // POST /v1/config/apply's rule: an OAuth token has the admin role only with the admin scope.
      if (caller.role !== 'admin') throw new ForbiddenError('apply_config requires the admin role');
      const engine = deps.config?.();
      if (!engine) return toolError(NO_ENGINE);
      const result = await engine.apply(callerOf(deps, caller), documentOf(args), {
        prune: args.prune === true,
      });
      const s = result.summary;
      const lines = [
        ...result.changes.map(appliedLine),
        `Applied: ${s.created} created, ${s.updated} updated, ${s.deleted} deleted, ${s.failed} failed, ${s.unchanged} unchanged.`,
      ];
      return toolResult(lines.join('\n'), { ...result });
    }),
};
