import { describe, expect, it } from 'vitest';
import { generateApiKey } from '../../lib/auth/api-key.ts';
import { loadConfig } from '../../lib/platform/config.ts';

describe('loadConfig: VIGIL_BOOTSTRAP_KEY', () => {
  it('takes a well-formed key as the bootstrap key', () => {
    const key = generateApiKey();

    const config = loadConfig('local', { VIGIL_BOOTSTRAP_KEY: key });

    expect(config.bootstrapKey).toBe(key);
  });

  it('refuses a malformed key with a readable line naming the variable and the format', () => {
    const key = generateApiKey();
    const typo = `${key.slice(0, 10)}${key[10] === 'a' ? 'b' : 'a'}${key.slice(11)}`;

    for (const bad of ['vgl_not-a-key', typo]) {
      expect(() => loadConfig('local', { VIGIL_BOOTSTRAP_KEY: bad })).toThrow(
        'invalid configuration:\n  VIGIL_BOOTSTRAP_KEY: must be a valid Vigil key (vgl_ + 32 base62 characters + 6-character checksum)',
      );
    }
  });

  it('leaves the bootstrap key unset when the variable is absent', () => {
    expect(loadConfig('cloud', {}).bootstrapKey).toBeUndefined();
  });
});
