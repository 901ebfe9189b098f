import { describe, expect, it } from 'vitest';
import {
  describeAlert,
  messageFor,
  plainText,
  templateValues,
} from '../../../lib/notify/channels/message.ts';
import {
  FIELD_NAMES,
  MAX_TEMPLATE_BODY,
  MAX_TEMPLATE_TITLE,
  messageTemplateSchema,
  parseTemplate,
  renderTemplate,
  type TemplateValues,
  templateProblems,
} from '../../../lib/notify/channels/template.ts';
import { sampleAlert as madeUpAlert } from '../../../lib/notify/channels/template-sample.ts';
import { sampleAlert } from './alert-fixture.ts';

const values = (overrides: Partial<TemplateValues> = {}): TemplateValues => ({
  ...templateValues(sampleAlert(), describeAlert(sampleAlert(), undefined), undefined),
  ...overrides,
});

describe('renderTemplate', () => {
  it('fills each {{field}}, with or without spaces inside the braces', () => {
    expect(renderTemplate('{{entity_name}} went {{ from_state }} → {{to_state}}', values())).toBe(
      'Payments API went up → down',
    );
  });

  it('keeps a {{#field}} section only when the field is set and a {{^field}} one only when it is empty', () => {
    const source =
      '{{#last_error}}Error: {{last_error}}{{/last_error}}{{^last_error}}No error{{/last_error}}';
    expect(renderTemplate(source, values())).toBe('Error: the endpoint answered 503');
    expect(renderTemplate(source, values({ last_error: '' }))).toBe('No error');
  });

  it('fills {{reason}} with why the alert was sent, redacted as the alert carries it, empty without one', () => {
    const alert = { ...sampleAlert(), reason: 'expected status 200, got 500' };
    const filled = templateValues(alert, describeAlert(alert, undefined), undefined);
    expect(renderTemplate('Why: {{reason}}', filled)).toBe('Why: expected status 200, got 500');
    const none = { ...sampleAlert(), reason: null };
    expect(
      renderTemplate(
        '{{^reason}}no reason{{/reason}}',
        templateValues(none, describeAlert(none, undefined), undefined),
      ),
    ).toBe('no reason');
  });

  it('nests sections', () => {
    const source = '{{#link}}[{{#last_error}}x{{/last_error}}{{link}}]{{/link}}';
    expect(renderTemplate(source, values({ link: 'L' }))).toBe('[xL]');
    expect(renderTemplate(source, values({ link: 'L', last_error: '' }))).toBe('[L]');
    expect(renderTemplate(source, values({ link: '' }))).toBe('');
  });

  it('inserts values as plain text, never as template or markup', () => {
    const out = renderTemplate('{{entity_name}}!', values({ entity_name: '{{to_state}} <b>*x*</b>' }));
    expect(out).toBe('{{to_state}} <b>*x*</b>!');
  });
});

