import * as z from 'zod';
import type { MessageTemplate } from './definition.ts';

/**
 * Message templates (issue 38 item 4, docs/notifications.md "Message templates"): a channel's own
 * title and body, in a logic-less, Mustache-like language over the alert's fields. `{{name}}`
 * inserts a field, `{{#name}}…{{/name}}` keeps its text only when the field is not empty and
 * `{{^name}}…{{/name}}` only when it is. Nothing else: no partials, no lambdas, no raw `{{{…}}}`.
 * The renderer fills plain text; every channel escapes the message for its own markup (Slack
 * mrkdwn, Discord, MarkdownV2, HTML), so a value can never inject markup (the positional escaping
 * of lib/actions: here the one position is the channel's text). Unknown fields are refused when
 * the template is saved, so a typo never reaches an alert.
 */

/** The fields a template may use, each with what it holds (the console and the docs list them). */
const TEMPLATE_FIELDS = {
  entity_name: 'the entity’s name (Checkout API)',
  check_name: 'the check’s name',
  to_state: 'the state it changed to (down)',
  from_state: 'the state it changed from (up)',
  last_error: 'the latest failed result’s error; empty when none',
  link: 'the entity’s console page (VIGIL_PUBLIC_URL set); empty otherwise',
  time: 'the change’s time for humans (2026-01-01 12:00:00 UTC)',
  kind: 'alert, recovery, repeat, escalation, also_failing, flapping or test',
  check_label: 'what the check probes (GET https://api.example.com/health)',
  headline: 'Vigil’s own title (Checkout API is down)',
  note: 'Vigil’s sentence for repeats, escalations, tests and root causes; empty otherwise',
  down_for: 'a repeat’s time since the change (2 h 5 min); empty otherwise',
  unacknowledged_for: 'an escalation’s time unacknowledged (15 min); empty otherwise',
  also_failing: 'checks that started failing after the entity went down, comma-separated; empty when none',
  entity_slug: 'the entity’s slug (checkout-api)',
  blueprint_slug: 'the entity’s blueprint (service)',
  timestamp: 'the change’s time, ISO 8601',
  reason:
    'why it was sent: the failing result’s error or the rule that decided (down from 2 of 3 locations); empty for a test',
  evidence:
    'a browser or multistep check’s failing result in the console (VIGIL_PUBLIC_URL set); empty otherwise',
} as const;

export type TemplateField = keyof typeof TEMPLATE_FIELDS;
export type TemplateValues = Record<TemplateField, string>;

export const FIELD_NAMES = Object.keys(TEMPLATE_FIELDS) as TemplateField[];

/** Bounds on what is stored; each channel clips the rendered text to its own limits as well. */
export const MAX_TEMPLATE_TITLE = 250;
export const MAX_TEMPLATE_BODY = 4000;

type Node =
  | { kind: 'text'; text: string }
  | { kind: 'field'; name: TemplateField }
  | { kind: 'section'; name: TemplateField; inverted: boolean; children: Node[] };

