import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';

const repoRoot = resolve(fileURLToPath(new URL('..', import.meta.url)));

// ESM output has no `require`; the few CommonJS dependencies that call it get one from here.
const requireBanner =
  "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);";

/** The probes' heavy clients: gRPC (a grpc check) and RE2 (an http check's `matches` assertion). */
const PROBE_CLIENTS = ['@grpc/grpc-js', 're2js'];

/**
 * What a function loads only with a dynamic `import()`, when a variant that needs it runs
 * (lib/check-types/grpc/health-client.ts, lib/probes/pattern-engine.ts, lib/notify/channels/nats.ts,
 * lib/egress/undici-client.ts), by entry. These packages are left out of the function's bundle and
 * installed beside it in the asset (`bundling.nodeModules`), so the bundle, and the function's
 * start, carry none of them.
 *
 * Why `nodeModules`: it is aws-lambda-nodejs's own way to keep a package out of the bundle and
 * still ship it. esbuild's code splitting would be the other (the lazy part as a chunk of its
 * own), but NodejsFunction always passes `--outfile`, which esbuild refuses with `--splitting`
 * ("Must use outdir"), and `--outdir` in `esbuildArgs` is refused beside it; a hook that builds
 * the lazy part as a second file would need the code to import a path that exists only in the
 * asset. For `nodeModules` CDK writes a package.json naming these packages (versions from ours),
 * copies package-lock.json and runs `npm ci` in the asset: npm takes the locked tarballs from its
 * cache, so `cdk synth` stays offline on any machine that ran `npm ci` for this repository.
 *
 * A function not listed here bundles these packages when it reaches them (the HTTP functions,
 * which validate assertions with re2js anyway). A static import of a listed package would be
 * hoisted to the bundle's start and loaded from node_modules there: test/infra/bundle-contents.test.ts
 * keeps every import of them dynamic in these functions' bundles. bench/bundles.ts reads this.
 */
export const LAZY_MODULES: Readonly<Record<string, readonly string[]>> = {
  'functions/worker.ts': PROBE_CLIENTS,
  'functions/probe-region.ts': PROBE_CLIENTS,
  // Only a nats channel's send connects (lib/notify/channels/nats.ts). undici, the HTTP channels'
  // client: a state change's evaluation and the SES, SNS and NATS sends never load it.
  'functions/notifier.ts': ['@nats-io/transport-node', 'undici'],
  // Every state change comes here to be matched; only a matching action's run sends (with undici).
  'functions/actions.ts': ['undici'],
  // Reports go out by SES; undici is behind lib/notify's e-mail face (the HTTP channels), never loaded here.
  'functions/reports.ts': ['undici'],
  // The Lambda's Chromium, unpacked at the browser function's first run (lib/probes/lambda-chromium.ts).
  'functions/browser.ts': ['@sparticuz/chromium'],
  // A region's browser function: the same Chromium, for the browser legs leased there (infra/probe-region.ts).
  'functions/region-browser.ts': ['@sparticuz/chromium'],
};

/**
 * The feature list's mounts (lib/features/list.ts names each feature's routes, configuration kinds
 * and MCP tools with a lazy `import()` of a `*-routes.ts` module, which only the app's composition
 * calls: lib/features/feature-routes.ts). esbuild bundles a dynamic import of a literal path into
 * the one file (NodejsFunction cannot split it off: see above), so a function that loads the list
 * for its jobs, feeds and purge steps but never composes the app leaves them out by this pattern:
 * its bundle keeps the loaders' `import()`s, which it never calls. A static import of a route
 * module is never meant there (test/architecture/lean-functions.test.ts); test/infra/bundle-contents.test.ts
 * checks that these bundles hold no route module and that the app functions' hold every mount.
 */
const MOUNT_MODULES = '*-routes.ts';

/**
 * The features' job hosts (lib/<feature>/job-host.ts, named by the list with a lazy `import()`
 * too): the handlers of their notify queue jobs, heavy (they send). Only what runs that queue
 * loads them (lib/features/job-hosts.ts): the app's functions and the notifier; the others leave
 * them out as they leave the mounts.
 */
const JOB_HOST_MODULES = '*job-host.ts';

/** The functions that compose the app (lib/cloud/http-composition.ts's createCloudApp), so load the list's mounts. */
export const APP_FUNCTIONS: readonly string[] = [
  'functions/api.ts',
  'functions/config.ts',
  'functions/mcp.ts',
  'functions/ping.ts',
  'functions/status-stream.ts',
];

/** The functions that run the notify queue, so load the features' job hosts: the app's, and the notifier. */
export const QUEUE_HOST_FUNCTIONS: readonly string[] = [...APP_FUNCTIONS, 'functions/notifier.ts'];

/**
 * What a function's bundle leaves out: the AWS SDK (the runtime's), the mounts unless it composes
 * the app, and the job hosts unless it runs the notify queue.
 */
export const externalsOf = (entry: string): string[] => [
  '@aws-sdk/*',
  ...(APP_FUNCTIONS.includes(entry) ? [] : [MOUNT_MODULES]),
  ...(QUEUE_HOST_FUNCTIONS.includes(entry) ? [] : [JOB_HOST_MODULES]),
];

