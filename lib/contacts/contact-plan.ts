import type { Table } from '../store/table.ts';
import { getNotificationRules, listContactMethods } from './contact-items.ts';
import { type ContactStep, planOf } from './contact-rules.ts';

export type { ContactStep } from './contact-rules.ts';

/**
 * How to reach a person when they are paged (lib/contacts' face for escalations): their verified
 * contact methods in rule order, each with its delay after the page starts; without rules of their
 * own, every verified method at once. Empty: the person cannot be reached.
 */
export async function contactPlan(
  deps: { table: Table },
  tenantId: string,
  userId: string,
): Promise<ContactStep[]> {
  const [methods, rules] = await Promise.all([
    listContactMethods(deps.table, tenantId, userId),
    getNotificationRules(deps.table, tenantId, userId),
  ]);
  return planOf(methods, rules?.rules);
}
