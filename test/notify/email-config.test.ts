import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../lib/platform/config.ts';

/** VIGIL_SMTP_URL and VIGIL_EMAIL_FROM as the config reads them (docs/settings.md's table). */
describe('email settings', () => {
  it('reads an smtp:// or smtps:// URL and a sender with or without a display name', () => {
    const config = loadConfig('local', {
      VIGIL_SMTP_URL: 'smtps://vigil:p%40ss@smtp.example.com',
      VIGIL_EMAIL_FROM: 'Vigil Alerts <alerts@example.com>',
    });
    expect(config.smtpUrl).toBe('smtps://vigil:p%40ss@smtp.example.com');
    expect(config.emailFrom).toEqual({ address: 'alerts@example.com', name: 'Vigil Alerts' });
    expect(loadConfig('cloud', { VIGIL_EMAIL_FROM: 'alerts@example.com' }).emailFrom).toEqual({
      address: 'alerts@example.com',
    });
    expect(loadConfig('local', {})).toMatchObject({ smtpUrl: undefined, emailFrom: undefined });
  });

  it.each([
    ['VIGIL_SMTP_URL', 'https://smtp.example.com'],
    ['VIGIL_SMTP_URL', 'smtp.example.com:587'],
    ['VIGIL_EMAIL_FROM', 'not-an-address'],
    ['VIGIL_EMAIL_FROM', 'alerts@example.com\r\nBcc: victim@example.com'],
    ['VIGIL_EMAIL_FROM', 'a@example.com, b@example.com'],
    ['VIGIL_EMAIL_FROM', '"Vi\\"gil" <alerts@example.com>'],
  ])('refuses %s=%j, naming the variable and not echoing a password', (name, value) => {
    expect(() => loadConfig('local', { [name]: value })).toThrow(
      new RegExp(`invalid configuration:\\n {2}${name}`),
    );
  });
});
