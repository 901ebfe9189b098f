import type { Caller } from '../../auth/limits.ts';

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
   * SSO pages: the console session the request's cookie carries (its tenant and how it signed
   * in), or undefined for none, an unknown or an expired one.
   */
  sessionOf(
    headers: Record<string, string>,
  ): Promise<{ tenantId: string; signedInWith: 'password' | 'sso' } | undefined>;
  /** Whether the tenant has SSO set up (a page may be `sso` only then). */
  ssoConfigured(tenantId: string): Promise<boolean>;
}
