import type { AppliedChange, DocKey, Plan, PlannedChange } from './kind.ts';

/**
 * A plan in words, as `vigil plan` prints it and plan_config answers it: one line per change
 * (`+ create check service/api:homepage`, `~ update …`, `- delete …`), an update's fields below
 * it (`    config.url: "a" → "b"`). Shared by the CLI, which gets the plan over HTTP, and the MCP
 * tools, so both read the same.
 */

/** Each list's object in words; the CLI has no kinds of its own to ask. */
const NOUNS: Record<DocKey, string> = {
  blueprints: 'blueprint',
  entities: 'entity',
  relations: 'relation',
  channels: 'channel',
  checks: 'check',
  routes: 'route',
  maintenance: 'maintenance window',
  status_pages: 'status page',
  actions: 'action',
  skills: 'skill',
  schedules: 'schedule',
  teams: 'team',
  escalation_policies: 'escalation policy',
  integrations: 'integration',
};

const SIGNS: Record<PlannedChange['op'], string> = { create: '+', update: '~', delete: '-' };

/** A value in a field line: JSON, so a string shows its quotes and an absent value reads `(none)`. */
function shown(value: unknown): string {
  return value === undefined ? '(none)' : JSON.stringify(value);
}

/** The change in words: `create check service/api:homepage`. */
function changeWords(change: PlannedChange): string {
  return `${change.op} ${NOUNS[change.kind] ?? change.kind} ${change.id}`;
}

/** The change's head line in a plan: `+ create check service/api:homepage`. */
function changeLine(change: PlannedChange): string {
  return `${SIGNS[change.op] ?? '?'} ${changeWords(change)}`;
}

/** The change's lines: its head line and, for an update, one line per field. */
function changeLines(change: PlannedChange): string[] {
  const fields = (change.fields ?? []).map((f) => `    ${f.path}: ${shown(f.from)} → ${shown(f.to)}`);
  return [changeLine(change), ...fields];
}

/** The counts of a plan's changes: `2 to create, 1 to update, 0 to delete`. */
function planCounts(changes: readonly PlannedChange[]): string {
  const count = (op: PlannedChange['op']) => changes.filter((c) => c.op === op).length;
  return `${count('create')} to create, ${count('update')} to update, ${count('delete')} to delete`;
}

/** The whole plan: its changes, what the document could not map, and the counts (or "No changes."). */
export function planText(plan: Plan): string {
  const lines = plan.changes.flatMap(changeLines);
  const unmapped = plan.unmapped.map((line) => `  ! ${line}`);
  if (unmapped.length) lines.push('Not mapped:', ...unmapped);
  // A server older than the warnings answers none.
  const warnings = (plan.warnings ?? []).map((warning) => `  ! ${warning.message}`);
  if (warnings.length) lines.push('Warnings:', ...warnings);
  lines.push(plan.changes.length ? `Plan: ${planCounts(plan.changes)}.` : 'No changes.');
  return lines.join('\n');
}

/** One object's outcome of an apply: `✓ create check service/api:homepage` or `✗ … : error`. */
export function appliedLine(change: AppliedChange): string {
  const head = changeWords(change);
  return change.status === 'failed' ? `✗ ${head}: ${change.error ?? 'failed'}` : `✓ ${head}`;
}
