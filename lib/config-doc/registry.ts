import type { AnyConfigKind, DocKey } from './kind.ts';
import { channelsKind } from './kinds/channels.ts';
import { checksKind } from './kinds/checks.ts';
import { routesKind } from './kinds/routes.ts';

/**
 * Every kind of the configuration document, one file each under ./kinds/ (declared with
 * `defineKind`). Keyed by DOC_KEYS so a kind cannot be registered twice or under another list's
 * name; the engine walks them in DOC_KEYS order.
 */
export const CONFIG_KINDS: Partial<Record<DocKey, AnyConfigKind>> = {
  channels: channelsKind,
  checks: checksKind,
  routes: routesKind,
};
