import { requestTarget } from '../../domain/formats.ts';
import { ValidationError } from '../../platform/errors.ts';
import { type CheckRecord, REDACTED } from '../records.ts';

/**
 * The header values an update stores (docs/api.md "Header values follow their request"). Stored
 * values were given for one request, so they go only there: a PUT that changes where the check's
 * request goes (target_url's origin, path or query) or its method keeps none of them. Headers the
 * same PUT gives in full are stored; `********` there is a 400 (a stored value cannot follow); a
 * PUT that gives no `headers` drops them all (the record it answers shows which names are left).
 * Without such a change, `********` keeps the stored value of that header.
 */
export function updatedHeaders(
  current: Pick<CheckRecord, 'headers' | 'target_url' | 'method'>,
  patch: { headers?: Record<string, string> | undefined; method?: CheckRecord['method'] | undefined },
  targetUrl: string | null,
): Record<string, string> {
  const target = (url: string | null) => (url === null ? undefined : requestTarget(url));
  const moved =
    target(targetUrl) !== target(current.target_url) ||
    (patch.method !== undefined && patch.method !== current.method);
  const stored = moved ? {} : current.headers;
  if (!patch.headers) return stored;
  const keep = (name: string) => {
    const kept = Object.hasOwn(stored, name) ? stored[name] : undefined;
    if (kept !== undefined) return kept;
    throw ValidationError.field(
      `headers.${name}`,
      moved
        ? `${REDACTED} cannot keep a stored value when target_url (origin, path or query) or method changes: stored values are sent only to the request they were given for; give the value again`
        : 'no stored value to keep',
    );
  };
  return Object.fromEntries(
    Object.entries(patch.headers).map(([name, value]) => [name, value === REDACTED ? keep(name) : value]),
  );
}
