import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';

/**
 * A CPU profile of the measured window only (setup and warm-up left out), written as a
 * .cpuprofile file that Chrome DevTools or `speedscope` open. Used with `--profile`.
 */
export function createWindowProfiler(dir: string | undefined, label: string) {
  let session: Session | undefined;
  return {
    async start(): Promise<void> {
      if (!dir) return;
      session = new Session();
      session.connect();
      await session.post('Profiler.enable');
      await session.post('Profiler.start');
    },
    async stop(): Promise<string | undefined> {
      if (!dir || !session) return undefined;
      const { profile } = await session.post('Profiler.stop');
      session.disconnect();
      session = undefined;
      const file = join(dir, `${label}-${process.pid}.cpuprofile`);
      writeFileSync(file, JSON.stringify(profile));
      return file;
    },
  };
}
