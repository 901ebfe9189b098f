import type { TestProject } from 'vitest/node';
import { startDynamoDbLocal } from './dynamodb-local.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** http://127.0.0.1:<port> of the one DynamoDB Local process shared by this vitest run. */
    dynamodbEndpoint: string;
  }
}

/**
 * Starts one DynamoDB Local for the whole run; test files `inject('dynamodbEndpoint')` and make
 * their own tables. It does not wait for the JVM: `createTestTable` does, so runs that never touch
 * DynamoDB are not held up by its start.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const local = await startDynamoDbLocal({ waitUntilReady: false });
  project.provide('dynamodbEndpoint', local.endpoint);
  return () => local.stop();
}
