import { ArnFormat, type CfnElement, CustomResource, Duration, Stack, Validations } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Provider } from 'aws-cdk-lib/custom-resources';
import { Construct, type IConstruct } from 'constructs';
import type * as z from 'zod';
import type { createEntityBody } from '../../lib/catalog/services.ts';
import type { createCheckBody } from '../../lib/checks/check-input.ts';
import type { tenantChannelInputSchema } from '../../lib/notify/schemas.ts';
import { VigilFunction } from '../node-function.ts';
import type { VigilResourceProperties } from './provider-handler.ts';
import type { ObjectKind } from './vigil-objects.ts';

/**
 * Vigil monitoring declared next to the service it watches (docs/cdk-constructs.md): an entity,
 * its checks and a shared channel as CloudFormation custom resources whose properties are the
 * objects' document form (lib/config-doc), created, updated and deleted through Vigil's API by the
 * stack's one VigilProvider.
 */

/** Where the provider reads the Vigil API key at deploy time; the key itself is never in the template. */
type VigilApiKey =
  /** An SSM SecureString parameter (encrypted with the account's aws/ssm key), by name. */
  | { parameterName: string }
  /** A Secrets Manager secret whose string value is the key, by name. */
  | { secretName: string };

export interface VigilProviderProps {
  /** Vigil's API base URL, e.g. `https://vigil.example.com`. */
  readonly url: string;
  readonly apiKey: VigilApiKey;
}

/**
 * The custom resource provider of a stack's Vigil objects: one onEvent Lambda (the provider
 * handler, bundled by the local esbuild) behind `aws-cdk-lib/custom-resources`' Provider. Create it
 * once per stack and hand it to each object.
 */
export class VigilProvider extends Construct {
  readonly serviceToken: string;
  readonly handler: VigilFunction;

  constructor(scope: Construct, id: string, props: VigilProviderProps) {
    super(scope, id);
    const stack = Stack.of(this);
    const other = stack.node.findAll().find((c) => c instanceof VigilProvider && c !== this);
    if (other) throw new Error(`a stack has one VigilProvider; ${other.node.path} is this stack's`);
    const keyEnv: Record<string, string> =
      'parameterName' in props.apiKey
        ? { VIGIL_KEY_PARAMETER: props.apiKey.parameterName }
        : { VIGIL_KEY_SECRET: props.apiKey.secretName };
    this.handler = new VigilFunction(this, 'Handler', {
      entry: 'infra/constructs/provider-handler.ts',
      memorySize: 256,
      // Five attempts of at most 10 s each, with their waits, fit in it.
      timeout: Duration.minutes(2),
      environment: { VIGIL_URL: props.url, ...keyEnv },
    });
    // Read of the one named parameter or secret, nothing else.
    this.handler.function.addToRolePolicy(
      'parameterName' in props.apiKey
        ? new PolicyStatement({
            actions: ['ssm:GetParameter'],
            resources: [
              stack.formatArn({
                service: 'ssm',
                resource: 'parameter',
                resourceName: props.apiKey.parameterName.replace(/^\//, ''),
              }),
            ],
          })
        : new PolicyStatement({
            actions: ['secretsmanager:GetSecretValue'],
            // A secret's ARN ends in six random characters after its name.
            resources: [
              stack.formatArn({
                service: 'secretsmanager',
                resource: 'secret',
                resourceName: `${props.apiKey.secretName}-??????`,
                arnFormat: ArnFormat.COLON_RESOURCE_NAME,
              }),
            ],
          }),
    );
    const provider = new Provider(this, 'Provider', { onEventHandler: this.handler.function });
    this.serviceToken = provider.serviceToken;
    acknowledgeFrameworkFindings(provider, this.handler);
  }
}

/** The provider framework's own Lambda is the CDK's: its findings are acknowledged with why. */
function acknowledgeFrameworkFindings(provider: Provider, handler: VigilFunction): void {
  const framework: IConstruct | undefined = provider.node.tryFindChild('framework-onEvent');
  if (!framework) return;
  const stack = Stack.of(provider);
  const handlerId = stack.resolve(stack.getLogicalId(handler.function.node.defaultChild as CfnElement));
  const ack = (id: string, reason: string) => Validations.of(framework).acknowledge({ id, reason });
  ack(
    'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
    "The CDK's custom resource provider framework function writes its logs with the basic execution role it creates.",
  );
  ack(
    `AwsSolutions-IAM5[Resource::<${handlerId}.Arn>:*]`,
    'The provider framework invokes any version of the onEvent handler it fronts, and only that function.',
  );
  ack(
    'AwsSolutions-L1',
    "The provider framework function's runtime is chosen by the CDK release, not by Vigil.",
  );
}

interface ObjectProps {
  /** The stack's VigilProvider. */
  readonly provider: VigilProvider;
}

/** One Vigil object: a custom resource of the provider with its document form. */
abstract class VigilObject extends Construct {
  readonly resource: CustomResource;
  /** The object's Vigil id (an entity's is its reference `<blueprint>/<slug>`). */
  readonly objectId: string;

