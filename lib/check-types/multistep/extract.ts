import type { IncomingHttpHeaders } from 'node:http';
import { parseSetCookie } from 'cookie';
import { compileWith, parseJsonPath } from '../../domain/assertions.ts';
import { walkJson } from '../../probes/assertions.ts';
import { patternEngine } from '../../probes/pattern-engine.ts';
import type { MultistepStep } from './multistep-schema.ts';

/** One extraction of a step (json_body, header, body_regex or cookie). */
type Extraction = NonNullable<MultistepStep['extract']>[string];

/** The response a step's extractions read: its headers and the bounded body prefix it kept. */
export interface ExtractedResponse {
  headers: IncomingHttpHeaders;
  body: string;
}

/** Text of an extracted value: strings as they are, anything else as JSON. */
function text(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
}

function fromJson(body: string, path: string): string | undefined {
  const segments = parseJsonPath(path);
  if (!segments) return undefined;
  try {
    const value = walkJson(JSON.parse(body), segments);
    return value === undefined ? undefined : text(value);
  } catch {
    return undefined;
  }
}

function fromCookie(headers: IncomingHttpHeaders, name: string): string | undefined {
  for (const line of headers['set-cookie'] ?? []) {
    const cookie = parseSetCookie(line);
    if (cookie.name === name) return cookie.value;
  }
  return undefined;
}

/**
 * The value an extraction finds in a response, or why it found none (a sentence). A body_regex
 * runs on RE2 (linear in the body); its first capture group is the value, or the whole match.
 * The caller has loaded the pattern engine when a step has a body_regex (loadPatternEngine).
 */
export function extract(
  extraction: Extraction,
  response: ExtractedResponse,
): { value: string } | { error: string } {
  switch (extraction.source) {
    case 'json_body': {
      const value = fromJson(response.body, extraction.path);
      return value === undefined ? { error: `json ${extraction.path} is missing` } : { value };
    }
    case 'header': {
      const raw = response.headers[extraction.name.toLowerCase()];
      const value = Array.isArray(raw) ? raw.join(', ') : raw;
      return value === undefined ? { error: `header ${extraction.name} is missing` } : { value };
    }
    case 'cookie': {
      const value = fromCookie(response.headers, extraction.name);
      return value === undefined ? { error: `cookie ${extraction.name} is not set` } : { value };
    }
    case 'body_regex': {
      const pattern = compileWith(patternEngine(), extraction.pattern);
      if (typeof pattern === 'string') return { error: `pattern refused: ${pattern.replace(/\.$/, '')}` };
      const matcher = pattern.matcher(response.body);
      if (!matcher.find()) return { error: 'the body does not match the pattern' };
      const value = matcher.groupCount() >= 1 ? matcher.group(1) : matcher.group(0);
      return value === null ? { error: 'the pattern matched without its group' } : { value };
    }
  }
}
