import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ContactMethodRecord } from '../../lib/contacts/contact-items.ts';
import { orderedRules, planOf, ruleProblems } from '../../lib/contacts/contact-rules.ts';
import { codeHash, codeMatches, newCode, resendWait } from '../../lib/contacts/verification-code.ts';

/**
 * The pure side of contact methods: a rule list's validation and order, the contact plan drawn from
 * it, and the verification code's rules. The properties print their seed; replay one with
 * `VIGIL_MODEL_SEED=<seed> npm exec -- vitest run test/contacts/contact-rules.test.ts`.
 */

const seed = process.env.VIGIL_MODEL_SEED ? Number(process.env.VIGIL_MODEL_SEED) : Date.now() % 2 ** 31;

const method = (id: string, verified: boolean): ContactMethodRecord => ({
  id,
  tenant_id: 'tnt_1',
  user_id: 'usr_1',
  kind: 'sms',
  address: `+1415555${id.slice(-4).padStart(4, '0')}`,
  label: null,
  verified,
  verified_at: null,
  code: null,
  sends: [],
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  version: 1,
});

const IDS = ['cmt_a', 'cmt_b', 'cmt_c', 'cmt_d', 'cmt_e'];
const methodsArb = fc
  .subarray(IDS)
  .chain((ids) => fc.tuple(...ids.map((id) => fc.boolean().map((v) => method(id, v)))));
const rulesArb = fc.array(
  fc.record({
    after_seconds: fc.constantFrom(0, 60, 120, 300, 900),
    contact_method_id: fc.constantFrom(...IDS, 'cmt_gone'),
  }),
  { maxLength: 12 },
);

describe('notification rules', () => {
  it('refuses exactly the rules on a method that is not the person’s, not verified, or repeated at one delay', () => {
    console.log(`contact rules, validation: seed ${seed}`);
    fc.assert(
      fc.property(methodsArb, rulesArb, (methods, rules) => {
        const problems = ruleProblems(rules, methods);
        const byId = new Map(methods.map((m) => [m.id, m]));
        const seen = new Set<string>();
        const expected = rules.flatMap((r, i) => {
          const key = `${r.after_seconds}#${r.contact_method_id}`;
          const bad = !byId.get(r.contact_method_id)?.verified || seen.has(key);
          seen.add(key);
          return bad ? [`rules.${i}.contact_method_id`] : [];
        });
        expect(problems.map((p) => p.path)).toEqual(expected);
        // An accepted list plans one step per rule, in order of delay, on the methods it names.
        if (problems.length === 0) {
          const plan = planOf(methods, rules);
          expect(plan).toHaveLength(rules.length);
          const delays = plan.map((s) => s.after_seconds);
          expect(delays).toEqual([...delays].sort((a, b) => a - b));
          expect(plan.map((s) => s.contact_method.id).sort()).toEqual(
            rules.map((r) => r.contact_method_id).sort(),
          );
        }
      }),
      { seed, numRuns: 300 },
    );
  });

  it('orders rules by delay and keeps the given order within one delay', () => {
    console.log(`contact rules, order: seed ${seed}`);
    fc.assert(
      fc.property(rulesArb, (rules) => {
        const tagged = rules.map((r, i) => ({ ...r, i }));
        const ordered = orderedRules(tagged);
        expect(ordered.map((r) => r.i).sort((a, b) => a - b)).toEqual(tagged.map((r) => r.i));
        for (let k = 1; k < ordered.length; k += 1) {
          const [a, b] = [ordered[k - 1], ordered[k]];
          if (!a || !b) continue;
          expect(
            a.after_seconds < b.after_seconds || (a.after_seconds === b.after_seconds && a.i < b.i),
          ).toBe(true);
        }
      }),
      { seed, numRuns: 300 },
    );
  });

  it('plans a page by every verified method at once when the person set no rules, and leaves out rules on methods gone or unverified', () => {
    const methods = [method('cmt_a', true), method('cmt_b', false), method('cmt_c', true)];
    expect(planOf(methods, undefined).map((s) => [s.after_seconds, s.contact_method.id])).toEqual([
      [0, 'cmt_a'],
      [0, 'cmt_c'],
    ]);
    const rules = [
      { after_seconds: 300, contact_method_id: 'cmt_c' },
      { after_seconds: 0, contact_method_id: 'cmt_b' },
      { after_seconds: 60, contact_method_id: 'cmt_gone' },
      { after_seconds: 0, contact_method_id: 'cmt_a' },
    ];
    expect(planOf(methods, rules).map((s) => [s.after_seconds, s.contact_method.id])).toEqual([
      [0, 'cmt_a'],
      [300, 'cmt_c'],
    ]);
    expect(planOf(methods, [])).toEqual([]);
  });
});

describe('verification codes', () => {
  it('are six digits, matched only by their own method’s hash', () => {
    for (let i = 0; i < 50; i += 1) expect(newCode()).toMatch(/^\d{6}$/);
    const hash = codeHash('cmt_a', '012345');
    expect(hash).not.toContain('012345');
    expect(codeMatches('cmt_a', '012345', hash)).toBe(true);
    expect(codeMatches('cmt_a', '012346', hash)).toBe(false);
    expect(codeMatches('cmt_b', '012345', hash)).toBe(false);
  });

  it('may be resent a minute after the last, and five times an hour', () => {
    const at = (ms: number) => new Date(ms).toISOString();
    const t0 = Date.parse('2026-03-01T10:00:00.000Z');
    expect(resendWait([], t0).waitMs).toBe(0);
    expect(resendWait([at(t0)], t0 + 30_000).waitMs).toBe(30_000);
    expect(resendWait([at(t0)], t0 + 60_000).waitMs).toBe(0);
    const five = [0, 5, 10, 15, 20].map((m) => at(t0 + m * 60_000));
    expect(resendWait(five, t0 + 25 * 60_000).waitMs).toBe(35 * 60_000);
    const later = resendWait(five, t0 + 61 * 60_000);
    expect(later.waitMs).toBe(0);
    expect(later.recent).toHaveLength(4);
  });
});
