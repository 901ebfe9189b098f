import type { CursorSeal } from '../store/cursor-seal.ts';

/**
 * The link that turns a person's reports off without signing in: the tenant and user sealed
 * (AES-256-GCM under the deployment's secret, lib/store/cursor-seal.ts) for this purpose alone, so
 * nobody can make one for someone else, and it names no id in clear. It keeps working (turning off
 * twice is harmless), so nothing is stored per link.
 */

const PURPOSE = 'report-unsubscribe';

/** The path of a person's unsubscribe link. */
export async function unsubscribePath(
  cursors: CursorSeal,
  tenantId: string,
  userId: string,
): Promise<string> {
  return `/v1/reports/unsubscribe/${await cursors.seal({ t: tenantId, u: userId }, PURPOSE)}`;
}

/** The tenant and user a token was sealed for, or undefined when it was not sealed here for this. */
export async function openUnsubscribeToken(
  cursors: CursorSeal,
  token: string,
): Promise<{ tenantId: string; userId: string } | undefined> {
  if (token.length > 400) return undefined;
  const opened = await cursors.open(token, PURPOSE);
  if (!opened?.t || !opened.u) return undefined;
  return { tenantId: opened.t, userId: opened.u };
}
