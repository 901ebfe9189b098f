import {
  createCloudApp,
  createFunctionTracer,
  createStreamingUrlHandler,
} from '../lib/cloud/http-composition.ts';
import { loadConfig } from '../lib/platform/config.ts';

/**
 * The configuration function: /v1/config/* (plan, apply, export) behind its function URL, so a
 * long apply is not cut at API Gateway's 29 s and its NDJSON progress reaches the client line by
 * line (docs/config.md "In the cloud"). The Bearer key and the admin role are checked by the routes.
 */
export const createConfigHandler = createStreamingUrlHandler;

// An apply has no time limit of its own: its size is bounded by the configuration bucket, and the
// function's timeout (infra/config-docs.ts) leaves room for the largest one the bucket admits.
const tracer = createFunctionTracer('config');
const cloud = createCloudApp(
  loadConfig('cloud'),
  {},
  // The routes an apply calls create, update and delete catalog and notification objects; none
  // sends email or SMS, so its role has no ses:SendEmail or sns:Publish (infra/vigil-stack.ts).
  { tracer, sendsEmail: false },
);
export const handler = createConfigHandler<awslambda.HttpResponseStream>({
  ...cloud,
  runtime: awslambda,
  tracer,
});
