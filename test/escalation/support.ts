import { expect } from 'vitest';
import { userCreatedOps } from '../../lib/auth/records.ts';
import { contactMethodCreatedOp } from '../../lib/contacts/contact-items.ts';
import { isoTime } from '../../lib/platform/clock.ts';
import { newId } from '../../lib/platform/ids.ts';
import type { FlowHarness } from '../notify/support/flow-harness.ts';

/**
 * People of the flow harness's tenant who can be paged: each a member with one verified e-mail
 * contact method (stored as the verification leaves it: test/contacts covers verifying one).
 */
export async function pageablePeople(h: FlowHarness, names: readonly string[]) {
  const people: { id: string; email: string; methodId: string }[] = [];
  for (const name of names) {
    const nowMs = h.time.clock.now();
    const now = isoTime(nowMs);
    const id = newId('usr', nowMs);
    const email = `${name}@example.com`;
    const methodId = newId('cmt', nowMs);
    await h.table.transact(
      userCreatedOps({
        id,
        tenant_id: h.tenantId,
        email,
        name,
        role: 'member',
        created_at: now,
        updated_at: now,
      }),
    );
    await h.table.transact([
      contactMethodCreatedOp({
        id: methodId,
        tenant_id: h.tenantId,
        user_id: id,
        kind: 'email',
        address: email,
        label: null,
        verified: true,
        verified_at: now,
        code: null,
        sends: [],
        created_at: now,
        updated_at: now,
        version: 1,
      }),
    ]);
    people.push({ id, email, methodId });
  }
  return people;
}

/** A policy of one step per person (each its delay), `repeat` more rounds, and a route of every alert to it. */
export async function policyOfSteps(
  h: FlowHarness,
  steps: readonly { userId: string; delaySeconds: number }[],
  repeat: number,
) {
  const policy = await h.call(
    'POST',
    '/v1/escalation-policies',
    {
      name: 'Ladder',
      repeat,
      steps: steps.map((s) => ({ delay_seconds: s.delaySeconds, targets: [{ type: 'user', id: s.userId }] })),
    },
    201,
  );
  const route = await h.call('POST', '/v1/notify/routes', { escalation_policy_id: policy.id }, 201);
  expect(route.escalation_policy_id).toBe(policy.id);
  return policy.id as string;
}
