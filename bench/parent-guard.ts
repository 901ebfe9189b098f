/**
 * Preloaded (`--import`) into a bench child that has no IPC channel, such as bin/serve.ts: when
 * the bench process that started it is gone (killed with SIGKILL, so no exit hook ran), the child
 * stops itself as on Ctrl-C, and is killed if that takes more than 10 s.
 */

const parent = process.ppid;

const parentGone = (): boolean => {
  try {
    process.kill(parent, 0);
    return false;
  } catch (err) {
    return err instanceof Error && 'code' in err && err.code === 'ESRCH';
  }
};

const watch = setInterval(() => {
  if (!parentGone()) return;
  clearInterval(watch);
  setTimeout(() => process.kill(process.pid, 'SIGKILL'), 10_000).unref();
  process.kill(process.pid, 'SIGTERM');
}, 500);
watch.unref();
