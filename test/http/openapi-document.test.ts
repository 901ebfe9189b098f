import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, createApp } from '../../lib/app.ts';
import { buildOpenApiDocument } from '../../lib/http/openapi.ts';
import type { Route } from '../../lib/http/types.ts';
import { systemClock } from '../../lib/platform/clock.ts';
import { loadConfig } from '../../lib/platform/config.ts';
import { silentLogger } from '../../lib/platform/logger.ts';
import { createSqliteTable, openSqliteDatabase, type SqliteTable } from '../../lib/store/sqlite-table.ts';

/** The `{param}` names of a path template. */
const pathParams = (path: string) => [...path.matchAll(/\{([a-z_]+)\}/g)].map((m) => m[1]);

/** What is missing from a route's declared schemas; empty when it declares everything it reads. */
function missingSchemas(route: Route): string[] {
  const missing: string[] = [];
  const { schemas } = route;
  if (!schemas) return ['schemas'];
  const declared = Object.keys(schemas.params?.shape ?? {}).sort();
  if (JSON.stringify(declared) !== JSON.stringify(pathParams(route.path).sort()))
    missing.push(`params (declared ${declared.join(',') || 'none'})`);
  const writes = route.method !== 'GET' && route.method !== 'DELETE';
  if (writes && !schemas.body && route.body !== 'raw') missing.push('body');
  if (!writes && schemas.body) missing.push(`no body on ${route.method}`);
  const statuses = Object.keys(schemas.responses ?? {});
  if (!statuses.some((s) => s.startsWith('2'))) missing.push('a success response');
  if (!route.operationId) missing.push('operationId');
  if (!route.tag) missing.push('tag');
  return missing;
}

describe('the OpenAPI document', () => {
  let table: SqliteTable;
  let app: App;
  let doc: Record<string, any>;

  beforeAll(() => {
    table = createSqliteTable({ db: openSqliteDatabase(':memory:') });
    app = createApp({ table, clock: systemClock, logger: silentLogger, config: loadConfig('local', {}) });
    doc = buildOpenApiDocument(app.routes);
  });
  afterAll(() => {
    table.db.close();
  });

  it('finds every route of the table declaring its params, body, responses, operationId and tag', () => {
    const failures = app.routes
      .map((route) => [`${route.method} ${route.path}`, missingSchemas(route).join('; ')])
      .filter(([, missing]) => missing !== '');
    expect(failures).toEqual([]);
    expect(app.routes.length).toBeGreaterThanOrEqual(30);
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(doc);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });
});
