import type { CompleteRequestParams, CompleteResult } from '@modelcontextprotocol/server';
import type { Principal } from '../../domain/principal.ts';
import { NotFoundError } from '../../platform/errors.ts';
import { RESOURCE_TEMPLATES } from '../resources/uris.ts';
import type { BuiltinDeps } from '../tool-kit/deps.ts';

/**
 * `completion/complete` (MCP "Completion"): suggestions for a prompt's argument or a resource
 * template's variable as the user types. What Vigil can suggest are the caller's own slugs: a
 * blueprint (`blueprint_slug` of a prompt, `{blueprint}` of the entity template) and an entity of
 * the blueprint already chosen (`entity_slug`, `{slug}` of the entity template, with the blueprint
 * in `context.arguments`), those starting with what was typed, sorted, at most 100 (`total` and
 * `hasMore` say how many matched). Anything else has no suggestions: an empty list, which the
 * official conformance suite expects even of a prompt the server does not have (a completion only
 * suggests: it refuses nothing, and tells no more than prompts/list does).
 */

export type CompletionDeps = Pick<BuiltinDeps, 'blueprints' | 'entities'>;

/** At most this many values in one answer (the spec's bound). */
const MAX_VALUES = 100;

type Suggest = 'blueprint' | 'entity';

/** What a prompt argument names, by its name (the built-in prompts' entity arguments). */
const PROMPT_ARGUMENTS: Record<string, Suggest> = { blueprint_slug: 'blueprint', entity_slug: 'entity' };
/** The entity template's variables, and the argument that holds the blueprint. */
const ENTITY_TEMPLATE = RESOURCE_TEMPLATES.find((t) => t.name === 'entity')?.uriTemplate;
const TEMPLATE_VARIABLES: Record<string, Suggest> = { blueprint: 'blueprint', slug: 'entity' };

const NO_COMPLETION: CompleteResult = { completion: { values: [], total: 0, hasMore: false } };

/** The answer for `values` that start with `typed`: sorted, at most MAX_VALUES, with the total. */
function answer(values: string[], typed: string): CompleteResult {
  const matching = values.filter((v) => v.startsWith(typed)).sort();
  return {
    completion: {
      values: matching.slice(0, MAX_VALUES),
      total: matching.length,
      hasMore: matching.length > MAX_VALUES,
    },
  };
}

async function suggestions(
  deps: CompletionDeps,
  caller: Principal,
  what: Suggest,
  typed: string,
  blueprint: string | undefined,
): Promise<CompleteResult> {
  if (what === 'blueprint')
    return answer(
      (await deps.blueprints.list(caller.tenantId)).map((b) => b.slug),
      typed,
    );
  if (blueprint === undefined) return NO_COMPLETION;
  try {
    return answer(
      (await deps.entities.list(caller.tenantId, blueprint)).map((e) => e.slug),
      typed,
    );
  } catch (error) {
    // A blueprint the tenant does not have has no entities to suggest.
    if (error instanceof NotFoundError) return NO_COMPLETION;
    throw error;
  }
}

/**
 * The completion of one request. `promptArgs(name)` is the argument names of the caller's prompt
 * `name` (undefined: the caller has no such prompt), so only a prompt the caller has completes.
 */
export async function complete(
  deps: CompletionDeps,
  caller: Principal,
  params: Pick<CompleteRequestParams, 'ref' | 'argument' | 'context'>,
  promptArgs: (name: string) => Promise<readonly string[] | undefined>,
): Promise<CompleteResult> {
  const { ref, argument } = params;
  const given = params.context?.arguments ?? {};
  if (ref.type === 'ref/prompt') {
    const names = await promptArgs(ref.name);
    const what = PROMPT_ARGUMENTS[argument.name];
    if (!names?.includes(argument.name) || what === undefined) return NO_COMPLETION;
    return suggestions(deps, caller, what, argument.value, given.blueprint_slug);
  }
  const what = TEMPLATE_VARIABLES[argument.name];
  if (ref.uri !== ENTITY_TEMPLATE || what === undefined) return NO_COMPLETION;
  return suggestions(deps, caller, what, argument.value, given.blueprint);
}
