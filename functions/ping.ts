import { createCloudApp, createFunctionTracer, createPingHandler } from '../lib/cloud/http-composition.ts';
import { loadConfig } from '../lib/platform/config.ts';

/**
 * The ping function (infra/ping.ts): the Pinging API behind its own function URL, `/ping/*` only
 * (lib/cloud/http-composition.ts), so a ping costs no API Gateway request (docs/aws.md "Ping URLs").
 */
const tracer = createFunctionTracer('ping');
// No route it serves sends email or SMS; its role has no ses:SendEmail (infra/ping.ts).
export const handler = createPingHandler({
  ...createCloudApp(loadConfig('cloud'), {}, { tracer, sendsEmail: false }),
  tracer,
});
