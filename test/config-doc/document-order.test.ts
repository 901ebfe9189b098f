import { describe, expect, it } from 'vitest';
import { documentOrder } from '../../lib/config-doc/kind.ts';
import { CONFIG_KINDS } from '../../lib/features/feature-routes.ts';

/**
 * The document's order of its lists comes from the kinds' declared places (`after`): the lists a
 * kind comes after go first, ties by key. It is the order objects are created and updated in
 * (deletes in reverse), so a list refers only to lists before it.
 */
describe('the document’s order', () => {
  it('is the order the features’ kinds declare, as it was when it was one list', () => {
    expect(Object.keys(CONFIG_KINDS)).toEqual([
      'blueprints',
      'entities',
      'relations',
      'channels',
      'checks',
      'maintenance',
      'status_pages',
      'actions',
      'skills',
      'schedules',
      'teams',
      'escalation_policies',
      'routes',
      'integrations',
    ]);
  });

  it('puts each kind after the lists it names, whatever order the kinds come in', () => {
    const kinds = [
      { key: 'routes', after: ['teams', 'channels'] },
      { key: 'teams' },
      { key: 'channels' },
      { key: 'audits', after: ['routes'] },
    ];
    expect(documentOrder(kinds)).toEqual(['channels', 'teams', 'routes', 'audits']);
    expect(documentOrder([...kinds].reverse())).toEqual(['channels', 'teams', 'routes', 'audits']);
  });

  it('refuses a place after a list no kind declares, naming the kind and the list', () => {
    expect(() => documentOrder([{ key: 'routes', after: ['teams'] }])).toThrow(
      'the configuration kind routes comes after teams, which no kind declares',
    );
  });

  it('refuses kinds that come after each other, naming those on the circle', () => {
    expect(() =>
      documentOrder([
        { key: 'a', after: ['c'] },
        { key: 'b', after: ['a'] },
        { key: 'c', after: ['b'] },
        { key: 'd', after: ['a'] },
        { key: 'e' },
      ]),
    ).toThrow('the configuration kinds a, b, c come after each other');
  });

  it('places every list the kinds’ references name before the kind', async () => {
    // Each kind declares the lists its objects name: the engine creates those first.
    const order = Object.keys(CONFIG_KINDS);
    const declared: Record<string, { after?: readonly string[] | undefined } | undefined> = CONFIG_KINDS;
    const named: Record<string, string[]> = {
      entities: ['blueprints'],
      relations: ['entities'],
      checks: ['entities', 'channels'],
      maintenance: ['entities'],
      status_pages: ['entities'],
      actions: ['checks'],
      skills: ['actions'],
      teams: ['schedules', 'entities', 'blueprints'],
      escalation_policies: ['schedules', 'channels', 'teams'],
      routes: ['entities', 'channels', 'escalation_policies'],
    };
    for (const [key, lists] of Object.entries(named)) {
      expect(declared[key]?.after, key).toEqual(expect.arrayContaining(lists));
      for (const list of lists)
        expect(order.indexOf(list), `${key} after ${list}`).toBeLessThan(order.indexOf(key));
    }
  });
});
