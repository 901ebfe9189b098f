import type { ContactMethodRecord, NotificationRule } from './contact-items.ts';

/**
 * The pure side of notification rules: which of a proposed list are refused (each names its own
 * path), their order, and the plan a page follows (docs/on-call.md "Contact methods and
 * notification rules").
 */

export interface RuleProblem {
  path: string;
  message: string;
}

/** Why each rule of `rules` cannot be kept: a method that is not the person's, not verified, or named twice at one delay. */
export function ruleProblems(
  rules: readonly NotificationRule[],
  methods: readonly Pick<ContactMethodRecord, 'id' | 'verified'>[],
): RuleProblem[] {
  const byId = new Map(methods.map((m) => [m.id, m]));
  const seen = new Set<string>();
  const problems: RuleProblem[] = [];
  rules.forEach((rule, i) => {
    const path = `rules.${i}.contact_method_id`;
    const method = byId.get(rule.contact_method_id);
    const twice = `${rule.after_seconds}#${rule.contact_method_id}`;
    if (!method) problems.push({ path, message: 'None of your contact methods has this id.' });
    else if (!method.verified)
      problems.push({ path, message: 'This contact method is not verified yet: verify it first.' });
    else if (seen.has(twice))
      problems.push({ path, message: 'This contact method is already used at this delay.' });
    seen.add(twice);
  });
  return problems;
}

/** The rules by delay, those of one delay in the order given (a stable sort). */
export function orderedRules<R extends NotificationRule>(rules: readonly R[]): R[] {
  return rules
    .map((rule, i) => ({ rule, i }))
    .sort((a, b) => a.rule.after_seconds - b.rule.after_seconds || a.i - b.i)
    .map((x) => x.rule);
}

/** One step of a person's contact plan: after how long, by which verified method. */
export interface ContactStep {
  after_seconds: number;
  contact_method: { id: string; kind: string; address: string | null; label: string | null };
}

/**
 * The steps a page to the person takes: their rules in order, each on a method that is still
 * theirs and verified (a rule whose method went since is left out); a person who never set rules
 * is reached by every verified method at once, oldest first.
 */
export function planOf(
  methods: readonly ContactMethodRecord[],
  rules: readonly NotificationRule[] | undefined,
): ContactStep[] {
  const verified = methods.filter((m) => m.verified);
  const step = (after_seconds: number, m: ContactMethodRecord): ContactStep => ({
    after_seconds,
    contact_method: { id: m.id, kind: m.kind, address: m.address, label: m.label },
  });
  if (rules === undefined) return verified.map((m) => step(0, m));
  const byId = new Map(verified.map((m) => [m.id, m]));
  return orderedRules(rules).flatMap((rule) => {
    const method = byId.get(rule.contact_method_id);
    return method ? [step(rule.after_seconds, method)] : [];
  });
}