describe('parseTemplate', () => {
  it('refuses unknown fields in one sentence that names them and lists the known ones', () => {
    const parsed = parseTemplate('{{entity}} {{#oops}}x{{/oops}} {{entity}}');
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    // As many known fields as an error detail holds (200 characters), the most used first.
    expect(parsed.problems).toEqual([
      '{{entity}}, {{oops}} are not fields: use entity_name, check_name, to_state, from_state, last_error, link, time, kind, check_label, headline, note, down_for, unacknowledged_for, also_failing, …',
    ]);
    const one = parseTemplate('{{entity.name}}');
    expect(one.ok ? [] : one.problems[0]).toMatch(/^\{\{entity\.name\}\} is not a field: use entity_name, /);
    const many = parseTemplate(`{{a}}{{b}}{{c}}{{d}}{{e}}{{${'x'.repeat(300)}}}`);
    expect(many.ok ? '' : many.problems[0]).toMatch(
      /^\{\{a\}\}, \{\{b\}\}, \{\{c\}\} and 3 more are not fields: use entity_name, /,
    );
    expect(many.ok ? 0 : many.problems[0]?.length).toBeLessThanOrEqual(200);
    const long = parseTemplate(`{{${'x'.repeat(300)}}}`);
    expect(long.ok ? '' : long.problems[0]).toMatch(
      /^\{\{x{31}…\}\} is not a field: use entity_name, .*, …$/,
    );
  });

  it('refuses an unclosed section, a stray close, a crossed close and a {{ that opens nothing', () => {
    const problems = (source: string) => {
      const parsed = parseTemplate(source);
      return parsed.ok ? [] : parsed.problems;
    };
    expect(problems('{{#link}}x')).toEqual(['{{#link}} is never closed: end it with {{/link}}.']);
    expect(problems('x{{/link}}')).toEqual([
      '{{/link}} closes no section: open it with {{#link}} or {{^link}}.',
    ]);
    expect(problems('{{#link}}{{#note}}{{/link}}{{/note}}')).toContain(
      '{{/link}} closes no open section: close {{#note}} with {{/note}} first.',
    );
    expect(problems('a {{{entity_name}}} b')[0]).toMatch(/^“\{\{\{entity_name\}\}\} b” starts no field/);
    expect(problems('{{!comment}}')[0]).toMatch(/starts no field/);
  });

  it('accepts every documented field and text with single braces', () => {
    const source = FIELD_NAMES.map((name) => `{{${name}}}`).join(' { } ');
    expect(parseTemplate(source).ok).toBe(true);
  });
});

describe('messageTemplateSchema', () => {
  it('refuses an empty template, empty strings, unknown fields and oversized parts by path', () => {
    const issues = (input: unknown) => {
      const result = messageTemplateSchema.safeParse(input);
      return result.success ? [] : result.error.issues.map((i) => [i.path.join('.'), i.message]);
    };
    expect(
      issues({
        title: '{{entity_name}} is {{to_state}}',
        body: '{{#last_error}}{{last_error}}{{/last_error}}',
      }),
    ).toEqual([]);
    expect(issues({})).toEqual([['', 'Give a title, a body or both (or leave the template out).']]);
    expect(issues({ title: '' })[0]).toEqual(['title', 'Enter a title template, or leave the title out.']);
    expect(issues({ body: 'x {{nope}}' })).toEqual([
      [
        'body',
        '{{nope}} is not a field: use entity_name, check_name, to_state, from_state, last_error, link, time, kind, check_label, headline, note, down_for, unacknowledged_for, also_failing, entity_slug, …',
      ],
    ]);
    expect(issues({ title: 'x'.repeat(MAX_TEMPLATE_TITLE + 1) })).toEqual([
      [
        'title',
        `Enter a title of at most ${MAX_TEMPLATE_TITLE} characters (this one has ${MAX_TEMPLATE_TITLE + 1}).`,
      ],
    ]);
    expect(templateProblems({ body: 'x'.repeat(MAX_TEMPLATE_BODY) })).toEqual([]);
    expect(issues({ title: 'x', color: 'red' })).toHaveLength(1);
  });
});

