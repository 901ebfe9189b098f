import type { AnyConfigKind } from '../config-doc/kind.ts';
import type { Route } from '../http/types.ts';
import type { Mount } from '../platform/feature.ts';
import type { ToolBinding } from '../platform/mcp-tool.ts';
import type { Services } from './compose-services.ts';

/** A mount over the shared services, as the mounts of lib/features declare theirs. */
export type ServiceMount = Mount<Services, Route, AnyConfigKind, ToolBinding<Services>>;

/**
 * A mount of lib/features as the feature list holds it: type-checked against the services where it
 * is declared (`listedMount(mount: ServiceMount)`), then listed over `unknown`, so that the list's
 * type (./list.ts names these mounts) does not take in the services' type, which takes in the
 * list's (the notify queue's job union): TypeScript refuses that circle. The features' own mounts
 * (lib/<feature>/feature-routes.ts) are typed by what they take and checked against the services
 * where the list's mounts are loaded (./feature-routes.ts).
 */
export type ListedMount = Mount<unknown, Route, AnyConfigKind, ToolBinding<unknown>>;

/** Lists a mount of lib/features (see ListedMount). */
export const listedMount = (mount: ServiceMount): ListedMount => mount as unknown as ListedMount;
