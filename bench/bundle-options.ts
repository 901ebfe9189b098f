import type { BuildOptions } from 'esbuild';

// Same as infra/node-function.ts (NodejsFunction's esbuild options there); keep them in step.
const requireBanner =
  "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);";

/**
 * The esbuild options of a function's bundle as infra/node-function.ts has CDK set them (ESM,
 * minified, the `require` banner, node24), without the entry, the output and the externals:
 * bench/bundles.ts measures with them and test/infra/bundle-contents.test.ts holds the sizes.
 */
export const BUNDLE_OPTIONS = {
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node24',
  mainFields: ['module', 'main'],
  banner: { js: requireBanner },
  minify: true,
  logLevel: 'error',
} satisfies BuildOptions;
