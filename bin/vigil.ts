// `vigil run` wraps a cron job: it needs no store and no configuration, so it is dispatched before
// the operator commands (bin/vigil-operator.ts) load them.
if (process.argv[2] === 'run') {
  const { runCli } = await import('../lib/cli/run.ts');
  process.exitCode = await runCli(process.argv.slice(3), {
    stdout: process.stdout,
    stderr: process.stderr,
    signals: process,
  });
} else {
  await import('./vigil-operator.ts');
}
