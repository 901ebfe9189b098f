import type { CallToolResult } from '@modelcontextprotocol/server';
import type { ValidateFunction } from 'ajv';
import { publicExecution, RUN_VARS_LIMITS, TEMPLATE_VAR_NAME } from '../actions/api.ts';
import type { ActionRunner, ActionStore } from '../actions/stores.ts';
import type { McpToolAudit } from '../audit/mcp-audit.ts';
import type { Principal } from '../domain/principal.ts';
import type { Clock } from '../platform/clock.ts';
import { newId } from '../platform/ids.ts';
import type { Builtin } from '../platform/mcp-tool.ts';
import { asToolResult, toolError, toolResult } from '../platform/tool-answers.ts';
import { createInputSchemaCompiler } from '../skills/input-schema.ts';
import { argumentsProblem } from '../skills/schema-budget.ts';
import { FIND_TOOLS_ENTRY } from './builtins/find-tools.ts';
import type { McpTool, ToolCatalog } from './ports.ts';

/** The skill slug find_tools is listed under: it belongs to no registered skill. */
export const BUILTIN_SLUG = 'builtin';

/** Compiled inputSchemas kept at most: a tenant's tools rarely exceed a few hundred. */
const MAX_COMPILED = 1000;

export interface ToolCatalogDeps {
  /** The skills registry: the tools of a tenant's enabled skills, each with its skill's slug. */
  skills: { listEnabledTools(tenantId: string): Promise<McpTool[]> };
  builtins: Pick<ReadonlyMap<string, Builtin>, 'get' | 'has'>;
  actions: Pick<ActionStore, 'get'>;
  runner: ActionRunner;
  clock: Clock;
  /** Told of each call of a tool that is not read-only (the audit log, lib/audit/mcp-audit.ts). */
  audit?: McpToolAudit | undefined;
}

/**
 * A tool with the annotations of what runs it (DECISIONS.md "MCP"): a built-in's own, whatever the
 * manifest claims; a runbook tool (bound to an action) is never read-only, since it runs the
 * action; a tool with neither implementation keeps its manifest's (calling it changes nothing).
 */
function withEffectiveAnnotations(tool: McpTool, builtins: ToolCatalogDeps['builtins']): McpTool {
  const builtin = builtins.get(tool.name);
  const annotations = builtin?.annotations ?? tool.annotations;
  if (tool.action_id) return { ...tool, annotations: { ...annotations, readOnlyHint: false } };
  // A built-in's view (an app tool's ui.resourceUri) travels with it, as its annotations do.
  const meta = builtin?.meta ? { _meta: builtin.meta } : {};
  return annotations ? { ...tool, annotations, ...meta } : { ...tool, ...meta };
}

/** A caller may list and call a tool unless it is read-only and the tool's effective rule says it may change something. */
function usableBy(caller: Principal, tool: McpTool): boolean {
  return !caller.readOnly || tool.annotations?.readOnlyHint === true;
}

/** Template variables from tool arguments: strings as they are, anything else as JSON. */
function argsAsVars(
  args: Record<string, unknown>,
): { vars: Record<string, string> } | { problems: string[] } {
  const entries = Object.entries(args).map(
    ([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)] as const,
  );
  const problems = [
    ...(entries.length > RUN_VARS_LIMITS.count ? [`at most ${RUN_VARS_LIMITS.count} arguments`] : []),
    ...entries.flatMap(([k, v]) => [
      ...(TEMPLATE_VAR_NAME.test(k)
        ? []
        : [`${k}: not a template variable name (lowercase letters, digits, _)`]),
      ...(Buffer.byteLength(v, 'utf8') > RUN_VARS_LIMITS.valueBytes
        ? [`${k}: at most ${RUN_VARS_LIMITS.valueBytes} bytes`]
        : []),
    ]),
  ];
  return problems.length ? { problems } : { vars: Object.fromEntries(entries) };
}

