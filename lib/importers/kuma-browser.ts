import { type Loose, num, text } from './kuma-context.ts';

/**
 * Kuma's `real-browser` monitor (server/monitor-types/real-browser-monitor-type.js) → a browser
 * check of one `goto` step. Kuma loads the URL in Chromium with a budget of 0.8 × the interval and
 * is up when the answer's status is 200-399, whatever the monitor's accepted status codes say (it
 * never reads them, nor a keyword); Vigil's goto fails on a status of 400 or more, the same rule.
 */

/** A browser check runs at most once a minute (lib/check-types/browser/browser.ts). */
const BROWSER_MIN_INTERVAL = 60;
const VIGIL_INTERVAL_MAX = 86_400;
/** A browser run's steps take 60 s at most (lib/check-types/browser/browser-probe.ts). */
const BROWSER_MAX_TIMEOUT_MS = 60_000;
/** Kuma's interval when a monitor has none (its form's default). */
const KUMA_DEFAULT_INTERVAL = 60;
/** Kuma's page.goto budget is this share of the interval. */
const KUMA_GOTO_SHARE = 0.8;
/** Kuma's accepted status codes as its form leaves them: saying nothing, they make no line. */
const KUMA_DEFAULT_CODES = ['200-299'];

/**
 * The check fields of a real-browser monitor, `common` being the interval, failure threshold and
 * enabled flag every Kuma monitor gives (without Kuma's `timeout`, which this monitor never reads);
 * undefined (with its line) when its URL is not http(s), which Kuma refuses too.
 */
export function realBrowserFields(m: Loose, common: Loose, left: (line: string) => void): Loose | undefined {
  const url = text(m.url) ?? '';
  if (!/^https?:\/\/[^/{}\s]/i.test(url)) {
    left(`its URL ${JSON.stringify(url)} is not an http(s) URL, which a browser check's goto needs`);
    return undefined;
  }
  const fields: Loose = { ...common };
  const interval = num(m.interval);
  if (interval !== undefined) {
    fields.interval_seconds = Math.min(
      Math.max(Math.round(interval), BROWSER_MIN_INTERVAL),
      VIGIL_INTERVAL_MAX,
    );
    if (fields.interval_seconds !== interval)
      left(
        `the interval ${interval} s becomes ${fields.interval_seconds} s (a browser check runs at most once a minute, at least once a day)`,
      );
  }
  // Kuma's page load budget is 0.8 × the interval; Vigil's run is at most 60 s.
  const budgetMs = Math.round((interval ?? KUMA_DEFAULT_INTERVAL) * 1000 * KUMA_GOTO_SHARE);
  const timeoutMs = Math.min(budgetMs, BROWSER_MAX_TIMEOUT_MS);
  if (timeoutMs !== budgetMs)
    left(
      `its page load budget of ${budgetMs / 1000} s (0.8 × the interval) becomes ${timeoutMs / 1000} s, a browser run's longest`,
    );
  const codes = Array.isArray(m.accepted_statuscodes) ? m.accepted_statuscodes.map(String) : [];
  if (codes.length > 0 && codes.join(',') !== KUMA_DEFAULT_CODES.join(','))
    left(
      `its accepted status codes (${codes.join(', ')}) are not kept: Kuma's real-browser monitor never reads them (200-399 pass), nor does the goto step (below 400 passes)`,
    );
  const remote = m.remote_browser;
  if (remote !== undefined && remote !== null)
    left(
      `its remote browser (${String(remote)}) is not kept: Vigil runs the check in its own sandboxed Chromium`,
    );
  const delay = num(m.screenshot_delay);
  if (delay !== undefined && delay > 0)
    left(`its screenshot delay of ${delay} ms is not kept (Vigil's goto step waits for the load event)`);
  return {
    check_type: 'browser',
    ...fields,
    timeout_ms: timeoutMs,
    config: { steps: [{ action: 'goto', url, timeout_ms: timeoutMs }] },
  };
}
