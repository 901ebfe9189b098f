import { type Redact, secretRedactor, urlSecrets } from '../../domain/redaction.ts';
import type { ActionRecord } from '../items/action-items.ts';

/**
 * What an execution may store of a send (docs/actions.md "Executions"): the action's header values,
 * its URL's credentials and the callback token are hidden in the snippet and the message, as
 * written and in every encoding lib/domain/redaction/secret-redaction.ts knows, so a receiver that echoes
 * the request shows them to no one who reads the execution (API, console, MCP).
 */
export function actionRedactor(action: Pick<ActionRecord, 'headers' | 'url'>, callbackToken: string): Redact {
  return secretRedactor([...Object.values(action.headers), ...urlSecrets(action.url), callbackToken]);
}

/** The texts a send produced, redacted: the one step between the send and the stored execution. */
export function redactDispatch<T extends { response_snippet: string | null; error_message: string | null }>(
  dispatch: T,
  redact: Redact,
): T {
  return {
    ...dispatch,
    response_snippet: dispatch.response_snippet === null ? null : redact(dispatch.response_snippet),
    error_message: dispatch.error_message === null ? null : redact(dispatch.error_message),
  };
}
