import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { defineKind } from '../../lib/config-doc/kind.ts';
import { diffFields } from '../../lib/config-doc/plan/diff.ts';
import {
  MAX_DOCUMENT_BYTES,
  MAX_DOCUMENT_OBJECTS,
  parseDocument,
} from '../../lib/config-doc/plan/document.ts';
import {
  envNameOf,
  exportedSecrets,
  firstEnvReference,
  keepingStoredSecrets,
  resolveEnvReferences,
} from '../../lib/config-doc/secrets.ts';
import { AppError } from '../../lib/platform/errors.ts';

/** Two small kinds: enough lists to name paths, defaults to see applied. */
const kinds = {
  blueprints: defineKind({
    key: 'blueprints',
    noun: 'blueprint',
    schema: z.strictObject({
      slug: z.string().min(1),
      name: z.string(),
      description: z.string().default(''),
    }),
    identity: (doc) => doc.slug,
    references: () => [],
    read: async () => [],
    create: async () => 'x',
    update: async () => undefined,
    remove: async () => undefined,
  }),
  checks: defineKind({
    key: 'checks',
    noun: 'check',
    schema: z.strictObject({
      entity: z.string(),
      name: z.string(),
      config: z.strictObject({ url: z.url(), token: z.string().optional() }),
    }),
    identity: (doc) => `${doc.entity}:${doc.name}`,
    references: () => [],
    read: async () => [],
    create: async () => 'x',
    update: async () => undefined,
    remove: async () => undefined,
  }),
};

const head = { apiVersion: 'vigil/v1', kind: 'Config' };

