import { createCloudApp } from '../lib/cloud/composition.ts';
import { createApiHandler } from '../lib/http/lambda-adapter.ts';

const { app } = createCloudApp();

/** API Gateway HTTP API (payload v2) -> the shared router. */
export const handler = createApiHandler(app.router);
