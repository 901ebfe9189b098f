import { createCloudApp } from '../lib/cloud/composition.ts';

/** EventBridge Scheduler, every minute -> the generator for that minute's window. */
export const handler = createCloudApp().generatorHandler();