/** The error a parse throws, with its status and details. */
function refusal(input: unknown): AppError {
  try {
    parseDocument(kinds, input);
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error('the document parsed');
}

describe('configuration documents', () => {
  it('parses YAML and JSON alike, with the API defaults applied', () => {
    const yaml = 'apiVersion: vigil/v1\nkind: Config\nblueprints:\n  - slug: service\n    name: Service\n';
    const json = JSON.stringify({ ...head, blueprints: [{ slug: 'service', name: 'Service' }] });
    for (const input of [yaml, json, Buffer.from(yaml), JSON.parse(json)]) {
      expect(parseDocument(kinds, input)).toEqual({
        lists: { blueprints: [{ slug: 'service', name: 'Service', description: '' }] },
        unmapped: [],
      });
    }
  });

  it('names the path of each bad field, list indices in brackets', () => {
    const error = refusal({
      ...head,
      checks: [
        { entity: 'service/api', name: 'a', config: { url: 'https://example.com' } },
        { entity: 'service/api', name: 'b', config: { url: 'not a url' } },
      ],
    });
    expect(error.status).toBe(400);
    expect(error.details?.map((d) => d.path)).toEqual(['checks[1].config.url']);
  });

  it('says a field refused for holding a ${NAME} the CLI did not fill in needs NAME set', () => {
    const error = refusal({
      ...head,
      checks: [{ entity: 'service/api', name: 'a', config: { url: '${API_URL}', token: '${API_TOKEN}' } }],
    });
    // The url's rule refuses the reference; the token's takes any string, so it is not an issue.
    expect(error.details).toEqual([
      {
        path: 'checks[0].config.url',
        message:
          '${API_URL} was not filled in: set API_URL in the environment of vigil plan and vigil apply, or write the value here.',
      },
    ]);
    expect(error.message).toContain('checks[0].config.url: ${API_URL} was not filled in');
  });

  it('refuses an unknown list, naming it, and a wrong header', () => {
    expect(refusal({ ...head, monitors: [] }).details?.map((d) => d.path)).toEqual(['monitors']);
    expect(refusal({ apiVersion: 'vigil/v2', kind: 'Config' }).details?.map((d) => d.path)).toEqual([
      'apiVersion',
    ]);
    expect(refusal({ apiVersion: 'vigil/v1' }).details?.map((d) => d.path)).toEqual(['kind']);
  });

  it('refuses two objects with one identity, naming both', () => {
    const check = { entity: 'service/api', name: 'home', config: { url: 'https://example.com' } };
    const error = refusal({ ...head, checks: [check, { ...check, name: 'other' }, check] });
    expect(error.status).toBe(400);
    expect(error.details).toEqual([
      { path: 'checks[2]', message: 'checks[0] and checks[2] are both "service/api:home".' },
    ]);
  });

  it('refuses text that is not YAML, more objects than allowed, and aliases past the bound', () => {
    expect(refusal('apiVersion: [unclosed').status).toBe(400);
    const many = Array.from({ length: MAX_DOCUMENT_OBJECTS + 1 }, (_, i) => ({ slug: `b${i}`, name: 'B' }));
    expect(refusal({ ...head, blueprints: many }).message).toContain(`at most ${MAX_DOCUMENT_OBJECTS}`);
    // A "billion laughs": each line doubles the one before through aliases.
    const lines = ['a0: &a0 [x, x]'];
    for (let i = 1; i < 200; i++) lines.push(`a${i}: &a${i} [*a${i - 1}, *a${i - 1}]`);
    expect(refusal(lines.join('\n')).status).toBe(400);
  });

  it('answers 413 for text above the document limit', () => {
    expect(refusal(`# ${'x'.repeat(MAX_DOCUMENT_BYTES)}`).status).toBe(413);
  });
});

describe('environment references', () => {
  const doc = { name: 'ops', config: { token: '${OPS_TOKEN}', url: 'https://x', list: ['${A}', 'b'] } };

  it('finds, resolves and keeps them', () => {
    expect(firstEnvReference(doc)).toEqual({ path: 'config.token', name: 'OPS_TOKEN' });
    expect(firstEnvReference({ config: { token: 'plain ${NOT_ALONE}' } })).toBeUndefined();
    expect(resolveEnvReferences(doc, { OPS_TOKEN: 's3cret' })).toEqual({
      value: { name: 'ops', config: { token: 's3cret', url: 'https://x', list: ['${A}', 'b'] } },
      missing: ['A'],
    });
    expect(keepingStoredSecrets(doc).config).toEqual({
      token: '********',
      url: 'https://x',
      list: ['********', 'b'],
    });
  });

  it('exports each stored secret as a named reference', () => {
    expect(envNameOf('VIGIL', 'channels', 'ops-slack', 'config.url')).toBe(
      'VIGIL_CHANNELS_OPS_SLACK_CONFIG_URL',
    );
    expect(exportedSecrets('actions', 'redeploy', { headers: { 'X-Token': '********' }, n: 1 })).toEqual({
      headers: { 'X-Token': '${VIGIL_ACTIONS_REDEPLOY_HEADERS_X_TOKEN}' },
      n: 1,
    });
  });
});

describe('field diff', () => {
  it('recurses into objects, compares arrays whole and never compares a stored secret', () => {
    const current = {
      name: 'a',
      config: { url: 'u', token: '********', tags: ['x', 'y'] },
      fields: { tier: 1 },
    };
    const doc = {
      name: 'a',
      config: { url: 'v', token: 'new', tags: ['x', 'z'] },
      fields: { tier: 1, owner: 'o' },
    };
    expect(diffFields(current, doc)).toEqual([
      { path: 'config.tags', from: ['x', 'y'], to: ['x', 'z'] },
      { path: 'config.url', from: 'u', to: 'v' },
      { path: 'fields.owner', from: undefined, to: 'o' },
    ]);
    expect(diffFields({ a: { b: 1, c: [1, { d: 2 }] } }, { a: { c: [1, { d: 2 }], b: 1 } })).toEqual([]);
    expect(diffFields({ token: '********' }, { token: '${OPS_TOKEN}' })).toEqual([]);
    expect(diffFields({ a: null }, { a: {} })).toEqual([{ path: 'a', from: null, to: {} }]);
  });
});

describe('field diff of arrays holding secrets', () => {
  it('compares an array whole, but a stored secret inside it still equals any value', () => {
    const current = { channels: [{ config: { url: 'u', secret: '********' } }, { channel: 'ops' }] };
    expect(
      diffFields(current, { channels: [{ config: { url: 'u', secret: 's' } }, { channel: 'ops' }] }),
    ).toEqual([]);
    const changed = { channels: [{ config: { url: 'v', secret: 's' } }, { channel: 'ops' }] };
    expect(diffFields(current, changed)).toEqual([
      { path: 'channels', from: current.channels, to: changed.channels },
    ]);
  });
});
