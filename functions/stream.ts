import { createCloudApp } from '../lib/cloud/composition.ts';
import { createStreamHandler } from '../lib/events/stream-handler.ts';

const { app } = createCloudApp();

/** DynamoDB Streams -> change-feed consumers (purges, notifications, actions). */
export const handler = createStreamHandler(app.consumers);
