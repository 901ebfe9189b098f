import type { Caller } from '../../auth/limits.ts';

/** A console session as an SSO page's gate sees it. */
interface PageReader {
  tenantId: string;
  userId: string;
  sessionId: string;
  signedInWith: 'password' | 'sso';
}

/**
 * What a page's password needs from outside status-pages, given by the composition root (people
 * owns passwords and the sign-in limits; importing it here would close a folder cycle).
 */
export interface PageAccessPorts {
  /** The failed sign-in limits: a wrong page password counts as a failed authentication. */
  limits: {
    attempt<T>(
      caller: Caller,
      credentialId: string,
      verify: () => Promise<T>,
      isWrong: (error: unknown) => boolean,
    ): Promise<T>;
    /** The same guesses of one page over every address together: the per-page ceiling. */
    attemptAcrossAddresses<T>(
      credentialId: string,
      verify: () => Promise<T>,
      isWrong: (error: unknown) => boolean,
    ): Promise<T>;
  };
  /** Hashed as people's passwords are (scrypt); `dummyHash` is no one's, for unknown pages. */
  passwords: {
    hash(password: string): Promise<string>;
    verify(password: string, stored: string): Promise<boolean>;
    dummyHash: string;
  };
  /** Whether the request came over https (the cookie's Secure). */
  secureRequest(headers: Record<string, string>): boolean;
  /**
   * SSO pages: the console session the request's cookie carries (its tenant, person, id and how it
   * signed in), or undefined for none, an unknown or an expired one.
   */
  sessionOf(headers: Record<string, string>): Promise<PageReader | undefined>;
  /**
   * SSO pages on a custom domain: the live console session its cookie names (read on every
   * request, so its end shuts the page at once), with when it ends; undefined when it is gone,
   * expired, or its person or account is.
   */
  sessionById(ref: {
    tenantId: string;
    userId: string;
    sessionId: string;
  }): Promise<(PageReader & { expiresAtMs: number }) | undefined>;
  /** Whether the tenant has SSO set up (a page may be `sso` only then). */
  ssoConfigured(tenantId: string): Promise<boolean>;
}
