import { ConflictError, ValidationError } from '../../platform/errors.ts';
import type { Table } from '../../store/table.ts';
import { getDomainClaim, type StatusPageRecord } from '../items/status-page-items.ts';

/**
 * Which custom domain a page may take (docs/status-pages.md "Custom domains"). The DNS name and its
 * certificate are the operator's: only a name on the deployment's list (VIGIL_PAGE_DOMAINS, in the
 * cloud `-c vigil:pageDomains=`, which CloudFront serves) may be claimed, so a tenant of a hosted
 * Vigil cannot claim another company's domain; never the deployment's own host; for an SSO page
 * only when the deployment names its own origin (VIGIL_PUBLIC_URL), where the page's readers sign in
 * and are handed over to the domain (public/sso-pass-routes.ts). One page of one tenant holds a
 * domain: the claim item, written with the page.
 */

export interface DomainRules {
  /** VIGIL_PAGE_DOMAINS: the names a page may claim. */
  allowed: ReadonlySet<string>;
  /** The names the API and console answer under (the Host policy's): never a page's. */
  own: ReadonlySet<string>;
  /** VIGIL_PUBLIC_URL's origin: an SSO page's readers on its domain sign in there; undefined: unknown. */
  publicOrigin: string | undefined;
}

/**
 * The domain a page has after a write: the body's (`null` clears), else the one it had. Throws
 * ValidationError for a name off the list, the deployment's own or on an SSO page of a deployment
 * without VIGIL_PUBLIC_URL, and
 * ConflictError for one another page holds (the transaction's condition holds it for a race).
 */
export async function pageDomainAfter(
  table: Table,
  rules: DomainRules,
  page: Pick<StatusPageRecord, 'tenant_id' | 'slug' | 'visibility'>,
  given: string | null | undefined,
  current: string | null,
): Promise<string | null> {
  const domain = given === undefined ? current : given;
  if (domain === null) return null;
  if (page.visibility === 'sso' && rules.publicOrigin === undefined)
    throw ValidationError.field(
      'domain',
      'An SSO page on a custom domain sends its readers to sign in on Vigil’s own address, which this deployment does not name (VIGIL_PUBLIC_URL; in the cloud -c vigil:publicUrl=): clear the domain or choose another visibility.',
    );
  if (domain === current) return domain;
  if (rules.own.has(domain))
    throw ValidationError.field(
      'domain',
      'This is the deployment’s own host: the API and console answer there.',
    );
  if (!rules.allowed.has(domain))
    throw ValidationError.field(
      'domain',
      'This deployment does not serve this domain: its operator lists the custom domains pages may take (VIGIL_PAGE_DOMAINS; in the cloud -c vigil:pageDomains=).',
    );
  const claim = await getDomainClaim(table, domain);
  if (claim && (claim.tenant_id !== page.tenant_id || claim.slug !== page.slug))
    throw new ConflictError(`the domain ${domain} is taken by another status page`);
  return domain;
}
