import type { TestProject } from 'vitest/node';
import { type DynamoDbLocal, startDynamoDbLocal } from './dynamodb-local.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** http://127.0.0.1:<port> of the one DynamoDB Local process shared by this vitest run. */
    dynamodbEndpoint: string;
  }
}

/** The run's one DynamoDB Local, shared by every tier that asks for it (each tier runs this setup). */
const shared = globalThis as { vigilDynamoDbLocal?: { local: Promise<DynamoDbLocal>; users: number } };

/**
 * Starts one DynamoDB Local for the whole run (the tiers that make tables share it); test files
 * `inject('dynamodbEndpoint')` and make their own tables. It does not wait for the JVM:
 * `createTestTable` does, so runs that never touch DynamoDB are not held up by its start.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  shared.vigilDynamoDbLocal ??= { local: startDynamoDbLocal({ waitUntilReady: false }), users: 0 };
  const entry = shared.vigilDynamoDbLocal;
  entry.users += 1;
  const local = await entry.local;
  project.provide('dynamodbEndpoint', local.endpoint);
  return async () => {
    entry.users -= 1;
    if (entry.users > 0) return;
    shared.vigilDynamoDbLocal = undefined;
    await local.stop();
  };
}
