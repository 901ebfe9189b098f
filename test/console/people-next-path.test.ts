import { describe, expect, it } from 'vitest';
import { nextFromHere, safeNextPath } from '../../web/src/people/next-path.ts';

/** Where the console goes after signing in (web/src/people/next-path.ts): its own paths only. */

describe('the path after sign-in', () => {
  it('keeps a path of the console with its query and fragment', () => {
    expect(safeNextPath('/entities/service/api')).toBe('/entities/service/api');
    expect(safeNextPath('/incidents?state=open#top')).toBe('/incidents?state=open#top');
    expect(safeNextPath('/consent?request=oar_1')).toBe('/consent?request=oar_1');
  });

  it.each([
    ['another host', '//evil.example/x'],
    ['another host behind a backslash', '/\\evil.example'],
    ['a tab the URL parser drops', '/\t/evil.example'],
    ['a newline', '/\n/evil.example'],
    ['an absolute URL', 'https://evil.example/'],
    ['a script URL', 'javascript:alert(1)'],
    ['a relative path', 'status'],
    ['nothing', ''],
    ['the sign-in page itself', '/sign-in?next=/status'],
  ])('refuses %s and goes to the status page', (_, next) => {
    expect(safeNextPath(next)).toBe('/status');
  });

  it('refuses no next at all', () => {
    expect(safeNextPath(null)).toBe('/status');
    expect(safeNextPath(undefined)).toBe('/status');
  });

  it('takes next from /sign-in?next=, else the page the person opened', () => {
    expect(nextFromHere({ pathname: '/sign-in', search: '?next=%2Fchecks%2Fchk_1' })).toBe('/checks/chk_1');
    expect(nextFromHere({ pathname: '/sign-in', search: '?next=https%3A%2F%2Fevil.example' })).toBe(
      '/status',
    );
    expect(nextFromHere({ pathname: '/entities/service/api', search: '?tab=checks' })).toBe(
      '/entities/service/api?tab=checks',
    );
  });
});
