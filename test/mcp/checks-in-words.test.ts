import { describe, expect, it } from 'vitest';
import { checksInWords } from '../../lib/features/tools/catalog.ts';

/** get_entity's summary of an entity's checks: down checks named, degraded ones named when there are any. */
describe('checksInWords', () => {
  it('names the down checks, and says nothing of degraded while none is', () => {
    expect(
      checksInWords([
        { name: 'API', state: 'down' },
        { name: 'DB', state: 'up' },
      ]),
    ).toBe('2 checks, 1 down ("API")');
    expect(checksInWords([])).toBe('0 checks, 0 down');
  });

  it('names the degraded checks too', () => {
    expect(
      checksInWords([
        { name: 'API', state: 'degraded' },
        { name: 'Cert', state: 'degraded' },
        { name: 'DB', state: 'up' },
      ]),
    ).toBe('3 checks, 0 down, 2 degraded ("API", "Cert")');
  });
});
