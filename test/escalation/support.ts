import { afterAll, beforeAll, expect } from 'vitest';
import { userCreatedOps } from '../../lib/auth/records.ts';
import { contactMethodCreatedOp } from '../../lib/contacts/contact-items.ts';
import type { ContactKind } from '../../lib/contacts/kinds/registry.ts';
import { createSmtpTransport } from '../../lib/notify/smtp-transport.ts';
import { type Clock, isoTime } from '../../lib/platform/clock.ts';
import { newId } from '../../lib/platform/ids.ts';
import type { Table } from '../../lib/store/table.ts';
import { type FlowHarness, flowHarnessPerTest } from '../notify/support/flow-harness.ts';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp-server.ts';

/** A tenant's store on the test's clock: the local flow harness, or the cloud rig's parts. */
interface TenantStore {
  table: Table;
  tenantId: string;
  time: { clock: Clock };
}

/** The API as a test calls it: a failed call throws (or fails the expectation of `expected`). */
interface Api {
  // biome-ignore lint/suspicious/noExplicitAny: response bodies are inspected freely
  call(method: string, path: string, body?: unknown, expected?: number): Promise<any>;
}

/**
 * People of the tenant who can be paged: each a member with one verified e-mail contact method
 * and the `more` methods given (stored as the verification leaves them: test/contacts covers
 * verifying one), reached by every method at once (no rules).
 */
export async function pageablePeople(
  h: TenantStore,
  names: readonly string[],
  more: readonly { kind: ContactKind; address: string | null }[] = [],
) {
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
    const methods = [{ kind: 'email' as const, address: email }, ...more];
    await h.table.transact(
      methods.map((method, i) =>
        contactMethodCreatedOp({
          id: i === 0 ? methodId : newId('cmt', nowMs),
          tenant_id: h.tenantId,
          user_id: id,
          ...method,
          label: null,
          verified: true,
          verified_at: now,
          code: null,
          sends: [],
          created_at: now,
          updated_at: now,
          version: 1,
        }),
      ),
    );
    people.push({ id, email, methodId });
  }
  return people;
}

/**
 * A policy of one step per person (each its delay), `repeat` more rounds, and a route to it of
 * every alert (or of the entities named); `name` tells apart the policies of one tenant.
 */
export async function policyOfSteps(
  h: Api,
  steps: readonly { userId: string; delaySeconds: number }[],
  repeat: number,
  entityIds?: readonly string[],
  name = 'Ladder',
) {
  const policy = await h.call(
    'POST',
    '/v1/escalation-policies',
    {
      name,
      repeat,
      steps: steps.map((s) => ({ delay_seconds: s.delaySeconds, targets: [{ type: 'user', id: s.userId }] })),
    },
    201,
  );
  const route = await h.call(
    'POST',
    '/v1/notify/routes',
    { escalation_policy_id: policy.id, ...(entityIds ? { match: { entity_ids: entityIds } } : {}) },
    201,
  );
  expect(route.escalation_policy_id).toBe(policy.id);
  return policy.id as string;
}

/**
 * Run `run` of a paging property: an entity with a check that is up (no cooldown), its alerts
 * routed to a new policy of `steps` with `repeat` more rounds, so its next failure pages. The check's fixture.
 */
export async function entityOnLadder(
  h: FlowHarness,
  run: number,
  steps: readonly { userId: string; delaySeconds: number }[],
  repeat: number,
) {
  const fixture = await h.entityWithCheck(`API ${run}`);
  await policyOfSteps(h, steps, repeat, [fixture.entityId], `Ladder ${run}`);
  await h.policy(fixture.checkId, { cooldown_seconds: 0 });
  await h.result(fixture.checkId, true);
  return fixture;
}

/**
 * The local flow harness of a paging test (a fresh one per test) with people paged by e-mail
 * through a real SMTP server started for the file: the harness, the server, whom it was asked to
 * mail since a mark (an index into its log), and a step of the fake clock to `ms` after `startMs`
 * (10 s at a time). Call at a file's top level (it registers its hooks).
 */
export function pagingFlowHarness() {
  let server: TestSmtpServer | undefined;
  beforeAll(async () => {
    server = await startSmtpServer();
  });
  afterAll(async () => {
    await server?.close();
  });
  const smtp = (): TestSmtpServer => {
    if (!server) throw new Error('the SMTP server starts in beforeAll');
    return server;
  };
  const h = flowHarnessPerTest(() => ({
    email: createSmtpTransport({ url: smtp().url, egressAllow: ['127.0.0.0/8'], runtime: 'local' }),
    env: {
      VIGIL_EMAIL_FROM: 'Vigil <pages@vigil.example.com>',
      VIGIL_PUBLIC_URL: 'https://vigil.example.com',
    },
  }));
  return {
    h,
    smtp,
    mailedSince: (from: number) =>
      smtp()
        .received.slice(from)
        .map((m) => m.to.join(',')),
    until: (startMs: number, ms: number) => h.time.advance(startMs + ms - h.time.clock.now(), 10_000),
  };
}
