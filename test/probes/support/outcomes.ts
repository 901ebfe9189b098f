import { expect } from 'vitest';

/** The outcome of a probe whose server answered in plain text where TLS was asked: a failure in words, with the code kept. */
export const NOT_TLS = {
  success: false,
  status_code: 0,
  latency_ms: expect.any(Number),
  error_message: 'the server did not answer with TLS',
  details: { error_code: 'ERR_SSL_WRONG_VERSION_NUMBER' },
};
