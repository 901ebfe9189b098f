import { resetIdClock } from '../../lib/platform/ids.ts';

// The unit tier shares one module graph per worker (vitest.config.ts): what module state carries
// from file to file is reset here, before each file. Today that is the id factory's last time.
resetIdClock();
