import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createActionBody } from '../../lib/actions/api/request-schemas.ts';
import { createCheckBody } from '../../lib/checks/check-input.ts';
import { checkFieldDefinition, newFieldDefinitionSchema } from '../../lib/domain/catalog/blueprint-fields.ts';
import { FIELD_TYPES } from '../../lib/domain/catalog/field-values.ts';
import {
  HTTP_TOPIC_URL_PATTERN,
  HTTP_URL_PATTERN,
  TEMPLATED_URL_PATTERN,
} from '../../lib/domain/formats/url-patterns.ts';
import { parseHttpUrl } from '../../lib/egress/egress-guard.ts';
import { channelInputSchema } from '../../lib/notify/api-schemas/channel-config.ts';

/**
 * The patterns the OpenAPI document shows must never allow what the server refuses: every string
 * a pattern matches passes the server's own schema (the promise of lib/domain/formats/url-patterns.ts).
 */
const RUNS = { numRuns: 300, seed: 24 };
const matching = (pattern: string, max = 2048) =>
  fc.stringMatching(new RegExp(pattern, 'u')).filter((s) => s.length <= max);
const ENTITY = 'ent_01JT0000000000000000000000';
/** The JSON Schema pattern the document shows for `schema` at `path` (properties only). */
const documented = (schema: z.ZodType) =>
  JSON.stringify(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }));

describe('URL patterns of the OpenAPI document', () => {
  it("accepts as a channel URL every string the http(s) pattern matches (where it may point is the guard's)", () => {
    fc.assert(
      fc.property(matching(HTTP_URL_PATTERN), (url) => {
        const parsed = channelInputSchema.safeParse({ channel_type: 'webhook', config: { url } });
        expect(parsed.error?.issues ?? []).toEqual([]);
      }),
      RUNS,
    );
  });

  it('accepts as an ntfy topic URL every string the topic pattern matches', () => {
    fc.assert(
      fc.property(matching(HTTP_TOPIC_URL_PATTERN), (url) => {
        const parsed = channelInputSchema.safeParse({ channel_type: 'ntfy', config: { url } });
        expect(parsed.error?.issues ?? []).toEqual([]);
      }),
      RUNS,
    );
  });

  it('accepts as an http check target every string the http pattern matches', () => {
    fc.assert(
      fc.property(matching(HTTP_URL_PATTERN), (url) => {
        const parsed = createCheckBody.safeParse({ entity_id: ENTITY, check_type: 'http', target_url: url });
        expect(parsed.error?.issues ?? []).toEqual([]);
      }),
      RUNS,
    );
  });

  it('accepts as an action URL every string the templated pattern matches, parsing it when its host is plain', () => {
    fc.assert(
      fc.property(matching(TEMPLATED_URL_PATTERN), (url) => {
        const parsed = createActionBody.safeParse({ name: 'A', url });
        expect(parsed.error?.issues ?? []).toEqual([]);
        const authority = url.replace(/^https?:\/\//, '').split(/[/?#]/, 1)[0] ?? '';
        // A host without placeholders is parsed at create (action-service.ts; where it resolves to
        // is the SSRF guard's business, which no document can state).
        if (!authority.includes('{{')) expect(parseHttpUrl(url).hostname).not.toBe('');
      }),
      RUNS,
    );
  });

  it('refuses what the server refuses: another scheme, a host ending in digits, a bare topic host', () => {
    const http = new RegExp(HTTP_URL_PATTERN, 'u');
    expect(http.test('https://hooks.slack.com/services/T0/B0/x')).toBe(true);
    expect(http.test('ftp://hooks.slack.com/services/T0/B0/x')).toBe(false);
    expect(http.test('https://1.2.3.999/')).toBe(false);
    expect(http.test('https://xn--a.example/')).toBe(false);
    expect(new RegExp(HTTP_TOPIC_URL_PATTERN, 'u').test('https://ntfy.sh/')).toBe(false);
    expect(new RegExp(HTTP_TOPIC_URL_PATTERN, 'u').test('https://ntfy.sh/..')).toBe(false);
    expect(documented(channelInputSchema)).toContain(JSON.stringify(HTTP_URL_PATTERN));
    expect(documented(channelInputSchema)).toContain(JSON.stringify(HTTP_TOPIC_URL_PATTERN));
  });

  it("accepts as a nats subject every string the document's subject pattern matches", () => {
    const json = z.toJSONSchema(channelInputSchema, { io: 'input', unrepresentable: 'any' });
    const subject = z
      .object({ oneOf: z.array(z.any()) })
      .parse(json)
      .oneOf.find((option) => option.properties.channel_type.const === 'nats').properties.config.properties
      .subject.pattern;
    fc.assert(
      fc.property(matching(subject, 255), (value) => {
        const parsed = channelInputSchema.safeParse({ channel_type: 'nats', config: { subject: value } });
        expect(parsed.error?.issues ?? []).toEqual([]);
      }),
      RUNS,
    );
    expect(new RegExp(subject, 'u').test('alerts.>')).toBe(false);
    expect(new RegExp(subject, 'u').test('$JS.API.STREAM.PURGE.x')).toBe(false);
  });

  it.each(FIELD_TYPES)(
    'accepts every %s default_value the document pattern matches, and it parses',
    (type) => {
      const json = z.toJSONSchema(newFieldDefinitionSchema, { io: 'input', unrepresentable: 'any' });
      const option = z
        .object({ oneOf: z.array(z.any()) })
        .parse(json)
        .oneOf.find((o) => o.properties.field_type.const === type);
      const pattern: string | undefined = option.properties.default_value.pattern;
      if (type === 'string') {
        expect(pattern).toBeUndefined();
        return;
      }
      fc.assert(
        fc.property(matching(pattern ?? '', 4096), (value) => {
          const parsed = newFieldDefinitionSchema.safeParse({
            name: 'f',
            field_type: type,
            default_value: value,
          });
          expect(parsed.error?.issues ?? []).toEqual([]);
          // The rule itself: the value parses as its type (blueprint-service.ts refuses it otherwise).
          if (parsed.success) expect(checkFieldDefinition(parsed.data)).toEqual([]);
        }),
        { ...RUNS, numRuns: 100 },
      );
    },
  );
});
