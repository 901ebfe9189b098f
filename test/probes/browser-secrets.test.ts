import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserRunAnswer } from '../../lib/probes/browser-run-wire.ts';
import { createBrowserRunner } from '../../lib/probes/browser-runner.ts';
import { type BrowserSite, startBrowserSite } from '../check-types/support/browser-site.ts';

/**
 * A browser run's secrets in its evidence (lib/probes/browser/browser-session.ts, Debian's Chromium
 * against the test site's login form on 127.0.0.1): a secret with a `+` written raw into a URL is in no entry of the
 * trace, not even as its network log decodes the query (`+` as a space); the trace has no frames
 * (pixels its masking cannot reach); a screenshot masks the input a secret was filled into, so two
 * runs filling two different secrets there take the same picture.
 */

const SECRET = 'tok+en/abc==';
const OTHER = 'zzz+qq/xyz==';

let site: BrowserSite;

beforeAll(async () => {
  site = await startBrowserSite();
});
afterAll(() => site.close());

const runner = createBrowserRunner();

/** A run that visits a URL with `secret` raw in its query, fills it in and takes a screenshot. */
function run(secret: string): Promise<BrowserRunAnswer> {
  return runner({
    steps: [
      { action: 'goto', url: `${site.origin}/login?token=${secret}` },
      { action: 'fill', selector: '#user', value: secret },
      { action: 'screenshot' },
    ] as never,
    timeoutMs: 30_000,
    allowPrivate: true,
    trace: 'always',
    secrets: [secret],
  });
}

describe('a browser run with a secret', () => {
  let first: BrowserRunAnswer;
  let second: BrowserRunAnswer;

  beforeAll(async () => {
    [first, second] = await Promise.all([run(SECRET), run(OTHER)]);
  }, 120_000);

  it('holds the secret in no entry of its trace, in no spelling, the form-decoded one included', () => {
    expect(first.steps.map((s) => s.outcome)).toEqual(['passed', 'passed', 'passed']);
    const entries = unzipSync(new Uint8Array(Buffer.from(first.trace ?? '', 'base64')));
    const network = Buffer.from(entries['trace.network'] ?? []).toString('utf8');
    // The network log lists the query the page was asked with, decoded.
    expect(network).toContain('"queryString"');
    const spellings = [SECRET, 'tok en/abc==', 'tok%2Ben%2Fabc%3D%3D', encodeURI(SECRET), 'en/abc'];
    const found = Object.entries(entries).flatMap(([name, bytes]) => {
      const text = Buffer.from(bytes).toString('utf8');
      return spellings.filter((s) => text.includes(s)).map((s) => `${name}: ${s}`);
    });
    expect(found).toEqual([]);
  });

  it('records no frames in its trace', () => {
    const entries = unzipSync(new Uint8Array(Buffer.from(first.trace ?? '', 'base64')));
    const events = Buffer.from(entries['trace.trace'] ?? []).toString('utf8');
    expect(events).toContain('"method":"fill"');
    expect(events).not.toContain('screencast-frame');
  });

  it('masks the input the secret was filled into in its screenshot', () => {
    const [shot] = first.screenshots;
    expect(shot?.step).toBe(2);
    expect(second.screenshots[0]?.jpeg).toBe(shot?.jpeg);
  });
});
