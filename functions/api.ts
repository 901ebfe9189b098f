import { createApiHandler, createCloudApp, createFunctionTracer } from '../lib/cloud/http-composition.ts';
import { loadConfig } from '../lib/platform/config.ts';

/** The api function: API Gateway's HTTP API (payload v2) -> the shared router (lib/cloud/http-composition.ts). */
export { createApiHandler };

const tracer = createFunctionTracer('api');
export const handler = createApiHandler({ ...createCloudApp(loadConfig('cloud'), {}, { tracer }), tracer });