describe('messageFor', () => {
  it('answers describeAlert’s message for a channel without a template', () => {
    const alert = sampleAlert();
    expect(messageFor({}, alert, undefined)).toEqual(describeAlert(alert, undefined));
  });

  it('uses the rendered title and body, keeping the link and the tone', () => {
    const alert = sampleAlert();
    const message = messageFor(
      {
        template: {
          title: '🔥 {{entity_name}}\n is {{to_state}}',
          body: '{{check_name}} failed: {{last_error}}\n',
        },
      },
      alert,
      'https://vigil.example.com',
    );
    expect(message).toEqual({
      title: '🔥 Payments API is down',
      note: 'Payments health failed: the endpoint answered 503',
      facts: [],
      link: 'https://vigil.example.com/entities/service/payments-api',
      tone: 'down',
    });
  });

  it('keeps the default title with only a body, and the default body with only a title', () => {
    const alert = sampleAlert();
    const byDefault = describeAlert(alert, undefined);
    expect(messageFor({ template: { body: 'B {{kind}}' } }, alert, undefined)).toMatchObject({
      title: byDefault.title,
      note: 'B alert',
      facts: [],
    });
    expect(messageFor({ template: { title: 'T' } }, alert, undefined)).toEqual({ ...byDefault, title: 'T' });
    // A title or a body that renders empty falls back to the default.
    const empty = messageFor(
      { template: { title: '{{note}}', body: '{{^last_error}}x{{/last_error}}' } },
      alert,
      undefined,
    );
    expect(empty).toEqual(byDefault);
  });

  it('fills {{evidence}} with the failing result’s console page, empty without one or without a public URL', () => {
    const template = { body: '{{check_name}}.{{#evidence}} Evidence: {{evidence}}{{/evidence}}' };
    const scripted = sampleAlert({ evidenceResultId: 'res_01JFAILED' });
    expect(messageFor({ template }, scripted, 'https://vigil.example.com/').note).toBe(
      'Payments health. Evidence: https://vigil.example.com/checks/chk_01JTEST?result=res_01JFAILED',
    );
    expect(messageFor({ template }, scripted, undefined).note).toBe('Payments health.');
    expect(messageFor({ template }, sampleAlert(), 'https://vigil.example.com').note).toBe(
      'Payments health.',
    );
  });

  it('fills the duration words of repeats and escalations and the headline and note', () => {
    const repeat = sampleAlert({ kind: 'repeat', downForSeconds: 7500 });
    expect(
      messageFor({ template: { title: '{{headline}} ({{down_for}})', body: '{{note}}' } }, repeat, undefined),
    ).toMatchObject({
      title: 'Payments API is still down for 2 h 5 min (2 h 5 min)',
      note: 'Repeat: down for 2 h 5 min, not resolved yet.',
    });
    const escalation = sampleAlert({
      kind: 'escalation',
      unacknowledgedMinutes: 15,
      unacknowledgedSeconds: 900,
    });
    expect(
      messageFor({ template: { title: '{{kind}} after {{unacknowledged_for}}' } }, escalation, undefined)
        .title,
    ).toBe('escalation after 15 min');
    expect(
      messageFor({ template: { title: '[{{down_for}}{{unacknowledged_for}}]' } }, sampleAlert(), undefined)
        .title,
    ).toBe('[]');
  });

  it('says a test is one, and renders a shared channel’s test attached to no check with the made-up event', () => {
    const test = sampleAlert({ kind: 'test' });
    const message = messageFor({ template: { title: '{{entity_name}}', body: 'B' } }, test, undefined);
    expect(message.title).toBe('Test: Payments API');
    expect(message.note).toBe('This is a test message from Vigil: nothing changed.\n\nB');
    const unattached = sampleAlert(
      { kind: 'test', entity: { id: '', name: 'Vigil', blueprint_slug: '', slug: '' } },
      { check_id: '', entity_name: 'Vigil' },
    );
    const shared = messageFor(
      { template: { title: '{{entity_name}} is {{to_state}}', body: '{{check_label}} {{link}}' } },
      unattached,
      'https://vigil.example.com',
    );
    expect(shared.title).toBe('Test: Checkout API is down');
    expect(shared.note).toMatch(
      /made-up event \(Checkout API\): nothing changed\.\n\nGET https:\/\/api\.example\.com\/health$/,
    );
    expect(shared.link).toBeUndefined();
    const titleOnly = messageFor({ template: { title: 'T' } }, unattached, undefined);
    expect(plainText(titleOnly, true)).toContain('made-up event');
    expect(plainText(titleOnly, true)).toContain('Check: Health endpoint');
  });
});

describe('sampleAlert (template-sample.ts)', () => {
  it('makes each kind and state of the made-up event', () => {
    expect(madeUpAlert({ kind: 'recovery', to_state: 'down', timestamp: 't' }).event).toMatchObject({
      from_state: 'down',
      to_state: 'up',
    });
    expect(madeUpAlert({ to_state: 'degraded', timestamp: 't' })).toMatchObject({
      kind: 'alert',
      event: { from_state: 'up', to_state: 'degraded' },
    });
    const message = messageFor(
      { template: { title: '{{kind}}: {{entity_name}} {{down_for}}' } },
      madeUpAlert({ kind: 'repeat', timestamp: 't' }),
      undefined,
    );
    expect(message.title).toBe('repeat: Checkout API 2 h 5 min');
  });
});
