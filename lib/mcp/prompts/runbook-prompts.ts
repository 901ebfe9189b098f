import type { PromptArgument } from '@modelcontextprotocol/server';
import { createInputSchemaCompiler } from '../../skills/input-schema.ts';
import { argumentsProblem } from '../../skills/schema-budget.ts';
import type { McpTool } from '../ports.ts';
import { fencedData, invalidPrompt } from './prompt-args.ts';

/**
 * A runbook's prompt: each runbook tool (a tool of a registered skill bound to an action, as its
 * manifest says) is also a prompt, `runbook_<tool name>`, whose arguments are the tool's top-level
 * inputSchema properties. MCP passes them as strings: each is read as its property's JSON type
 * (integer, number, boolean, object or array from JSON text) and the whole checked against the
 * tool's own inputSchema, as tools/call checks it, before the prompt is made.
 */

export const RUNBOOK_PREFIX = 'runbook_';

type Properties = Record<string, { type?: unknown; description?: unknown }>;

const propertiesOf = (tool: McpTool): Properties => {
  const properties = tool.inputSchema.properties;
  return typeof properties === 'object' && properties !== null ? (properties as Properties) : {};
};

const requiredOf = (tool: McpTool): string[] =>
  Array.isArray(tool.inputSchema.required)
    ? tool.inputSchema.required.filter((name): name is string => typeof name === 'string')
    : [];

/** The prompt's arguments: the tool's properties, required as its schema says. */
export function runbookArguments(tool: McpTool): PromptArgument[] {
  const required = new Set(requiredOf(tool));
  return Object.entries(propertiesOf(tool)).map(([name, property]) => ({
    name,
    ...(typeof property.description === 'string' ? { description: property.description } : {}),
    required: required.has(name),
  }));
}

/** A string argument as its property's type says; text that does not parse stays text (the schema then refuses it). */
function typed(value: string, type: unknown): unknown {
  if (type === 'string' || type === undefined) return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

/** The arguments as the tool takes them, checked against its inputSchema; -32602 naming what is wrong. */
export function runbookInput(tool: McpTool, given: Record<string, string>): Record<string, unknown> {
  const properties = propertiesOf(tool);
  const input = Object.fromEntries(
    Object.entries(given).map(([name, value]) => [name, typed(value, properties[name]?.type)]),
  );
  const tooBig = argumentsProblem(input);
  if (tooBig) throw invalidPrompt(`arguments of ${RUNBOOK_PREFIX}${tool.name} exceed a limit: ${tooBig}`);
  let validate: ReturnType<ReturnType<typeof createInputSchemaCompiler>>;
  try {
    validate = createInputSchemaCompiler('call')(tool.inputSchema);
  } catch {
    throw invalidPrompt(`tool ${tool.name} has an inputSchema that does not compile`);
  }
  if (!validate(input)) {
    const problems = (validate.errors ?? []).map(
      (e) => `${e.instancePath || '(arguments)'} ${e.message ?? 'is invalid'}`,
    );
    throw invalidPrompt(`invalid arguments for ${RUNBOOK_PREFIX}${tool.name}: ${problems.join('; ')}`);
  }
  return input;
}

/** The opening message: run the runbook with these arguments, once confirmed, and follow its run. */
export function runbookText(tool: McpTool, input: Record<string, unknown>): string {
  return [
    `Run the runbook ${tool.name} of the skill ${tool.skill_slug}, described below.`,
    fencedData('Its description', tool.description),
    `Call the tool ${tool.name} with the arguments below, exactly as they are.`,
    fencedData('The arguments (JSON)', JSON.stringify(input)),
    'It runs an action of this account: say what it will do and call it only after I confirm.',
    'Then report its outcome; if you have get_action_run, follow the run (the execution id is in the answer) until its pipeline finishes.',
  ].join('\n');
}
