import { text } from 'node:stream/consumers';
import { runRequestSchema } from '../browser-run-wire.ts';
import { runBrowserSession } from './browser-session.ts';

/**
 * The browser runner's child process (started by ../browser-runner.ts with an empty environment):
 * reads one run request on stdin, runs it, writes its answer as one JSON line on stdout, exits.
 * It has no store, no configuration and no secrets but the check's own values.
 */
const request = runRequestSchema.parse(JSON.parse(await text(process.stdin)));
const answer = await runBrowserSession(request);
process.stdout.write(`${JSON.stringify(answer)}\n`, () => process.exit(0));
