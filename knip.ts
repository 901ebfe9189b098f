import type { KnipConfig } from 'knip';

/**
 * Unused code (knip, `npm run lint:unused`, part of `npm test`): no unused file, export or
 * dependency. Knip follows imports from the entry points below; test files, their setup files and
 * the console's `index.html` come from its vitest and vite plugins. Each ignore says why
 * (CONTRIBUTING.md "Unused code").
 */
const config: KnipConfig = {
  entry: [
    // Lambda handlers: infra/ bundles each file by path (NodejsFunction `entry`), AWS calls `handler`.
    'functions/*.ts',
    // CLIs and the local server: package.json "bin" and "scripts", deploy/*.service, the tests.
    'bin/*.ts',
    // The CDK app: cdk.json "app" (`npx tsx infra/app.ts`; knip has no cdk plugin).
    'infra/app.ts',
    // The Lambda-backed custom resource: infra/ bundles it by path, CloudFormation calls `handler`.
    'infra/constructs/provider-handler.ts',
    // Benchmarks: `npm run bench` (bench/run.ts) comes from package.json; the cloud generator's
    // time per cell is a run of its own (docs/performance.md).
    'bench/generator-cells.ts',
    // Bench child processes, spawned by path (bench/child.ts `startChild`, bench/processes.ts).
    'bench/{alerts-receiver,bare-loop,bare-server,browser-runtime-child,cronburst-child,parent-guard,runtime-child,target-server}.ts',
    // The browser runner's child process, spawned by path (lib/probes/browser-runner.ts).
    'lib/probes/browser/browser-child.ts',
    // Scripts the tests spawn by path (`node <path>`).
    'test/support/crash-serve.ts',
    'test/check-types/support/icmp-probe-cli.ts',
    // npm test's first step (package.json "test" runs it with node).
    'test/preflight/run.ts',
    // Run by hand in a checkout of the previous release (test/fixtures/previous-layout/generate.md).
    'test/fixtures/previous-layout/generate.ts',
    // Likewise, in a checkout of the release before notify_told (test/fixtures/previous-release-told/generate.md).
    'test/fixtures/previous-release-told/generate.ts',
    // Likewise, before the MCP tools took an entity either way (test/fixtures/previous-release-toolsets/generate.md).
    'test/fixtures/previous-release-toolsets/generate.ts',
    // Likewise, before pings formed stored runs (test/fixtures/previous-release-runs/generate.md).
    'test/fixtures/previous-release-runs/generate.ts',
  ],
  // An entry file's exports are checked too (a script exports nothing it does not share); the Lambda
  // handlers' `handler`, called by AWS, is ignored below.
  includeEntryExports: true,
  project: ['{lib,functions,infra,bin,bench,test}/**/*.ts', 'web/src/**/*.{ts,tsx}', '*.ts'],
  // The console: its own Vite config under web/ (entry web/index.html, then /src/main.tsx).
  vite: { config: ['web/vite.config.ts'] },
  ignoreDependencies: [
    // Read by path, not imported: DynamoDB Local's jar (test/support/dynamodb-local.ts), the MCP
    // inspector's bin (test/mcp/inspector.test.ts), axe.min.js injected into pages (test/console),
    // the W3C Nu Html Checker's jar (test/status-pages/support/nu-validator.ts).
    'amplify-dynamodb-simulator',
    '@modelcontextprotocol/inspector',
    'axe-core',
    'vnu-jar',
  ],
  ignoreIssues: {
    // Lambda entries: AWS calls `handler`, nothing imports it.
    'functions/*.ts': ['exports'],
    'infra/constructs/provider-handler.ts': ['exports', 'types'],
  },
  ignoreBinaries: [
    // A system tool installed by .ci/run (apt, iputils-ping), not an npm package: the icmp check
    // type runs `ping`. The other system tools (nats-server, chromium, promtool, podman, openssl,
    // java, ip) are run by absolute path or through helpers knip does not read as a command, so it
    // reports none of them; listing them would only be a stale ignore (a failing configuration hint).
    'ping',
  ],
};

export default config;
