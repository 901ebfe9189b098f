import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// The project runs, and is tested, on the Node the Lambdas run (nodejs24.x): npm scripts put the
// pinned node-<platform>-<arch> package's binary first on the PATH, whatever Node ran npm.

const root = join(import.meta.dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  engines: { node: string };
  optionalDependencies: Record<string, string>;
};

describe('the Node version', () => {
  it('running the tests is the pinned Node 24', () => {
    const pinned = new Set(
      Object.entries(pkg.optionalDependencies)
        .filter(([name]) => /^node-(linux|darwin|win)-/.test(name))
        .map(([, version]) => version),
    );
    expect([...pinned]).toEqual(['24.21.0']);
    expect(process.version).toBe('v24.21.0');
  });

  it('is the one engines, README and the Lambda runtime declare', () => {
    expect(pkg.engines.node).toBe('>=24.11.0 <25');
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    expect(readme).toContain('Requirements: Node.js 24');
    const functions = readFileSync(join(root, 'infra', 'node-function.ts'), 'utf8');
    expect(functions).toContain('Runtime.NODEJS_24_X');
  });
});
