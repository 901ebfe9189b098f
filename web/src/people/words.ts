/**
 * What the sign-in page says when single sign-on came back with `/sign-in?error=<code>`. The code
 * is the server's short word, never the provider's text; an unknown one gets the general sentence.
 */
const SSO_FAILURES: Record<string, string> = {
  sso_not_configured:
    'That team has no single sign-on set up (or no team goes by that name). Check the team name with your admin, or sign in with your password.',
  invalid_next:
    'The page to return to was not a page of this console, so the sign-in was not started. Start again.',
  unknown_host:
    'This address is not one Vigil answers on. Open the console at its usual address and start again.',
  provider_unavailable: 'Your identity provider could not be reached. Try again in a moment.',
  provider_denied: 'Your identity provider did not sign you in.',
  invalid_state: 'The sign-in took too long, was already used or was started in another window. Start again.',
  token_refused:
    'Your identity provider’s answer could not be verified, so you are not signed in. Try again; if it keeps failing, ask an admin of your team.',
  email_unverified:
    'Your identity provider has not verified your e-mail address, so Vigil cannot sign you in with it.',
  invalid_email:
    'Your identity provider gave an e-mail that is not a valid address, so Vigil cannot sign you in with it. Ask an admin of your team.',
  domain_not_allowed:
    'Your e-mail address is not in a domain this team signs in with. Ask an admin of your team.',
  account_disabled: 'This account is disabled. Ask the operator of this Vigil.',
};

/** The sign-in page's sentence for an SSO error code. */
export function ssoFailure(code: string): string {
  return (
    SSO_FAILURES[code] ??
    'Single sign-on did not complete. Try again, or sign in with your password; if it keeps failing, ask an admin of your team.'
  );
}

/** A session's device in words, from its user agent (the browser and system, when they can be told). */
export function deviceWords(userAgent: string | null | undefined): string {
  if (!userAgent) return 'Unknown device';
  const browser = /Edg\//.test(userAgent)
    ? 'Edge'
    : /Firefox\//.test(userAgent)
      ? 'Firefox'
      : /Chrom(e|ium)\//.test(userAgent)
        ? 'Chrome'
        : /Safari\//.test(userAgent)
          ? 'Safari'
          : undefined;
  const system = /Windows/.test(userAgent)
    ? 'Windows'
    : /Android/.test(userAgent)
      ? 'Android'
      : /iPhone|iPad/.test(userAgent)
        ? 'iOS'
        : /Mac OS X/.test(userAgent)
          ? 'macOS'
          : /Linux/.test(userAgent)
            ? 'Linux'
            : undefined;
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? system ?? userAgent.slice(0, 60);
}
