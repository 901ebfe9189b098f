import * as z from 'zod';
import type { JobQueue, ReceivedJob } from './job-queue.ts';

/*
 * The feature contract (issue 76, as hono mounts sub-apps): a feature declares in one face
 * file what it brings to the runtimes (its jobs and the queue they ride, its change-feed consumers,
 * its purge steps), and the roots iterate one
 * list of those faces (lib/features/list.ts) instead of naming each feature's insides. A face is
 * lean (schemas, no handlers), so every function may load the list; a job's handler is heavy (it
 * sends), so it is a feature's job host (`defineJobHost`), which only the functions that run the
 * queue take (lib/features/job-hosts.ts). The contract sits here, below every feature (each face
 * imports it; the list above them imports the faces).
 */

/** The queues features put jobs on (the notify queue: the local SQLite queue, SQS in the cloud). */
export type QueueName = 'notify';

/** The notify queue's name (the local SQLite queue's, and the one `dlq redrive` takes). */
export const NOTIFY_QUEUE = 'notify' satisfies QueueName;

/** A job body: discriminated by its kind. */
export type Job = { kind: string };

/** One kind of job a feature puts on a queue: the zod schema of its body, whose `kind` is that literal. */
export interface FeatureJob<J extends Job = Job> {
  queue: QueueName;
  kind: J['kind'];
  schema: z.ZodType<J>;
}

/** What a feature declares (its face file: lib/<feature>/feature.ts). */
export interface Feature {
  /** Unique in the list; a job host names its feature by it. */
  name: string;
  /** The jobs it puts on the queues (their kinds are unique per queue across the list). */
  jobs: readonly FeatureJob[];
  /** What it reads of the change feed, if anything. */
  feed?: FeatureFeed<never> | undefined;
  /**
   * Reads it lends other features, each a port the borrower declares (lib/features/list.ts hands
   * them over), so the borrower does not import the lender.
   */
  lends?: Record<string, unknown> | undefined;
  /**
   * What a deleted object's purge job deletes of this feature's items: its steps per job kind,
   * built over the ports the purge consumer's host gives (lib/purge/purge-steps.ts runs the list's).
   */
  purge?: ((ports: never) => Readonly<Record<string, readonly unknown[]>>) | undefined;
  /**
   * Its mount (routes, configuration kinds, MCP tools: `defineMount`), loaded lazily: the list
   * (lib/features/list.ts) names the module with a dynamic `import()`, which only the API
   * composition calls (`loadMounts`), so the functions that load the list for its jobs, feeds and
   * purge steps never load a route (their bundles leave the mount modules out: infra/node-function.ts).
   */
  mount?: MountLoader | undefined;
  /**
   * Its job host (lib/<feature>/job-host.ts: the handlers of its jobs, heavy: they send), loaded
   * lazily as its mount is: only what runs the queue calls it (`loadHosts`, lib/features/job-hosts.ts:
   * the app and the notifier function), and the other functions' bundles leave it out.
   */
  host?: (() => Promise<unknown>) | undefined;
}

/** Loads a feature's mount: `() => import('../<feature>/feature-routes.ts').then((m) => m.<name>Mount)`. */
export type MountLoader<M = unknown> = () => Promise<M>;

/** A feature of the list with a face of its own (lib/<feature>/feature.ts) and a mount. */
export const withMount = <const F extends Feature, M>(face: F, mount: MountLoader<M>) => ({ ...face, mount });

/** A feature of the list that only mounts (no jobs, feed, purge steps or lent reads): its name and its mount. */
export const mountOnly = <const N extends string, M>(name: N, mount: MountLoader<M>) => ({
  name,
  jobs: [] as const,
  mount,
});

/** A feature of the list with a job host: `withHost(face or withMount(…), () => import('../<feature>/job-host.ts').then(…))`. */
export const withHost = <const F extends Feature, H>(feature: F, host: () => Promise<H>) => ({
  ...feature,
  host,
});

/** What a list's mount loaders load (each feature's mount), as a union. */
type MountOf<F> = F extends { mount: MountLoader<infer M> } ? M : never;

/** What a list's host loaders load (each feature's job host), as a union. */
type HostOf<F> = F extends { host: () => Promise<infer H> } ? H : never;

/** What the given loaders load (a feature without one has none), in their order. */
const loadEach = (loaders: readonly ((() => Promise<unknown>) | undefined)[]): Promise<unknown[]> =>
  Promise.all(loaders.flatMap((load) => (load ? [load()] : [])));

/** Every listed feature's job host, loaded, in the list's order (what runs the queue, at its start). */
export const loadHosts = <L extends readonly Feature[]>(features: L): Promise<HostOf<L[number]>[]> =>
  loadEach(features.map((feature) => feature.host)) as Promise<HostOf<L[number]>[]>;

