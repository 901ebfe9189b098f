import middy from '@middy/core';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import type { ChangeConsumer } from '../store/change-feed.ts';
import { dispatchRecords } from './dispatch.ts';

/** The stream Lambda: DynamoDB Streams batch -> the same consumers the local pump feeds. */
export function createStreamHandler(consumers: ChangeConsumer[]) {
  return middy<DynamoDBStreamEvent, void>().handler(async (event) => {
    await dispatchRecords(event.Records, consumers);
  });
}
