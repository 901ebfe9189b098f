/** What every redacted secret reads in a response (docs/api.md "Redaction"): one mask, whatever its length was. */
export const REDACTED = '********';
