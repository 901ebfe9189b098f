/**
 * NATS subjects of the nats channel (DECISIONS.md "Notifications"). Tenants share the operator's
 * one connection, so every publish goes to `<prefix>.<tenant id>.<the channel's subject>`, and a
 * subject that could reach something other than a subscriber is refused: `$…` subjects are the
 * server's own APIs (JetStream's `$JS.API…`, `$SYS…`), `_INBOX…` are other clients' reply
 * subjects, and wildcards only mean something to subscribers. Pure, so configuration (the
 * prefix), channel creation and the sender all apply the same rule.
 */

/** VIGIL_NATS_PREFIX's default: the first token of every published subject. */
export const DEFAULT_NATS_PREFIX = 'vigil';

/** Why `subject` cannot be published to (a sentence for a `config.subject` error), or undefined. */
export function natsSubjectProblem(subject: string): string | undefined {
  if (subject.startsWith('$'))
    return 'Do not start with $: such subjects are the NATS server’s own APIs, such as $JS.API.';
  if (subject.startsWith('_INBOX'))
    return 'Do not start with _INBOX: such subjects are other clients’ reply subjects.';
  const tokens = subject.split('.');
  if (tokens.some((token) => token === '')) return 'Use dot-separated tokens, none of them empty.';
  if (tokens.some((token) => token.includes('*') || token.includes('>')))
    return 'Leave out the wildcards * and >: a subject to publish to is exact.';
  if (!/^[\x21-\x7e]+$/.test(subject)) return 'Use printable ASCII without spaces.';
  return undefined;
}

/** The subject a channel's events are published to, and the one its consumer subscribes to. */
export function publishedSubject(prefix: string, tenantId: string, subject: string): string {
  return `${prefix}.${tenantId}.${subject}`;
}
