import type { RE2JS } from 're2js';
import * as z from 'zod';
import { compileWith } from '../../domain/assertions.ts';
import { SLUG } from '../../domain/formats.ts';
import { patternEngine } from '../../probes/pattern-engine.ts';

/**
 * Which catalog entity an outside alert is about (DECISIONS.md "Outside alerts (wave 6)"): an
 * integration's rules, in order, each a `match` on the alert's labels and the entity it names
 * (`blueprint/slug`, where `{{labels.x}}` is the label's value, lower-cased as slugs are). The
 * first rule whose every matcher holds names the entity; a matcher `"/re/"` is an RE2 expression
 * that must match the whole value (as Alertmanager's `=~` does), any other value the value itself.
 * A rule only names: nothing is created from an alert's text, and an entity that does not exist
 * sends the alert to the integration's own entity (the service says so in `unmatched`).
 */

/** Rules one integration may hold. */
const MAX_ENTITY_RULES = 50;

const PLACEHOLDER = /\{\{\s*labels\.([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;
const LABEL_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * An entity template: `blueprint/slug`, each part a slug once its placeholders are filled with
 * slug-safe text (a placeholder counts as one character). A pattern, so the API document states it.
 */
const TOKEN = String.raw`(?:[a-z0-9]|\{\{\s*labels\.[A-Za-z_][A-Za-z0-9_]*\s*\}\})`;
const PART = `${TOKEN}(?:-|${TOKEN}){0,62}`;
const TEMPLATE = new RegExp(`^${PART}/${PART}$`);

const entityTemplateSchema = z.string().max(300).regex(TEMPLATE, {
  error:
    'Name the entity as blueprint/slug; {{labels.name}} puts a label in, e.g. service/{{labels.service}}.',
});

const matcherSchema = z
  .string()
  .max(256)
  .superRefine((value, ctx) => {
    const pattern = regexOf(value);
    if (pattern === undefined) return;
    const compiled = compileWith(patternEngine(), pattern);
    if (typeof compiled === 'string') ctx.addIssue({ code: 'custom', message: compiled });
  });

const entityRuleSchema = z.strictObject({
  match: z
    .record(z.string().regex(LABEL_NAME, 'A label name: letters, digits and underscores.'), matcherSchema)
    .refine((m) => Object.keys(m).length <= 20, 'At most 20 matchers a rule.')
    .default({}),
  entity: entityTemplateSchema,
});
export type EntityRule = z.output<typeof entityRuleSchema>;

export const entityRulesSchema = z.array(entityRuleSchema).max(MAX_ENTITY_RULES);

function regexOf(value: string): string | undefined {
  return value.length >= 2 && value.startsWith('/') && value.endsWith('/') ? value.slice(1, -1) : undefined;
}

/** What the rules made of an alert's labels. */
export type RuleOutcome =
  | { matched: true; rule: number; blueprint_slug: string; entity_slug: string }
  | { matched: false; rule: number | null; named: string | null; why: string };

type Matcher = (value: string | undefined) => boolean;

/** Rules compiled once per integration (a request may carry 1,000 alerts). */
export function compileRules(
  rules: readonly EntityRule[],
): (labels: Readonly<Record<string, string>>) => RuleOutcome {
  const compiled = rules.map((rule) => ({
    matchers: Object.entries(rule.match).map(([name, value]): [string, Matcher] => {
      const pattern = regexOf(value);
      if (pattern === undefined) return [name, (v) => v === value];
      const re = compileWith(patternEngine(), `^(?:${pattern})$`) as RE2JS;
      return [name, (v) => v !== undefined && re.matches(v)];
    }),
    entity: rule.entity,
  }));
  return (labels) => {
    for (const [index, rule] of compiled.entries()) {
      if (!rule.matchers.every(([name, holds]) => holds(labels[name]))) continue;
      const missing: string[] = [];
      const named = rule.entity.replace(PLACEHOLDER, (_, name: string) => {
        const value = labels[name];
        if (value === undefined) missing.push(name);
        return (value ?? '').toLowerCase();
      });
      if (missing.length > 0)
        return {
          matched: false,
          rule: index,
          named: null,
          why: `the alert has no label ${missing.join(', ')}`,
        };
      const [blueprint, slug, ...more] = named.split('/');
      if (
        blueprint === undefined ||
        slug === undefined ||
        more.length > 0 ||
        !SLUG.test(blueprint) ||
        !SLUG.test(slug)
      )
        return { matched: false, rule: index, named, why: `${named} is not a blueprint/slug` };
      return { matched: true, rule: index, blueprint_slug: blueprint, entity_slug: slug };
    }
    return { matched: false, rule: null, named: null, why: 'no rule matched the alert’s labels' };
  };
}
