import { describe, expect, it } from 'vitest';
import { kumaImporter } from '../../lib/importers/kuma.ts';
import { requestSchemaProblems } from './convert-validation.ts';
import { browserBackup } from './kuma-browser-backup.ts';

/**
 * Kuma's real-browser monitors (server/monitor-types/real-browser-monitor-type.js: Chromium loads
 * the URL within 0.8 × the interval, up on a status of 200-399) as browser checks of one goto step,
 * with a line for each setting Vigil does not keep. test/importers/kuma-browser-run.test.ts runs one.
 */

const convert = (text: string) => {
  const converted = kumaImporter.convert(text);
  const checks = (converted.document as { checks?: Record<string, unknown>[] }).checks ?? [];
  return { document: converted.document, checks, unmapped: converted.unmapped };
};

describe('Kuma real-browser monitors as browser checks', () => {
  it('makes a browser check of one goto step, its budget 0.8 × the interval, the API accepting it', () => {
    const { document, checks, unmapped } = convert(
      browserBackup({
        name: 'Shop front',
        url: 'https://shop.example.com/',
        interval: 300,
        retryInterval: 300,
        maxretries: 2,
      }),
    );

    expect(checks).toEqual([
      {
        entity: 'kuma/shop-front',
        name: 'Shop front',
        check_type: 'browser',
        interval_seconds: 300,
        failure_threshold: 3,
        timeout_ms: 60_000,
        config: { steps: [{ action: 'goto', url: 'https://shop.example.com/', timeout_ms: 60_000 }] },
      },
    ]);
    expect(unmapped).toEqual([
      'monitor "Shop front": its page load budget of 240 s (0.8 × the interval) becomes 60 s, a browser run\'s longest',
    ]);
    expect(requestSchemaProblems(document, {})).toEqual([]);
  });

  it('keeps a one-minute budget as it is and says nothing of the default settings', () => {
    const { checks, unmapped } = convert(
      browserBackup({ name: 'Docs', url: 'http://docs.example.com/a?b=1' }),
    );

    expect(checks[0]).toMatchObject({
      interval_seconds: 60,
      failure_threshold: 1,
      timeout_ms: 48_000,
      config: { steps: [{ action: 'goto', url: 'http://docs.example.com/a?b=1', timeout_ms: 48_000 }] },
    });
    expect(unmapped).toEqual([]);
  });

  it('says why it leaves out a remote browser, a screenshot delay, accepted codes and a short interval', () => {
    const { document, checks, unmapped } = convert(
      browserBackup({
        name: 'Admin',
        url: 'https://admin.example.com/',
        interval: 20,
        remote_browser: 3,
        screenshot_delay: 500,
        accepted_statuscodes: ['200-299', '401'],
        active: false,
      }),
    );

    expect(checks[0]).toMatchObject({ interval_seconds: 60, timeout_ms: 16_000, enabled: false });
    expect(unmapped).toEqual([
      'monitor "Admin": the interval 20 s becomes 60 s (a browser check runs at most once a minute, at least once a day)',
      'monitor "Admin": its accepted status codes (200-299, 401) are not kept: Kuma\'s real-browser monitor never reads them (200-399 pass), nor does the goto step (below 400 passes)',
      'monitor "Admin": its remote browser (3) is not kept: Vigil runs the check in its own sandboxed Chromium',
      'monitor "Admin": its screenshot delay of 500 ms is not kept (Vigil\'s goto step waits for the load event)',
    ]);
    expect(requestSchemaProblems(document, {})).toEqual([]);
  });

  it('leaves out a monitor whose URL is not http(s), with the reason, and an upside-down one', () => {
    const { checks, unmapped } = convert(
      browserBackup(
        { name: 'Local file', url: 'file:///etc/passwd' },
        { name: 'Inverted', url: 'https://x.example.com/', upsideDown: true },
      ),
    );

    expect(checks).toEqual([]);
    expect(unmapped).toEqual([
      'monitor "Local file": its URL "file:///etc/passwd" is not an http(s) URL, which a browser check\'s goto needs',
      'monitor "Inverted": not imported: upside-down monitors are not supported (Vigil has no inverted check)',
    ]);
  });
});
