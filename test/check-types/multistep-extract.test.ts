import { describe, expect, it } from 'vitest';
import { extract } from '../../lib/check-types/multistep/extract.ts';

/**
 * What a multistep step's extractions find in a response (lib/check-types/multistep/extract.ts),
 * read directly: a check's steps run in a probe thread, which the suite's coverage does not see.
 */

const response = {
  headers: {
    'content-type': 'application/json',
    'x-request-id': 'req-42',
    'set-cookie': ['theme=dark; Path=/', 'session=s3ss; HttpOnly; Secure'],
  },
  body: '{"token":"tok-1","user":{"id":7,"roles":["admin"]}}',
};

describe('a step extraction', () => {
  it('reads a header by any case of its name', () => {
    expect(extract({ source: 'header', name: 'X-Request-Id' }, response)).toEqual({ value: 'req-42' });
  });

  it('joins a repeated header as one value, as HTTP folds it', () => {
    expect(extract({ source: 'header', name: 'Set-Cookie' }, response)).toEqual({
      value: 'theme=dark; Path=/, session=s3ss; HttpOnly; Secure',
    });
  });

  it('says which header is missing', () => {
    expect(extract({ source: 'header', name: 'X-Missing' }, response)).toEqual({
      error: 'header X-Missing is missing',
    });
  });

  it('reads a JSON value: strings as they are, anything else as JSON', () => {
    expect(extract({ source: 'json_body', path: '$.token' }, response)).toEqual({ value: 'tok-1' });
    expect(extract({ source: 'json_body', path: '$.user.id' }, response)).toEqual({ value: '7' });
    expect(extract({ source: 'json_body', path: '$.user.roles' }, response)).toEqual({ value: '["admin"]' });
    expect(extract({ source: 'json_body', path: '$.nope' }, response)).toEqual({
      error: 'json $.nope is missing',
    });
    expect(extract({ source: 'json_body', path: '$.token' }, { ...response, body: 'not json' })).toEqual({
      error: 'json $.token is missing',
    });
  });

  it('reads a cookie the response sets, by name', () => {
    expect(extract({ source: 'cookie', name: 'session' }, response)).toEqual({ value: 's3ss' });
    expect(extract({ source: 'cookie', name: 'other' }, response)).toEqual({
      error: 'cookie other is not set',
    });
  });
});
