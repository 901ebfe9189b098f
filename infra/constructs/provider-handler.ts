import type { CloudFormationCustomResourceEvent } from 'aws-lambda';
import { createVigilClient, type Transport } from './vigil-client.ts';
import { OBJECT_KINDS, OBJECT_OPS, type ObjectKind } from './vigil-objects.ts';

/**
 * The custom resource provider's onEvent handler (infra/constructs/vigil-constructs.ts bundles it
 * with the local esbuild): CloudFormation's Create, Update and Delete of a VigilEntity, VigilCheck
 * or VigilChannel, carried out through Vigil's API. The provider framework turns a thrown error
 * into the resource's failure reason, so every message here names the call and the API's answer,
 * never the key.
 */

/** What a Vigil custom resource carries besides the service token. */
export interface VigilResourceProperties {
  /** entity, check or channel. */
  Kind: string;
  /**
   * The object's document form as JSON text. CloudFormation hands a custom resource's scalar
   * properties to its provider as strings; JSON text keeps numbers and booleans what they are.
   */
  Document: string;
}

/** Where the API key is stored: exactly one of an SSM SecureString parameter or a Secrets Manager secret. */
export type KeySource = { parameterName: string } | { secretId: string };

export interface ProviderConfig {
  url: string;
  readKey: () => Promise<string>;
  transport?: Transport;
  sleep?: (ms: number) => Promise<void>;
}

/** The provider framework's answer to onEvent. */
export interface ProviderAnswer {
  PhysicalResourceId: string;
  Data: { Identity: string };
}

function documentOf(properties: unknown): { kind: ObjectKind; doc: Record<string, unknown> } {
  const { Kind, Document } = (properties ?? {}) as Partial<VigilResourceProperties>;
  if (!OBJECT_KINDS.includes(Kind as ObjectKind))
    throw new Error(`unknown Vigil object kind ${String(Kind)}`);
  const doc = JSON.parse(String(Document)) as unknown;
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc))
    throw new Error('the Document property is not a JSON object');
  return { kind: Kind as ObjectKind, doc: doc as Record<string, unknown> };
}

/**
 * The handler over a given URL, key reader and transport (tests pass the Lambda harness's). The
 * key is read once per event: a rotated key is used from the next deployment on.
 */
export function createProviderHandler(config: ProviderConfig) {
  return async (event: CloudFormationCustomResourceEvent): Promise<ProviderAnswer> => {
    const call = createVigilClient({
      url: config.url,
      key: await config.readKey(),
      ...(config.transport ? { transport: config.transport } : {}),
      ...(config.sleep ? { sleep: config.sleep } : {}),
    });
    if (event.RequestType === 'Delete') {
      // Properties that never made an object (a failed create's) must not fail the rollback too.
      const parsed = (() => {
        try {
          return documentOf(event.ResourceProperties);
        } catch {
          return undefined;
        }
      })();
      if (parsed) await OBJECT_OPS[parsed.kind].remove(call, event.PhysicalResourceId);
      return { PhysicalResourceId: event.PhysicalResourceId, Data: { Identity: '' } };
    }
    const { kind, doc } = documentOf(event.ResourceProperties);
    const ops = OBJECT_OPS[kind];
    const identity = ops.identity(doc);
    switch (event.RequestType) {
      case 'Create':
        return { PhysicalResourceId: await ops.create(call, doc), Data: { Identity: identity } };
      case 'Update': {
        const old = documentOf(event.OldResourceProperties).doc;
        // Another identity is another object: create it under a new physical id, and
        // CloudFormation deletes the old one once the stack update has succeeded.
        if (ops.identity(old) !== identity)
          return { PhysicalResourceId: await ops.create(call, doc), Data: { Identity: identity } };
        await ops.update(call, event.PhysicalResourceId, doc, old);
        return { PhysicalResourceId: event.PhysicalResourceId, Data: { Identity: identity } };
      }
    }
  };
}

/** An SDK v3 client module as far as the key reader uses it: a client class and a command class. */
type SdkClass = new (input?: unknown) => { send(command: unknown): Promise<Record<string, unknown>> };

/**
 * Reads the key with the AWS SDK v3 that the Lambda Node runtime ships (the bundle leaves
 * `@aws-sdk/*` out, infra/node-function.ts). The module names are held in variables so the
 * TypeScript build does not need the two clients installed; they are not dependencies of the
 * project, and only this reader, which runs in Lambda alone, uses them.
 */
export async function readKeyFromAws(source: KeySource): Promise<string> {
  const load = async (name: string, client: string, command: string, input: unknown) => {
    const module = (await import(['@aws-sdk', name].join('/'))) as Record<string, SdkClass>;
    const Client = module[client];
    const Command = module[command];
    if (!Client || !Command) throw new Error(`@aws-sdk/${name} has no ${client} or ${command}`);
    return new Client().send(new Command(input));
  };
  if ('parameterName' in source) {
    const answer = await load('client-ssm', 'SSMClient', 'GetParameterCommand', {
      Name: source.parameterName,
      WithDecryption: true,
    });
    const value = (answer.Parameter as { Value?: string } | undefined)?.Value;
    if (!value) throw new Error(`the SSM parameter ${source.parameterName} has no value`);
    return value.trim();
  }
  const answer = await load('client-secrets-manager', 'SecretsManagerClient', 'GetSecretValueCommand', {
    SecretId: source.secretId,
  });
  const value = answer.SecretString;
  if (typeof value !== 'string' || !value)
    throw new Error(`the secret ${source.secretId} has no string value`);
  return value.trim();
}

/**
 * The Lambda entry: its environment, set by VigilProvider, is the Vigil URL and the name of the
 * parameter or secret holding the key (never the key itself). This is the function's one
 * configuration module, as bin/ is for the processes.
 */
export const handler = (event: CloudFormationCustomResourceEvent) => {
  const env = process.env;
  const url = env.VIGIL_URL ?? '';
  const source: KeySource = env.VIGIL_KEY_PARAMETER
    ? { parameterName: env.VIGIL_KEY_PARAMETER }
    : { secretId: env.VIGIL_KEY_SECRET ?? '' };
  return createProviderHandler({ url, readKey: () => readKeyFromAws(source) })(event);
};