/**
 * The hooks that bundle `beside.entry` into the asset as `beside.outfile` with the locally
 * installed esbuild and the handler's options (ESM, minified, the `require` banner), its
 * `installed` packages left out (they are in the asset's node_modules).
 */
function besideBundle(beside: NonNullable<VigilFunctionProps['beside']>) {
  const externals = beside.installed.map((name) => `--external:${name}`).join(' ');
  return {
    beforeBundling: () => [],
    beforeInstall: () => [],
    afterBundling: (inputDir: string, outputDir: string) => [
      `${join(inputDir, 'node_modules', '.bin', 'esbuild')} ${join(inputDir, beside.entry)} --bundle --platform=node --format=esm --target=node24 --minify --main-fields=module,main ${externals} "--banner:js=${requireBanner}" --outfile=${join(outputDir, beside.outfile)}`,
    ],
  };
}

/** The per-function settings; everything else is shared by every Vigil Lambda. */
export interface VigilFunctionProps {
  /** Entry file relative to the repository root, e.g. `functions/api.ts`; it exports `handler`. */
  readonly entry: string;
  /** Extra environment on top of the shared defaults (log level, source maps). */
  readonly environment?: Record<string, string>;
  /** @default 512 */
  readonly memorySize?: number;
  /** @default 29 seconds (just under the HTTP API integration limit) */
  readonly timeout?: Duration;
  /** @default one month */
  readonly logRetention?: RetentionDays;
  /**
   * X-Ray active tracing, for the functions that carry a Powertools Tracer (lib/cloud/edge/tracing.ts):
   * the HTTP edges. The role gets the X-Ray write permissions with it.
   * @default false
   */
  readonly tracing?: boolean;
  /**
   * Reserved concurrency: the most instances the function runs at once, held for it alone so no
   * other function (a burst of API calls) can starve it (infra/capacity.ts).
   * @default none (the account's unreserved pool)
   */
  readonly reservedConcurrency?: number;
  /**
   * The instruction set: arm64 unless a dependency ships binaries for x86_64 only (the browser
   * function's Chromium).
   * @default Architecture.ARM_64
   */
  readonly architecture?: Architecture;
  /**
   * A second file bundled beside the handler, for a child process the handler starts by path (the
   * browser runner's child): its entry (relative to the repository root), its file name in the
   * asset, and the packages it imports that are installed beside it rather than bundled.
   */
  readonly beside?: {
    readonly entry: string;
    readonly outfile: string;
    readonly installed: readonly string[];
  };
}

/**
 * A Node.js Lambda with Vigil's shared settings: arm64, the newest Node runtime, an ESM bundle
 * built by the locally installed esbuild (never Docker), source maps, and a log group with retention.
 */
export class VigilFunction extends Construct {
  readonly function: NodejsFunction;

  constructor(scope: Construct, id: string, props: VigilFunctionProps) {
    super(scope, id);
    const lazy = LAZY_MODULES[props.entry] ?? [];
    const installed = [...lazy, ...(props.beside?.installed ?? [])];
    const { beside } = props;
    const logGroup = new LogGroup(this, 'Logs', {
      retention: props.logRetention ?? RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    // Its own role, allowed to write its own log group and nothing else until the stack grants
    // what the function uses (AWSLambdaBasicExecutionRole would let it write every log group).
    const role = new Role(this, 'Role', { assumedBy: new ServicePrincipal('lambda.amazonaws.com') });
    role.addToPolicy(
      new PolicyStatement({
        actions: ['logs:CreateLogStream', 'logs:PutLogEvents'],
        resources: [logGroup.logGroupArn],
      }),
    );
    this.function = new NodejsFunction(this, 'Function', {
      role,
      entry: join(repoRoot, props.entry),
      handler: 'handler',
      projectRoot: repoRoot,
      depsLockFilePath: join(repoRoot, 'package-lock.json'),
      runtime: Runtime.NODEJS_24_X,
      architecture: props.architecture ?? Architecture.ARM_64,
      memorySize: props.memorySize ?? 512,
      timeout: props.timeout ?? Duration.seconds(29),
      logGroup,
      ...(props.tracing ? { tracing: Tracing.ACTIVE } : {}),
      ...(props.reservedConcurrency ? { reservedConcurrentExecutions: props.reservedConcurrency } : {}),
      environment: {
        VIGIL_LOG_LEVEL: 'info',
        NODE_OPTIONS: '--enable-source-maps',
        ...props.environment,
      },
      bundling: {
        format: OutputFormat.ESM,
        mainFields: ['module', 'main'],
        banner: requireBanner,
        minify: true,
        sourceMap: true,
        // The Lambda Node runtime ships AWS SDK v3; bundling it would only add size and cold start.
        // A function that does not compose the app leaves the features' mounts out (externalsOf).
        externalModules: externalsOf(props.entry),
        // Left out of the bundle too (CDK adds them to the externals) and installed beside it.
        ...(installed.length > 0 ? { nodeModules: installed } : {}),
        ...(beside ? { commandHooks: besideBundle(beside) } : {}),
        forceDockerBundling: false,
      },
    });
  }
}
