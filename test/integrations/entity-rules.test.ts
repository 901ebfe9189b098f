import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  compileRules,
  type EntityRule,
  entityRulesSchema,
} from '../../lib/integrations/ingest/entity-rules.ts';

/** An integration's entity rules: first match wins, templates fill from labels, nothing is made up. */

const rules = (input: unknown): EntityRule[] => entityRulesSchema.parse(input);

describe('entity rules', () => {
  it('names the entity of the first rule whose matchers all hold, filling the template from labels', () => {
    const route = compileRules(
      rules([
        { match: { env: 'staging' }, entity: 'environment/staging' },
        { match: { service: '/orders-.*/', env: 'prod' }, entity: 'service/{{labels.service}}' },
        { match: {}, entity: 'service/{{ labels.job }}' },
      ]),
    );
    expect(route({ env: 'staging', service: 'orders-db' })).toEqual({
      matched: true,
      rule: 0,
      blueprint_slug: 'environment',
      entity_slug: 'staging',
    });
    // Matchers compare case and all; a template's label value is lower-cased, as slugs are.
    expect(route({ env: 'prod', service: 'Orders-DB', job: 'Orders-API' })).toMatchObject({
      matched: true,
      rule: 2,
      entity_slug: 'orders-api',
    });
    expect(route({ env: 'prod', service: 'orders-db' })).toMatchObject({ rule: 1, entity_slug: 'orders-db' });
    // The regex matches the whole value, as Alertmanager's =~ does.
    expect(route({ env: 'prod', service: 'x-orders-db', job: 'API' })).toMatchObject({
      rule: 2,
      entity_slug: 'api',
    });
  });

  it('says why an alert names no entity: no rule matched, a label missing, a value that is no slug', () => {
    const route = compileRules(rules([{ match: { team: 'db' }, entity: 'service/{{labels.service}}' }]));
    expect(route({})).toEqual({
      matched: false,
      rule: null,
      named: null,
      why: 'no rule matched the alert’s labels',
    });
    expect(route({ team: 'db' })).toEqual({
      matched: false,
      rule: 0,
      named: null,
      why: 'the alert has no label service',
    });
    expect(route({ team: 'db', service: 'a/b' })).toEqual({
      matched: false,
      rule: 0,
      named: 'service/a/b',
      why: 'service/a/b is not a blueprint/slug',
    });
    expect(route({ team: 'db', service: 'orders db' })).toMatchObject({
      matched: false,
      named: 'service/orders db',
    });
  });

  it('refuses rules it cannot run: a bad template, a regex RE2 refuses, a bad label name', () => {
    expect(() => rules([{ entity: 'orders-db' }])).toThrow(/blueprint\/slug/);
    expect(() => rules([{ entity: 'service/{{labels.x}}/y' }])).toThrow(/blueprint\/slug/);
    expect(() => rules([{ match: { a: '/(a)\\1/' }, entity: 'service/x' }])).toThrow(/RE2/);
    expect(() => rules([{ match: { 'a-b': 'x' }, entity: 'service/x' }])).toThrow(/label name/);
    expect(() => rules(Array.from({ length: 51 }, () => ({ entity: 'service/x' })))).toThrow();
  });

  it('holds for any rules and labels: a match is the first rule whose matchers hold (property)', () => {
    const name = fc.constantFrom('env', 'service', 'team');
    const value = fc.constantFrom('prod', 'staging', 'orders', 'db');
    const matcher = fc.oneof(value, fc.constantFrom('/prod|staging/', '/o.*/', '/d./'));
    const rule = fc.record({
      match: fc.dictionary(name, matcher, { maxKeys: 2 }),
      entity: fc.constantFrom('service/{{labels.service}}', 'team/{{labels.team}}', 'environment/production'),
    });
    const holds = (m: string, v: string | undefined) =>
      m.startsWith('/') ? v !== undefined && new RegExp(`^(?:${m.slice(1, -1)})$`).test(v) : v === m;
    fc.assert(
      fc.property(fc.array(rule, { maxLength: 5 }), fc.dictionary(name, value), (ruleList, labels) => {
        const outcome = compileRules(rules(ruleList))(labels);
        const first = ruleList.findIndex((r) =>
          Object.entries(r.match).every(([n, m]) => holds(m, labels[n])),
        );
        expect(outcome.rule).toBe(first < 0 ? null : first);
        if (outcome.matched) {
          const template = ruleList[first]?.entity ?? '';
          const label = /labels\.(\w+)/.exec(template)?.[1];
          expect(`${outcome.blueprint_slug}/${outcome.entity_slug}`).toBe(
            label === undefined ? template : template.replace(/\{\{.*\}\}/, labels[label] ?? ''),
          );
        } else if (first >= 0) {
          expect(/labels\.(\w+)/.exec(ruleList[first]?.entity ?? '')?.[1]).toBeDefined();
        }
      }),
    );
  });
});