/** The ports every host of a union takes: the intersection of theirs (what the queue's host gives). */
export type PortsOfAll<H> = (H extends unknown ? (ports: PortsOf<H>) => void : never) extends (
  ports: infer P,
) => void
  ? P
  : never;

/** Every listed feature's mount, loaded, in the list's order (the API composition's, at its start). */
export const loadMounts = <L extends readonly Feature[]>(features: L): Promise<MountOf<L[number]>[]> =>
  loadEach(features.map((feature) => feature.mount)) as Promise<MountOf<L[number]>[]>;

/**
 * A feature's part of the change feed: the item types whose changes its consumers read (the sqlite
 * outbox keeps only the list's, and the cloud's stream filter passes the same), and its consumers
 * by name, built over the ports the feed's host gives (lib/events/consumers.ts). They run after
 * the core consumers (lib/events'), in the list's order.
 */
interface FeatureFeed<P> {
  entities: readonly (string | { entity: string; gsi2Moves: true })[];
  consumers(ports: P): Record<string, (changes: never[]) => Promise<void>>;
}

/** The kind literal of a job schema (an object whose `kind` is a z.literal), or undefined. */
function kindOf(schema: z.ZodType): string | undefined {
  if (!(schema instanceof z.ZodObject)) return undefined;
  const kind = (schema.shape as Record<string, z.ZodType>).kind;
  return kind instanceof z.ZodLiteral && typeof kind.value === 'string' ? kind.value : undefined;
}

/** One job declaration per schema, its kind read from the schema (so the two cannot disagree). */
export function jobsOf<S extends z.ZodType<Job>>(
  queue: QueueName,
  schemas: readonly S[],
): FeatureJob<z.infer<S>>[] {
  return schemas.map((schema) => {
    const kind = kindOf(schema);
    if (kind === undefined) throw new Error(`a ${queue} job schema has no literal kind`);
    return { queue, kind, schema: schema as unknown as z.ZodType<z.infer<S>> };
  });
}

/** Declares a feature; refuses a job whose schema's kind is not the kind it is declared under. */
export function defineFeature<const F extends Feature>(feature: F): F {
  for (const job of feature.jobs) {
    if (kindOf(job.schema) !== job.kind)
      throw new Error(
        `${feature.name}: job ${job.kind} has a schema of kind ${kindOf(job.schema) ?? 'none'}`,
      );
  }
  return feature;
}

/** The body of every job the features of `L` put on `Q`. */
export type QueueJob<L extends readonly Feature[], Q extends QueueName> =
  Extract<L[number]['jobs'][number], { queue: Q }> extends FeatureJob<infer J> ? J : never;

/** The job kinds of one queue across `features`, each with its feature; refuses a kind declared twice. */
function queueKinds(
  features: readonly Feature[],
  queue: QueueName,
): Map<string, FeatureJob & { feature: string }> {
  const kinds = new Map<string, FeatureJob & { feature: string }>();
  for (const feature of features) {
    for (const job of feature.jobs) {
      if (job.queue !== queue) continue;
      const before = kinds.get(job.kind);
      if (before)
        throw new Error(`${queue} job ${job.kind} is declared by ${before.feature} and ${feature.name}`);
      kinds.set(job.kind, { ...job, feature: feature.name });
    }
  }
  return kinds;
}

/** The schema of a queue's bodies: the union of its kinds' schemas, chosen by `kind`. */
export function queueSchema<J extends Job>(features: readonly Feature[], queue: QueueName): z.ZodType<J> {
  const schemas = [...queueKinds(features, queue).values()].map(
    (job) => job.schema as unknown as z.ZodObject,
  );
  const [first, ...rest] = schemas;
  if (!first) throw new Error(`no feature puts jobs on the ${queue} queue`);
  return z.discriminatedUnion('kind', [first, ...rest]) as unknown as z.ZodType<J>;
}

/**
 * A queue as one feature's code takes it: typed by the jobs that feature enqueues there. A feature
 * only enqueues (the queue carries every feature's kinds; its host receives and dispatches them).
 */
export const enqueuerOf = <W extends Job, J extends W>(queue: JobQueue<W>): JobQueue<J> =>
  queue as unknown as JobQueue<J>;

/** Runs one delivery of a job; throws to have the queue bring it back after its retry delay. */
export type JobHandler<J extends Job = Job> = (job: ReceivedJob<J>) => Promise<void>;

/** A feature's handlers of its jobs on one queue (heavy: it sends), built over the ports the host gives. */
export interface JobHost<F extends Feature, P> {
  feature: F;
  queue: QueueName;
  handler(ports: P): JobHandler<QueueJob<readonly [F], QueueName>>;
}

