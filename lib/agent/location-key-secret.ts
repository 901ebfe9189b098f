import { checkLocationKey } from './agent-options.ts';

/** Reads a secret's current string value; undefined when the secret has none yet. */
export type SecretReader = (secretId: string) => Promise<string | undefined>;

/** Why no location key could be read: the handler logs it and skips the minute. */
export class LocationKeyUnavailable extends Error {
  override name = 'LocationKeyUnavailable';
}

/**
 * An AWS region's location key, read from its Secrets Manager secret at the first need and kept
 * for the life of the Lambda container. `invalidate()` (the key was refused: rotated or revoked)
 * makes the next `get()` read the secret again. A failed read is not kept: the next minute asks
 * again, so a key put into the secret after the deploy is picked up without one.
 */
export function createLocationKeySource(options: { secretId: string; read: SecretReader }) {
  let cached: string | undefined;
  return {
    async get(): Promise<string> {
      if (cached !== undefined) return cached;
      let value: string | undefined;
      try {
        value = await options.read(options.secretId);
      } catch (err) {
        const name = err instanceof Error ? err.name : '';
        // An empty secret (created by the stack, not yet given the key) has no AWSCURRENT value.
        if (name !== 'ResourceNotFoundException') throw err;
      }
      if (value === undefined || value.trim() === '')
        throw new LocationKeyUnavailable(
          `the secret ${options.secretId} holds no location key yet (docs/locations.md "AWS regions")`,
        );
      try {
        cached = checkLocationKey(value, `the secret ${options.secretId}`);
      } catch (err) {
        throw new LocationKeyUnavailable(err instanceof Error ? err.message : String(err));
      }
      return cached;
    },
    invalidate(): void {
      cached = undefined;
    },
  };
}

/** The SDK's client as this module uses it (the package is loaded at run time, below). */
interface SecretsManagerSdk {
  SecretsManagerClient: new (config: {
    region: string;
  }) => { send(command: unknown): Promise<{ SecretString?: string }> };
  GetSecretValueCommand: new (input: { SecretId: string }) => unknown;
}

/**
 * Not a dependency of the project: the Lambda Node.js runtime ships the AWS SDK v3, whose
 * @aws-sdk/* packages every function leaves out of its bundle (infra/node-function.ts). A name the
 * type checker does not resolve, so the project builds without the package installed.
 */
const SECRETS_MANAGER_MODULE: string = '@aws-sdk/client-secrets-manager';

/** GetSecretValue in `region`, through the Lambda runtime's SDK; one client per container. */
export function secretsManagerReader(region: string): SecretReader {
  let client: InstanceType<SecretsManagerSdk['SecretsManagerClient']> | undefined;
  let sdk: SecretsManagerSdk | undefined;
  return async (secretId) => {
    sdk ??= (await import(SECRETS_MANAGER_MODULE)) as SecretsManagerSdk;
    client ??= new sdk.SecretsManagerClient({ region });
    const out = await client.send(new sdk.GetSecretValueCommand({ SecretId: secretId }));
    return out.SecretString;
  };
}
