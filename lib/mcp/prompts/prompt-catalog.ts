import type { Prompt } from '@modelcontextprotocol/server';
import type { Principal } from '../../domain/principal.ts';
import type { PromptCatalog, ToolCatalog } from '../ports.ts';
import { BUILTIN_PROMPTS, type PromptDeps } from './builtin-prompts.ts';
import { type CompletionDeps, complete } from './completions.ts';
import { invalidPrompt, parsePromptArgs } from './prompt-args.ts';
import { RUNBOOK_PREFIX, runbookArguments, runbookInput, runbookText } from './runbook-prompts.ts';

/**
 * The prompts of a caller (PromptCatalog in ports.ts), scoped as its tools are: from the tools the
 * caller may list (its tenant's enabled skills, narrowed by the connection, a read-only key's
 * read-only ones), a built-in prompt when every tool it leads to is there and a runbook prompt per
 * runbook tool. Names are sorted; a prompt the caller does not have is unknown to it (-32602).
 */
export function createPromptCatalog(deps: {
  tools: Pick<ToolCatalog, 'list'>;
  reads: PromptDeps & CompletionDeps;
}): PromptCatalog {
  const available = async (caller: Principal) => {
    const tools = await deps.tools.list(caller);
    const names = new Set(tools.map((tool) => tool.name));
    return {
      builtins: BUILTIN_PROMPTS.filter((prompt) => prompt.tools.every((name) => names.has(name))),
      runbooks: tools.filter((tool) => tool.action_id !== undefined),
    };
  };

  return {
    async list(caller) {
      const { builtins, runbooks } = await available(caller);
      const prompts: Prompt[] = [
        ...builtins.map((p) => ({
          name: p.name,
          title: p.title,
          description: p.description,
          arguments: p.args.map(({ name, description, required }) => ({ name, description, required })),
        })),
        ...runbooks.map((tool) => ({
          name: `${RUNBOOK_PREFIX}${tool.name}`,
          title: `Runbook: ${tool.annotations?.title ?? tool.name}`,
          description: tool.description,
          arguments: runbookArguments(tool),
        })),
      ];
      return prompts.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    },

    async get(caller, name, args) {
      const { builtins, runbooks } = await available(caller);
      const builtin = builtins.find((p) => p.name === name);
      const runbook = runbooks.find((tool) => `${RUNBOOK_PREFIX}${tool.name}` === name);
      let text: string;
      let description: string;
      if (builtin) {
        text = await builtin.text(deps.reads, caller, parsePromptArgs(name, builtin.args, args));
        description = builtin.description;
      } else if (runbook) {
        text = runbookText(runbook, runbookInput(runbook, args));
        description = runbook.description;
      } else throw invalidPrompt(`unknown prompt: ${name}`);
      return { description, messages: [{ role: 'user', content: { type: 'text', text } }] };
    },

    async complete(caller, params) {
      return complete(deps.reads, caller, params, async (name) => {
        const { builtins, runbooks } = await available(caller);
        const builtin = builtins.find((p) => p.name === name);
        if (builtin) return builtin.args.map((arg) => arg.name);
        const runbook = runbooks.find((tool) => `${RUNBOOK_PREFIX}${tool.name}` === name);
        return runbook && runbookArguments(runbook).map((arg) => arg.name);
      });
    },

    over: (tools) => createPromptCatalog({ tools, reads: deps.reads }),
  };
}
