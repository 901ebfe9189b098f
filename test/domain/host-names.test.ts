import { describe, expect, it } from 'vitest';
import { hostnameOf } from '../../lib/domain/formats.ts';

describe('hostnameOf', () => {
  it('answers each Host value its own name, however the values alternate (the last one read is remembered)', () => {
    const cases: Array<[string, string | undefined]> = [
      ['Status.Example.com:8443', 'status.example.com'],
      ['127.0.0.1:3000', '127.0.0.1'],
      ['[::1]:8080', '[::1]'],
      ['not a host', undefined],
      ['localhost', 'localhost'],
      ['', undefined],
    ];
    for (let round = 0; round < 3; round += 1)
      for (const [host, name] of cases) {
        expect(hostnameOf(host), host).toBe(name);
        expect(hostnameOf(host), `${host} again`).toBe(name);
      }
  });
});
