import type { Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STATUS_STREAM_FUNCTION_MS } from '../../lib/status/stream-service.ts';
import { allowStatements, expectStreamingUrl, getAtt, only, synthTemplate } from './synth.ts';

let template: Template;
let cleanup: () => void;
let tableId: string;

const PREFIX = 'StatusStreamHandler';

beforeAll(() => {
  ({ template, cleanup } = synthTemplate());
  [tableId] = only(template, 'AWS::DynamoDB::Table');
}, 120_000);

afterAll(() => cleanup());

describe('status stream', () => {
  it('serves functions/status-stream.ts on a function URL in RESPONSE_STREAM mode, authorised by the app', () => {
    const [fnId] = only(template, 'AWS::Lambda::Function', `${PREFIX}Function`);
    expectStreamingUrl(template, PREFIX, fnId);
  });

  it('times out only after the stream has ended on its own', () => {
    const [, fn] = only(template, 'AWS::Lambda::Function', `${PREFIX}Function`);
    expect(fn.Properties.Timeout).toBeGreaterThan(STATUS_STREAM_FUNCTION_MS / 1000 + 10);
    expect(fn.Properties.Timeout).toBeLessThanOrEqual(900);
  });

  it('gets the table from its environment and may query it', () => {
    const [, fn] = only(template, 'AWS::Lambda::Function', `${PREFIX}Function`);
    expect(fn.Properties.Environment).toEqual({
      Variables: expect.objectContaining({ VIGIL_TABLE_NAME: { Ref: tableId } }),
    });
    const actions = allowStatements(template, PREFIX)
      .filter((st) => JSON.stringify(st.Resource).includes(tableId))
      .flatMap((st) => st.Action as string | string[]);
    expect(actions).toEqual(
      expect.arrayContaining(['dynamodb:Query', 'dynamodb:GetItem', 'dynamodb:UpdateItem']),
    );
  });

  it('outputs the stream URL as StreamUrl', () => {
    const [urlId] = only(template, 'AWS::Lambda::Url', PREFIX);
    expect(template.findOutputs('StreamUrl')).toEqual({
      StreamUrl: expect.objectContaining({ Value: getAtt(urlId, 'FunctionUrl') }),
    });
  });
});
