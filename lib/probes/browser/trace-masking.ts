import { unzipSync, zipSync } from 'fflate';
import { REDACTED, secretForms } from '../../domain/redaction.ts';

/**
 * A browser run's Playwright trace with the check's secrets masked, inside the runner's child
 * before the trace leaves it: a trace holds what was typed (a fill's value in its action), what
 * was sent (form-encoded and JSON request bodies) and what the page showed (DOM snapshots keep
 * an input's value as an attribute). Every entry of the zip is rewritten, its bytes searched for
 * each secret as written and in the forms result redaction hides (JSON-, URL- and HTML-escaped,
 * hex, base64: lib/domain/redaction), each replaced by `********`.
 */

/** The largest trace a result keeps (after masking); a larger one is left out and the result says so. */
const MAX_TRACE_BYTES = 10 * 1024 * 1024;

const MASK = Buffer.from(REDACTED, 'utf8');

/** `bytes` with every occurrence of each needle (longest first) replaced by the mask. */
function maskBytes(bytes: Uint8Array, needles: readonly Buffer[]): Uint8Array {
  let data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (const needle of needles) {
    let at = data.indexOf(needle);
    if (at < 0) continue;
    const parts: Buffer[] = [];
    let from = 0;
    for (; at >= 0; at = data.indexOf(needle, from)) {
      parts.push(data.subarray(from, at), MASK);
      from = at + needle.length;
    }
    parts.push(data.subarray(from));
    data = Buffer.concat(parts);
  }
  return data;
}

/** The trace zip with each entry's secrets masked (entries and their names kept). */
function maskTrace(zip: Uint8Array, secrets: readonly string[]): Uint8Array {
  const needles = secretForms(secrets).map((form) => Buffer.from(form, 'utf8'));
  if (needles.length === 0) return zip;
  const entries = unzipSync(zip);
  const masked = Object.fromEntries(
    Object.entries(entries).map(([name, bytes]) => [name, maskBytes(bytes, needles)]),
  );
  return zipSync(masked);
}

/** What a run answers of its recorded trace: the masked zip (base64), or why it was left out. */
export function keptTrace(
  zip: Uint8Array,
  secrets: readonly string[],
  maxBytes = MAX_TRACE_BYTES,
): { trace: string } | { trace_left_out: string } {
  const masked = maskTrace(zip, secrets);
  if (masked.byteLength > maxBytes)
    return {
      trace_left_out: `the trace (${megabytes(masked.byteLength)}) was larger than the ${megabytes(maxBytes)} a result keeps and was left out`,
    };
  return { trace: Buffer.from(masked).toString('base64') };
}

const megabytes = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
