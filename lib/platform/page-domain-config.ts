import * as z from 'zod';
import { hostnameOf, pageDomainProblem } from '../domain/formats.ts';

/**
 * The custom domains status pages may answer on (docs/status-pages.md "Custom domains"), parsed
 * with the rest of the environment by config.ts (the only reader of process.env), kept here so that
 * file stays small. The operator lists the names whose DNS (and, in the cloud, certificate) they
 * set up; a tenant claims one of them for a page. A name on the list is never the API's or the
 * console's: every request under it is a page's (lib/status-pages/domains).
 */
/** A comma-separated list, blanks dropped. */
export const commaList = (value: string) =>
  value.split(',').flatMap((v) => (v.trim() === '' ? [] : [v.trim()]));

export const pageDomainsEnv = {
  VIGIL_PAGE_DOMAINS: z
    .string()
    .default('')
    .transform(commaList)
    .pipe(
      z
        .array(
          z.string().superRefine((value, ctx) => {
            const problem = pageDomainProblem(value);
            if (problem) ctx.addIssue({ code: 'custom', message: `${value}: ${problem}` });
          }),
        )
        .max(100, 'at most 100 domains (a CloudFront distribution takes 100 alternate names)'),
    ),
};

export interface PageDomains {
  /** VIGIL_PAGE_DOMAINS: the host names a status page may claim as its custom domain (lower case). */
  pageDomains: string[];
}

/** The settings, or the problem: a listed domain that is the deployment's own host. */
export function pageDomainsOf(e: {
  VIGIL_PAGE_DOMAINS: string[];
  VIGIL_PUBLIC_URL?: string | undefined;
  VIGIL_ALLOWED_HOSTS: string[];
}): PageDomains {
  const own = new Set(
    [
      ...e.VIGIL_ALLOWED_HOSTS,
      ...(e.VIGIL_PUBLIC_URL && URL.canParse(e.VIGIL_PUBLIC_URL) ? [new URL(e.VIGIL_PUBLIC_URL).host] : []),
    ].flatMap((host) => hostnameOf(host) ?? []),
  );
  const clash = e.VIGIL_PAGE_DOMAINS.find((domain) => own.has(domain));
  if (clash !== undefined)
    throw new Error(
      `invalid configuration:\n  VIGIL_PAGE_DOMAINS: ${clash} is this deployment's own host (VIGIL_PUBLIC_URL or VIGIL_ALLOWED_HOSTS): the API and console answer there, never a status page`,
    );
  return { pageDomains: [...new Set(e.VIGIL_PAGE_DOMAINS)] };
}
