/**
 * The built-in tools, as the rest of the code base sees them: the definitions (BUILTIN_TOOLS) and
 * the catalog-ops manifest that offers them (docs/mcp.md is generated from it).
 */

export { CATALOG_OPS, CATALOG_OPS_MANIFEST } from './builtins/catalog-ops.ts';
export { BUILTIN_TOOLS } from './builtins/index.ts';
