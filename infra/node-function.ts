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
   * X-Ray active tracing, for the functions that carry a Powertools Tracer (lib/cloud/tracing.ts):
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
}

/**
 * A Node.js Lambda with Vigil's shared settings: arm64, the newest Node runtime, an ESM bundle
 * built by the locally installed esbuild (never Docker), source maps, and a log group with retention.
 */
export class VigilFunction extends Construct {
  readonly function: NodejsFunction;

  constructor(scope: Construct, id: string, props: VigilFunctionProps) {
    super(scope, id);
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
      architecture: Architecture.ARM_64,
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
        externalModules: ['@aws-sdk/*'],
        forceDockerBundling: false,
      },
    });
  }
}
