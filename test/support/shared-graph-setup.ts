import { vi } from 'vitest';
import { resetIdClock } from '../../lib/platform/ids.ts';

// The unit, api and cloud tiers share one module graph per worker (vitest.config.ts): what one file
// leaves in it is reset here, before the next file runs. The id factory's last time (a file's fake
// clock must not date the next file's ids), fake timers a file did not give back (a model suite
// fakes Date for its whole file), spies on shared objects, and stubbed variables.
resetIdClock();
vi.useRealTimers();
vi.restoreAllMocks();
vi.unstubAllEnvs();
vi.unstubAllGlobals();
