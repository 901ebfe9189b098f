import { randomUUID } from 'node:crypto';
import type { Context } from 'aws-lambda';

/** A Lambda context with every field the type declares. */
export function lambdaContext(functionName: string): Context {
  const fail = () => {
    throw new Error('callback-style completion is not used');
  };
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:us-east-1:123456789012:function:${functionName}`,
    memoryLimitInMB: '512',
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: '2026/01/01/[$LATEST]0123456789abcdef',
    getRemainingTimeInMillis: () => 60_000,
    done: fail,
    fail,
    succeed: fail,
  };
}
