// `vigil run` wraps a cron job, `vigil agent` probes for a location and `vigil export|plan|apply`
// call a server's configuration routes, `vigil import` converts another product's configuration: they need no store and no configuration, so they are
// dispatched before the operator commands (bin/vigil-operator.ts) load them.
const command = process.argv[2];
if (command === 'export' || command === 'plan' || command === 'apply') {
  const { configCli } = await import('../lib/cli/config-cli.ts');
  process.exitCode = await configCli(command, process.argv.slice(3), {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env: process.env,
  });
} else if (command === 'run') {
  const { runCli } = await import('../lib/cli/run.ts');
  process.exitCode = await runCli(process.argv.slice(3), {
    stdout: process.stdout,
    stderr: process.stderr,
    signals: process,
  });
} else if (command === 'import') {
  // `vigil import` converts a file or another product's API into a document: no store either.
  const { importCli } = await import('../lib/importers/import-cli.ts');
  process.exitCode = await importCli(process.argv.slice(3), {
    stdout: process.stdout,
    stderr: process.stderr,
    healthchecksApiKey: process.env.HEALTHCHECKS_API_KEY,
  });
} else if (command === 'agent') {
  const { runAgentCli } = await import('../lib/agent/agent-cli.ts');
  process.exitCode = await runAgentCli(process.argv.slice(3), {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    signals: process,
  });
  // A probe still running when the stop grace ran out must not hold the process: its job is leased again.
  setTimeout(() => process.exit(), 1000).unref();
} else {
  await import('./vigil-operator.ts');
}
