import { createCloudApp } from '../lib/cloud/composition.ts';

/** SQS probe jobs -> the worker (partial batch failures reported per message). */
export const handler = createCloudApp().workerHandler();