/** The tool catalog (ToolCatalog in ports.ts): listing for a caller, argument validation and dispatch. */
export function createToolCatalog(deps: ToolCatalogDeps): ToolCatalog {
  // Keyed by the schema text: a skill update that changes a schema compiles anew, an unchanged one is reused.
  const compiled = new Map<string, ValidateFunction>();

  const validatorOf = (schema: Record<string, unknown>): ValidateFunction | undefined => {
    const key = JSON.stringify(schema);
    const cached = compiled.get(key);
    if (cached) return cached;
    // The registration's engine (RE2 patterns, the validation budget, defaults filled in). One
    // compiler per schema: ajv keeps nested $ids registered, so a shared one would make two tools'
    // schemas collide; the compile is cached, so this runs once per schema text. A schema stored
    // before a rule tightened may no longer compile: the call is then refused.
    let validate: ValidateFunction;
    try {
      validate = createInputSchemaCompiler('call')(schema);
    } catch {
      return undefined;
    }
    if (compiled.size >= MAX_COMPILED) compiled.delete(compiled.keys().next().value ?? '');
    compiled.set(key, validate);
    return validate;
  };

  // A tool the caller may not use is, for it, an unknown tool: hidden from tools/list and refused by
  // name. find_tools is listed whatever the skills: it says what else the tenant's skills offer.
  const list = async (caller: Principal): Promise<McpTool[]> => {
    const tools = (await deps.skills.listEnabledTools(caller.tenantId))
      .map((tool) => withEffectiveAnnotations(tool, deps.builtins))
      .filter((tool) => usableBy(caller, tool));
    if (!deps.builtins.has(FIND_TOOLS_ENTRY.name) || tools.some((t) => t.name === FIND_TOOLS_ENTRY.name))
      return tools;
    return [...tools, { ...FIND_TOOLS_ENTRY, skill_slug: BUILTIN_SLUG }];
  };

  const runAction = async (
    caller: Principal,
    tool: McpTool,
    actionId: string,
    args: Record<string, unknown>,
  ) => {
    // The action run rules of POST /v1/actions/{id}/run: writable keys only, the caller's tenant only.
    if (caller.readOnly) return toolError('READ_ONLY: read-only keys cannot run actions');
    const action = await deps.actions.get(caller.tenantId, actionId);
    if (!action) return toolError(`NOT_FOUND: action ${actionId} of tool ${tool.name} not found`);
    const converted = argsAsVars(args);
    if ('problems' in converted) return toolError(`invalid arguments for ${tool.name}`, converted.problems);
    const execution = publicExecution(
      await deps.runner.run({
        action,
        trigger: 'manual',
        executionId: newId('exe', deps.clock.now()),
        vars: converted.vars,
      }),
    );
    const outcome =
      execution.dispatch_status === 'success'
        ? `answered ${execution.status_code}`
        : `${execution.dispatch_status}${execution.error_message ? `: ${execution.error_message}` : ''}`;
    return toolResult(`Ran action "${action.name}": ${outcome}.`, execution);
  };

  /** The arguments as the tool runs them (defaults filled), or the tool error saying what is wrong. */
  const inputOf = (
    tool: McpTool,
    args: Record<string, unknown>,
  ): { input: Record<string, unknown> } | { refused: CallToolResult } => {
    const { name } = tool;
    const validate = validatorOf(tool.inputSchema);
    if (!validate) return { refused: toolError(`tool ${name} has an inputSchema that does not compile`) };
    // Bounded before validation, so no schema makes validating them slow (lib/skills/schema-budget.ts).
    const tooBig = argumentsProblem(args);
    if (tooBig) return { refused: toolError(`arguments of ${name} exceed a limit: ${tooBig}`, [tooBig]) };
    const input = structuredClone(args);
    if (!validate(input)) {
      const problems = (validate.errors ?? []).map(
        (e) => `${e.instancePath || '(arguments)'} ${e.message ?? 'is invalid'}`,
      );
      return { refused: toolError(`invalid arguments for ${name}: ${problems.join('; ')}`, problems) };
    }
    return { input };
  };

  return {
    list,

    async check(caller, name, args) {
      const tool = (await list(caller)).find((t) => t.name === name);
      if (!tool) return undefined;
      const checked = inputOf(tool, args);
      if ('refused' in checked) return checked.refused;
      // The objects the arguments name exist (issue 75): a confirmation is never asked for a call
      // that would fail with not-found.
      const references = deps.builtins.get(name)?.references;
      if (!references || tool.action_id !== undefined) return undefined;
      const found = await asToolResult(async () => {
        await references(caller, checked.input);
        return toolResult('found', {});
      });
      return found.isError ? found : undefined;
    },

    async call(caller, name, args, context = {}): Promise<CallToolResult | undefined> {
      const tool = (await list(caller)).find((t) => t.name === name);
      if (!tool) return undefined;
      const checked = inputOf(tool, args ?? {});
      if ('refused' in checked) return checked.refused;
      const { input } = checked;
      const builtin = deps.builtins.get(name);
      const actionId = tool.action_id;
      if (!builtin && !actionId) return toolError(`tool ${name} has no implementation`);
      const result = await asToolResult(() =>
        builtin ? builtin.run(caller, input) : runAction(caller, tool, actionId ?? '', input),
      );
      // Write tools (and runbooks) are recorded one by one; the MCP envelope's POST is not (lib/audit).
      if (deps.audit && tool.annotations?.readOnlyHint !== true)
        await deps.audit(caller, name, args ?? {}, result, context.sourceIp);
      return result;
    },
  };
}