/** Declares the handler of a feature's jobs on one queue. */
export const defineJobHost = <F extends Feature, P>(host: JobHost<F, P>): JobHost<F, P> => host;

/** The ports a job host is built over. */
export type PortsOf<H> = H extends JobHost<Feature, infer P> ? P : never;

/**
 * One handler for a queue over the hosts of its kinds: a job goes to the host whose feature
 * declares its kind. Refuses a list in which a kind of `features` has no host (the queue would
 * carry a job nothing runs) or a host whose feature is not in the list.
 */
export function hostQueue<P>(
  features: readonly Feature[],
  queue: QueueName,
  hosts: readonly JobHost<Feature, NoInfer<P>>[],
  ports: P,
): JobHandler {
  const kinds = queueKinds(features, queue);
  const byFeature = new Map<string, JobHandler>();
  for (const host of hosts) {
    if (host.queue !== queue) continue;
    // By name: the list holds each face with its mount (`withMount`), a copy of the face the host names.
    if (!features.some((feature) => feature.name === host.feature.name))
      throw new Error(`${host.feature.name} is not in the feature list`);
    byFeature.set(host.feature.name, host.handler(ports) as JobHandler);
  }
  const missing = [...kinds.values()].filter((job) => !byFeature.has(job.feature)).map((job) => job.kind);
  if (missing.length > 0) throw new Error(`no host for the ${queue} job kinds ${missing.join(', ')}`);
  return async (job) => {
    const declared = kinds.get(job.body.kind as string);
    if (!declared) throw new Error(`no feature declares a ${queue} job of kind ${String(job.body.kind)}`);
    return (byFeature.get(declared.feature) as JobHandler)(job);
  };
}

/**
 * A feature's routes, mounted as hono mounts a sub-app (`app.route()`): its route face
 * (lib/<feature>/feature-routes.ts) builds them over the shared services the API composition gives,
 * typed by what it needs of them. Heavy (handlers), so only the API composition loads the mount
 * list (lib/features/feature-routes.ts); the lean list (lib/features/list.ts) stays loadable by every function.
 */
export interface Mount<D, R, K = never, T = never> {
  /** Unique in the mount list. */
  name: string;
  routes: (deps: D) => readonly R[];
  /**
   * The kinds of the configuration document it brings (lib/config-doc's `defineKind`, each a file
   * of the feature): the configuration engine takes the mount list's (lib/config-doc/registry.ts).
   */
  configKinds?: readonly K[] | undefined;
  /**
   * The MCP tools it brings: their definitions and their binding over the services it takes
   * (lib/mcp's `bindTools`: each tool over the tool kit and this feature's own services); the tool
   * catalog takes the mount list's.
   */
  tools?: T | undefined;
}

/** What a mount's `tools` binds over the services: the tools, each with its name. */
interface ToolsOver<D, B> {
  bind(deps: D): readonly B[];
}

/**
 * What a feature's mount takes when its compose.ts builds its routes with the services it shares:
 * that feature's part of the services, by its name there, carrying its routes.
 */
export type Composed<N extends string, R> = { [K in N]: { routes: readonly R[] } };

/** What a tool definition is bound over (its handler's deps): what a mount's binding gives it. */
export type ToolDeps<T> = T extends { handler: (deps: infer D, ...rest: never[]) => unknown } ? D : never;

/** Declares a feature's routes (and what else it mounts with them). */
export const defineMount = <D, R, K = never, T = never>(mount: Mount<D, R, K, T>): Mount<D, R, K, T> => mount;

/** Every mount's tools bound over `deps`, in the list's order; refuses a tool name twice. */
export function mountedTools<D, B extends { name: string }>(
  mounts: readonly Mount<D, unknown, unknown, ToolsOver<D, B>>[],
  deps: D,
): B[] {
  const names = new Set<string>();
  return mounts.flatMap((mount) =>
    (mount.tools?.bind(deps) ?? []).map((tool) => {
      if (names.has(tool.name)) throw new Error(`the tool ${tool.name} is mounted twice`);
      names.add(tool.name);
      return tool;
    }),
  );
}

/** Every mount's configuration kinds, in the list's order. */
export const mountedConfigKinds = <K>(mounts: readonly Mount<never, unknown, K, unknown>[]): K[] =>
  mounts.flatMap((mount) => [...(mount.configKinds ?? [])]);

/** Every mount's routes in the list's order (the order of the route table and the OpenAPI document); refuses a name twice. */
export function mountAll<D, R>(mounts: readonly Mount<D, R, unknown, unknown>[], deps: D): R[] {
  const names = new Set<string>();
  return mounts.flatMap((mount) => {
    if (names.has(mount.name)) throw new Error(`the mount ${mount.name} is listed twice`);
    names.add(mount.name);
    return [...mount.routes(deps)];
  });
}
