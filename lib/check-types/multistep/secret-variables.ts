import { REDACTED } from '../../domain/redaction.ts';
import { ValidationError } from '../../platform/errors.ts';

/**
 * A multistep or browser check's secret variables are written only, as http header values and gRPC metadata
 * are: responses show `********`; an update that sends `********` back keeps the stored value as
 * long as the steps still go to the origins they went to (a stored secret is sent only where it
 * was given for).
 */

/** What a config with variables holds: the variables, and steps that may name a URL. */
interface WithVariables {
  variables?: Record<string, { value: string; secret?: boolean | undefined }> | undefined;
  steps: readonly { url?: string | undefined }[];
}

/** The config as shown: secret variables' values redacted. */
function presentSecretVariables<C extends WithVariables>(config: C): C {
  if (!config.variables) return config;
  const variables = Object.fromEntries(
    Object.entries(config.variables).map(([name, v]) => [name, v.secret ? { ...v, value: REDACTED } : v]),
  );
  return { ...config, variables };
}

/** The origins a config's steps go to ("https://api.example.com"), in order, deduplicated. */
function origins(steps: unknown): string[] {
  if (!Array.isArray(steps)) return [];
  const found = steps.map((s: unknown) => {
    const url = typeof s === 'object' && s !== null && 'url' in s ? String(s.url) : '';
    return /^https?:\/\/[^/?#]*/i.exec(url)?.[0]?.toLowerCase() ?? '';
  });
  return [...new Set(found)].sort();
}

/** An incoming config with each `********` secret value replaced by the stored one. */
function keepSecretVariables(
  incoming: Record<string, unknown>,
  stored: WithVariables | undefined,
): Record<string, unknown> {
  const variables = incoming.variables;
  if (variables === null || typeof variables !== 'object' || Array.isArray(variables)) return incoming;
  const moved = stored === undefined || origins(incoming.steps).join() !== origins(stored.steps).join();
  const kept = moved ? {} : (stored.variables ?? {});
  const keep = (name: string, given: Record<string, unknown>): Record<string, unknown> => {
    const old = Object.hasOwn(kept, name) ? kept[name] : undefined;
    if (old?.secret) return { ...given, value: old.value };
    throw ValidationError.field(
      `config.variables.${name}.value`,
      stored === undefined
        ? `${REDACTED} stands for a stored value and this check has none: give the value.`
        : moved
          ? `${REDACTED} cannot keep a stored value when the steps' origins change: stored secrets are sent only where they were given for; give the value again.`
          : `${REDACTED} stands for a stored secret and this variable has none: give the value.`,
    );
  };
  return {
    ...incoming,
    variables: Object.fromEntries(
      Object.entries(variables).map(([name, given]: [string, unknown]) => {
        const isObject = typeof given === 'object' && given !== null;
        const value = isObject && 'value' in given ? given.value : undefined;
        return [name, isObject && value === REDACTED ? keep(name, given as Record<string, unknown>) : given];
      }),
    ),
  };
}

/**
 * A check type's hooks for write-only secret variables (multistep, browser): shown as `********`,
 * kept by `********` on update, and hidden in every result (the definition's `secrets`).
 */
export const secretVariableHooks = {
  present: presentSecretVariables,
  keep: keepSecretVariables,
  secrets: (config: WithVariables): string[] =>
    Object.values(config.variables ?? {})
      .filter((v) => v.secret === true)
      .map((v) => v.value),
};
