import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, bothRuntimes } from '../support/api-harness.ts';

/** Without e-mail configured, a reset request is refused with the settings the operator must make. */
describe.each(bothRuntimes)('password reset without e-mail ($runtime runtime)', ({ runtime, start }) => {
  let api: ApiHarness;

  beforeAll(async () => {
    api = await start();
  });
  afterAll(async () => {
    await api.close();
  });

  it('answers 400 naming the settings to make, for every address', async () => {
    const res = await api.request('POST', '/v1/password-reset', { body: { email: 'someone@example.com' } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    expect(res.body.error).toContain(runtime === 'local' ? 'VIGIL_SMTP_URL' : 'emailFrom');
    expect(res.body.error).toContain('operator');
  });
});
