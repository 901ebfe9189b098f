import * as z from 'zod';
import { redactUrl, urlSecrets } from '../../domain/redaction.ts';
import type { HttpCheckType } from '../contract/definition.ts';

/**
 * "api.example.com/health": the URL's host and path, never its credentials or query (which may
 * hold secrets, and a derived name is shown to read-only keys and sent in alerts).
 */
function hostAndPath(target: string | null): string {
  if (!target) return '';
  try {
    const url = new URL(target);
    return url.pathname === '/' ? url.host : `${url.host}${url.pathname}`;
  } catch {
    return '';
  }
}

/**
 * http: a request to `target_url` answers the expected status (and body, assertions). Its request
 * is the check's top-level fields (lib/checks/check-input.ts), so its `config` is empty. Its probe
 * is lib/probes/http-probe.ts.
 */
export const httpCheckType: HttpCheckType = {
  kind: 'http',
  label: 'HTTP',
  input: z.strictObject({}),
  stored: z.object({}),
  tls: true,
  defaultName: (check) => `HTTP ${check.method} ${hostAndPath(check.target_url)}`.trim(),
  // Alert text goes to chat rooms and inboxes: credentials in the URL stay out of it.
  targetLabel: (check) => `${check.method} ${check.target_url ? redactUrl(check.target_url) : ''}`.trim(),
  secrets: (job) => [...Object.values(job.headers ?? {}), ...urlSecrets(job.target_url)],
};
