import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { credentialOfRequest } from '../../lib/http/policies/session-cookie.ts';
import { fromApiGatewayEvent, toApiGatewayResult } from '../../lib/lambda-http/lambda-adapter.ts';

/** API Gateway's payload v2 moves cookies out of the headers, both ways: the adapter puts them back. */
const event = (
  cookies: string[] | undefined,
  headers: Record<string, string> = {},
): APIGatewayProxyEventV2 => ({
  version: '2.0',
  routeKey: '$default',
  rawPath: '/v1/me',
  rawQueryString: '',
  headers,
  ...(cookies ? { cookies } : {}),
  requestContext: {
    accountId: '1',
    apiId: 'api',
    domainName: 'api.example.com',
    domainPrefix: 'api',
    http: { method: 'GET', path: '/v1/me', protocol: 'HTTP/1.1', sourceIp: '203.0.113.9', userAgent: 't' },
    requestId: 'r1',
    routeKey: '$default',
    stage: '$default',
    time: '',
    timeEpoch: 0,
  },
  isBase64Encoded: false,
});

describe('cookies through the API Gateway adapter', () => {
  it('joins payload v2 cookies into the Cookie header the router reads the session from', () => {
    const req = fromApiGatewayEvent(event(['theme=dark', 'vigil_session=vss_abc']));
    expect(req.headers.cookie).toBe('theme=dark; vigil_session=vss_abc');
    expect(credentialOfRequest(req.headers)).toBe('Session vss_abc');
  });

  it('lets an Authorization header win over the session cookie', () => {
    const req = fromApiGatewayEvent(event(['vigil_session=vss_abc'], { authorization: 'Bearer vgl_x' }));
    expect(credentialOfRequest(req.headers)).toBe('Bearer vgl_x');
  });

  it('has no cookie and no session credential when the event carries none', () => {
    const req = fromApiGatewayEvent(event(undefined));
    expect(req.headers.cookie).toBeUndefined();
    expect(credentialOfRequest(req.headers)).toBeUndefined();
  });

  it('answers Set-Cookie in payload v2 cookies, not in headers', () => {
    const result = toApiGatewayResult({
      status: 204,
      headers: { 'Set-Cookie': 'vigil_session=vss_abc; HttpOnly', 'x-request-id': 'r1' },
      body: '',
    });
    expect(result.cookies).toEqual(['vigil_session=vss_abc; HttpOnly']);
    expect(result.headers).toEqual({ 'x-request-id': 'r1' });
    expect(toApiGatewayResult({ status: 200, headers: {}, body: '' }).cookies).toBeUndefined();
  });
});