  constructor(scope: Construct, id: string, provider: VigilProvider, kind: ObjectKind, doc: object) {
    super(scope, id);
    const properties: VigilResourceProperties = { Kind: kind, Document: Stack.of(this).toJsonString(doc) };
    this.resource = new CustomResource(this, 'Resource', {
      serviceToken: provider.serviceToken,
      resourceType: `Custom::Vigil${kind[0]?.toUpperCase()}${kind.slice(1)}`,
      properties,
    });
    this.objectId = this.resource.ref;
  }
}

export type VigilEntityDocument = z.input<typeof createEntityBody> & { blueprint: string };

/** A catalog entity (`POST /v1/blueprints/{blueprint}/entities`); its blueprint must exist. */
export class VigilEntity extends VigilObject {
  /** The entity's reference in documents: `<blueprint>/<slug>`. */
  readonly ref: string;

  constructor(scope: Construct, id: string, props: ObjectProps & VigilEntityDocument) {
    const { provider, ...given } = props;
    // The document form has the API's defaults applied, as lib/config-doc's entity kind reads it.
    const doc = { fields: {}, state_rule: null, ...given };
    super(scope, id, provider, 'entity', doc);
    this.ref = `${props.blueprint}/${props.slug}`;
  }
}

type CheckBody = z.input<typeof createCheckBody>;
/** A check's document form: its create body with `entity` (a reference) for `entity_id`, and a name. */
export type VigilCheckDocument = CheckBody extends infer B
  ? B extends unknown
    ? Omit<B, 'entity_id' | 'name'> & { name: string }
    : never
  : never;

/** A check of an entity (`POST /v1/checks`); its name is its identity within the entity. */
export class VigilCheck extends VigilObject {
  constructor(
    scope: Construct,
    id: string,
    props: ObjectProps & { entity: VigilEntity | string; check: VigilCheckDocument },
  ) {
    const entity = typeof props.entity === 'string' ? props.entity : props.entity.ref;
    super(scope, id, props.provider, 'check', { ...props.check, entity });
    // Created after its entity, deleted before it.
    if (typeof props.entity !== 'string') this.node.addDependency(props.entity);
  }
}

export type VigilChannelDocument = z.input<typeof tenantChannelInputSchema>;

/**
 * A shared channel (`POST /v1/notify/channels`). Its config's secrets are properties like any
 * other: pass a dynamic reference (`SecretValue.secretsManager(…).unsafeUnwrap()`) so the
 * template holds the reference, not the secret.
 */
export class VigilChannel extends VigilObject {
  readonly name: string;

  constructor(scope: Construct, id: string, props: ObjectProps & { channel: VigilChannelDocument }) {
    super(scope, id, props.provider, 'channel', props.channel);
    this.name = props.channel.name;
  }
}
