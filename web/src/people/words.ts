/**
 * What the sign-in page says when single sign-on came back with `/sign-in?error=<code>`. The code
 * is the server's short word, never the provider's text; an unknown one gets the general sentence.
 */
const SSO_FAILURES: Record<string, string> = {
  domain: 'Your e-mail address is not in a domain this team signs in with. Ask an admin of the team.',
  email_unverified:
    'Your identity provider has not verified your e-mail address, so Vigil cannot sign you in with it.',
  not_configured:
    'That team has no single sign-on set up. Check the team name, or sign in with your password.',
  unknown_team: 'No team goes by that name. Check the team name with your admin.',
  state: 'The sign-in took too long or was started in another window. Start again.',
  denied: 'The identity provider did not sign you in.',
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