/** `{{name}}`, `{{#name}}`, `{{^name}}`, `{{/name}}`, spaces allowed inside the braces. */
const TAG = /\{\{\s*([#^/]?)\s*([A-Za-z_][A-Za-z0-9_.-]*)\s*\}\}/y;

const isField = (name: string): name is TemplateField => Object.hasOwn(TEMPLATE_FIELDS, name);

const known = () => FIELD_NAMES.join(', ');

/** An error detail's text is clipped at 200 characters (lib/platform/errors.ts). */
const MAX_SENTENCE = 200;

/** `start` and as many known field names as fit in one error detail, in their documented order. */
function fitted(start: string): string {
  let sentence = start;
  for (const [i, name] of FIELD_NAMES.entries()) {
    const next = `${i === 0 ? '' : ', '}${name}`;
    const last = i === FIELD_NAMES.length - 1;
    if (sentence.length + next.length + (last ? 1 : 3) > MAX_SENTENCE)
      return `${sentence}${i === 0 ? '' : ','} …`;
    sentence += next;
  }
  return `${sentence}.`;
}

/** A parsed template, or the sentences saying what is wrong with it. */
export type Parsed = { ok: true; nodes: Node[] } | { ok: false; problems: string[] };

/** Parses a template; every problem is a sentence naming the tag at fault. */
export function parseTemplate(source: string): Parsed {
  const root: Node[] = [];
  const open: { name: string; written: string; children: Node[] }[] = [];
  const unknown = new Set<string>();
  const problems: string[] = [];
  let children = root;
  let text = '';
  let i = 0;
  const flush = () => {
    if (text !== '') children.push({ kind: 'text', text });
    text = '';
  };
  while (i < source.length) {
    if (!source.startsWith('{{', i)) {
      text += source[i];
      i += 1;
      continue;
    }
    TAG.lastIndex = i;
    const tag = TAG.exec(source);
    if (!tag) {
      problems.push(
        `“${source.slice(i, i + 20)}” starts no field: write {{name}}, {{#name}}…{{/name}} or {{^name}}…{{/name}}.`,
      );
      text += '{{';
      i += 2;
      continue;
    }
    i += tag[0].length;
    const sigil = tag[1] ?? '';
    const name = tag[2] ?? '';
    if (!isField(name)) unknown.add(name);
    flush();
    if (sigil === '/') {
      const top = open.pop();
      if (!top || top.name !== name) {
        problems.push(
          top
            ? `{{/${name}}} closes no open section: close ${top.written} with {{/${top.name}}} first.`
            : `{{/${name}}} closes no section: open it with {{#${name}}} or {{^${name}}}.`,
        );
        if (top) open.push(top);
        continue;
      }
      // The section's node already holds its children (the same array): go back to the parent's.
      children = open.at(-1)?.children ?? root;
      continue;
    }
    if (sigil === '') {
      if (isField(name)) children.push({ kind: 'field', name });
      continue;
    }
    const section: Node[] = [];
    if (isField(name)) children.push({ kind: 'section', name, inverted: sigil === '^', children: section });
    open.push({ name, written: tag[0], children: section });
    children = section;
  }
  flush();
  for (const section of open)
    problems.push(`${section.written} is never closed: end it with {{/${section.name}}}.`);
  if (unknown.size > 0) {
    // Names come from the request: a few, clipped, so the field list still fits.
    const list = [...unknown]
      .slice(0, 3)
      .map((name) => `{{${name.length > 32 ? `${name.slice(0, 31)}…` : name}}}`);
    const more = unknown.size > 3 ? ` and ${unknown.size - 3} more` : '';
    problems.unshift(
      fitted(`${list.join(', ')}${more} ${unknown.size === 1 ? 'is not a field' : 'are not fields'}: use `),
    );
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, nodes: root };
}

/** Fills a parsed template with the values as plain text (the channel escapes it for its markup). */
function renderNodes(nodes: Node[], values: TemplateValues): string {
  return nodes
    .map((node) => {
      if (node.kind === 'text') return node.text;
      if (node.kind === 'field') return values[node.name];
      const present = values[node.name] !== '';
      return present !== node.inverted ? renderNodes(node.children, values) : '';
    })
    .join('');
}

/** What is wrong with a template, by field (`title`, `body`); empty when it is valid. */
export function templateProblems(template: MessageTemplate): { path: 'title' | 'body'; message: string }[] {
  const out: { path: 'title' | 'body'; message: string }[] = [];
  for (const [path, max] of [
    ['title', MAX_TEMPLATE_TITLE],
    ['body', MAX_TEMPLATE_BODY],
  ] as const) {
    const source = template[path];
    if (source === undefined) continue;
    if (source.length > max) {
      out.push({
        path,
        message: `Enter a ${path} of at most ${max} characters (this one has ${source.length}).`,
      });
      continue;
    }
    const parsed = parseTemplate(source);
    if (!parsed.ok) for (const message of parsed.problems) out.push({ path, message });
  }
  return out;
}

/** What a template's text may hold as JSON Schema says it: every `{{` starts a tag of a known field (not the sections' balance). */
const TEMPLATE_PATTERN = `^(?:[^{]|\\{[^{]|\\{\\{\\s*[#^/]?\\s*(?:${FIELD_NAMES.join('|')})\\s*\\}\\})*\\{?$`;

/** The request's and the stored record's `template`: a title, a body or both, each a valid template. */
export const messageTemplateSchema = z
  .strictObject({
    title: z
      .string()
      .min(1, 'Enter a title template, or leave the title out.')
      .optional()
      .meta({
        description: `At most ${MAX_TEMPLATE_TITLE} characters; {{field}} placeholders`,
        pattern: TEMPLATE_PATTERN,
        maxLength: MAX_TEMPLATE_TITLE,
      }),
    body: z
      .string()
      .min(1, 'Enter a body template, or leave the body out.')
      .optional()
      .meta({
        description: `At most ${MAX_TEMPLATE_BODY} characters; {{field}} placeholders and sections`,
        pattern: TEMPLATE_PATTERN,
        maxLength: MAX_TEMPLATE_BODY,
      }),
  })
  .superRefine((template, ctx) => {
    if (template.title === undefined && template.body === undefined)
      ctx.addIssue({ code: 'custom', message: 'Give a title, a body or both (or leave the template out).' });
    for (const problem of templateProblems(template))
      ctx.addIssue({ code: 'custom', path: [problem.path], message: problem.message });
  })
  .meta({
    id: 'MessageTemplate',
    minProperties: 1,
    description: `The channel's own alert title and body: {{field}} placeholders over ${known()}; {{#field}}…{{/field}} and {{^field}}…{{/field}} keep text only when the field is set or empty`,
  });

/** Renders one template string with the values; a template that does not parse renders as written. */
export function renderTemplate(source: string, values: TemplateValues): string {
  const parsed = parseTemplate(source);
  // Stored templates were validated at save; one that fails now (a field renamed since) shows as written.
  return parsed.ok ? renderNodes(parsed.nodes, values) : source;
}
