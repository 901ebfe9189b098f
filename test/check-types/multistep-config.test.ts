import { describe, expect, it } from 'vitest';
import { multistepCheckType } from '../../lib/check-types/multistep/multistep.ts';
import { multistepInput } from '../../lib/check-types/multistep/multistep-schema.ts';

/** A multistep check's config at the API: every refusal names its field in a sentence. */

const step = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  url: 'https://api.example.com/x',
  ...extra,
});

/** The issues of a config the schema refuses, as `path: message`. */
function refusals(config: unknown): string[] {
  const parsed = multistepInput.safeParse(config);
  if (parsed.success) throw new Error('the config was accepted');
  return parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
}

describe('multistep config', () => {
  it('accepts 10 steps and refuses 11', () => {
    const ten = Array.from({ length: 10 }, (_, i) => step(`s${i}`));
    expect(multistepInput.safeParse({ steps: ten }).success).toBe(true);
    expect(refusals({ steps: [...ten, step('s10')] })).toEqual(['steps: Use at most 10 steps.']);
  });

  it('refuses references to a missing variable, a later step, or a value no step extracts', () => {
    expect(
      refusals({
        variables: { user: { value: 'ada' } },
        steps: [
          step('login', {
            body: '{{variables.pass}}',
            extract: { token: { source: 'json_body', path: '$.token' } },
          }),
          step('me', { headers: { authorization: 'Bearer {{steps.login.tokn}}' } }),
          step('early', { url: 'https://api.example.com/{{steps.late.id}}' }),
          step('late', { extract: { id: { source: 'header', name: 'x-id' } } }),
          step('odd', { body: '{{ env.HOME }}' }),
        ],
      }),
    ).toEqual([
      'steps.0.body: {{variables.pass}}: no variable is named "pass".',
      'steps.1.headers.authorization: {{steps.login.tokn}}: no earlier step "login" extracts "tokn".',
      'steps.2.url: {{steps.late.id}}: no earlier step "late" extracts "id".',
      'steps.4.body: {{ env.HOME }} is not a reference: use {{variables.<name>}} or {{steps.<step>.<value>}}.',
    ]);
  });

  it('refuses duplicate step names, bad names, bad urls, extractions and assertions, naming each field', () => {
    expect(
      refusals({
        steps: [
          step('a'),
          step('has space'),
          step('b', { url: 'ftp://example.com/' }),
          step('c', { extract: { v: { source: 'json_body', path: 'token' } } }),
          step('d', { extract: { v: { source: 'xpath', path: '/a' } } }),
          step('e', { assertions: [{ source: 'json', op: 'eq', value: 1 }] }),
        ],
      }),
    ).toEqual([
      'steps.1.name: Use a letter or "_" then letters, digits or "_" (64 characters at most).',
      'steps.2.url: Enter an absolute http:// or https:// URL (references may follow the host).',
      'steps.3.extract.v.path: Enter a json path in dotted form, such as $.data.items[0].status.',
      'steps.4.extract.v.source: Use {source: json_body, path}, {source: header, name}, {source: body_regex, pattern} or {source: cookie, name}.',
      // As the http check's API says it: the union names the assertion, then its field.
      'steps.5.assertions.0: path: Enter a path for json assertions.',
    ]);
    expect(refusals({ steps: [step('a'), step('a')] })).toEqual(['steps.1.name: Another step is named "a".']);
  });

  it('keeps messages bounded: a huge config is refused by its limits, not echoed', () => {
    const messages = refusals({
      steps: [step('a', { body: 'x'.repeat(70_000), headers: { h: 'y'.repeat(9000) } })],
    });
    expect(messages).toEqual([
      'steps.0.headers.h: Too big: expected string to have <=8192 characters',
      'steps.0.body: Send a body of 64 KiB or less.',
    ]);
    for (const message of messages) expect(message.length).toBeLessThan(200);
  });
});

describe('secret variables', () => {
  const stored = multistepInput.parse({
    variables: { pass: { value: 'hunter2', secret: true }, user: { value: 'ada' } },
    steps: [step('login', { body: '{{variables.user}}:{{variables.pass}}' })],
  });

  it('read back as ******** and are the secrets results hide', () => {
    expect(multistepCheckType.present?.(stored, { readOnly: false })).toMatchObject({
      variables: { pass: { value: '********', secret: true }, user: { value: 'ada' } },
    });
    expect(multistepCheckType.secrets?.(stored)).toEqual(['hunter2']);
  });

  it('keep their stored value on ******** while the steps go to the same origins, and not after', () => {
    const echo = { variables: { pass: { value: '********', secret: true } }, steps: stored.steps };
    expect(multistepCheckType.keep?.(echo, stored)).toMatchObject({
      variables: { pass: { value: 'hunter2' } },
    });
    const moved = { ...echo, steps: [step('login', { url: 'https://elsewhere.example/x' })] };
    expect(() => multistepCheckType.keep?.(moved, stored)).toThrow(/origins change/);
  });
});
