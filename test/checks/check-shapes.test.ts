import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../lib/app.ts';
import { buildOpenApiDocument } from '../../lib/http/openapi.ts';
import { createSqliteTable, openSqliteDatabase, type SqliteTable } from '../../lib/sqlite/sqlite-table.ts';
import { queuelessApp } from '../support/queueless-app.ts';

/** The fields of an http check's request and expectations (and its timeout). */
const HTTP_FIELDS = [
  'target_url',
  'method',
  'headers',
  'body',
  'expected_status',
  'body_contains',
  'timeout_ms',
];

/** The OpenAPI document shows one Check shape per check_type, each with only its own fields. */
describe('check shapes in the OpenAPI document', () => {
  let table: SqliteTable;
  let app: App;
  // biome-ignore lint/suspicious/noExplicitAny: the generated document is inspected freely
  let schemas: Record<string, any>;

  beforeAll(() => {
    table = createSqliteTable({ db: openSqliteDatabase(':memory:') });
    app = queuelessApp(table);
    // biome-ignore lint/suspicious/noExplicitAny: the generated document is inspected freely
    const doc: Record<string, any> = buildOpenApiDocument(app.routes);
    schemas = doc.components.schemas;
  });
  afterAll(() => table.close());

  const fields = (name: string) => Object.keys(schemas[name]?.properties ?? {}).sort();

  it('documents Check as one shape per check type, told apart by check_type', () => {
    const variants = schemas.Check.oneOf ?? schemas.Check.anyOf;
    expect(variants.map((v: { $ref: string }) => v.$ref).sort()).toEqual(
      [
        'BrowserCheck',
        'DnsCheck',
        'DomainCheck',
        'GrpcCheck',
        'HttpCheck',
        'IcmpCheck',
        'MultistepCheck',
        'OutsideCheck',
        'PushCheck',
        'TcpCheck',
        'TlsCheck',
      ].map((n) => `#/components/schemas/${n}`),
    );
    for (const [name, type] of [
      ['HttpCheck', 'http'],
      ['PushCheck', 'push'],
      ['MultistepCheck', 'multistep'],
      ['BrowserCheck', 'browser'],
      ['OutsideCheck', 'outside'],
    ]) {
      expect(schemas[name as string].properties.check_type).toMatchObject({ const: type });
    }
  });

  it('gives push checks neither a target nor probe fields', () => {
    const push = fields('PushCheck');
    expect(push).toContain('config');
    for (const field of HTTP_FIELDS) expect(push).not.toContain(field);
  });

  it('gives http checks their request and expectations, and the others their config and timeout', () => {
    expect(fields('HttpCheck')).toEqual(expect.arrayContaining(HTTP_FIELDS));
    expect(fields('HttpCheck')).not.toContain('config');
    for (const name of ['TcpCheck', 'TlsCheck', 'DnsCheck']) {
      expect(fields(name)).toEqual(expect.arrayContaining(['config', 'timeout_ms']));
      expect(fields(name)).not.toContain('expected_status');
    }
    expect(schemas.TcpCheck.properties.config.required).toEqual(['host', 'port']);
  });
});
