import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generateApiTypes, SCHEMA_FILE } from '../../bin/openapi-types.ts';

describe("the console's API types", () => {
  it('match the OpenAPI document of the current route table (npm run api:types)', async () => {
    const generated = await generateApiTypes();
    expect(generated).toContain('"/v1/status"');
    expect(
      readFileSync(SCHEMA_FILE, 'utf8') === generated,
      'web/src/api/schema.d.ts is stale: npm run api:types',
    ).toBe(true);
  });
});
