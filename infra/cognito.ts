import { Aws, CfnOutput, Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import {
  AccountRecovery,
  FeaturePlan,
  Mfa,
  OAuthScope,
  StandardThreatProtectionMode,
  UserPool,
  type UserPoolClient,
  UserPoolClientIdentityProvider,
} from 'aws-cdk-lib/aws-cognito';
import { Construct } from 'constructs';

/** The callback path of Vigil's SSO (lib/sso/sso-settings.ts CALLBACK_PATH). */
const CALLBACK_PATH = '/v1/sso/callback';

/**
 * An optional Amazon Cognito user pool as the teams' OpenID Connect provider (`-c vigil:cognito=true`,
 * docs/auth.md "Amazon Cognito as the provider"): people created by an admin (no self sign-up),
 * e-mail verified, MFA required (an authenticator app); a confidential app client (code grant, `openid email profile`)
 * whose callback is the console's `/v1/sso/callback`. The outputs give the issuer and client id to
 * enter in Settings → SSO; the client secret stays in Cognito (read it there).
 */
export class VigilCognito extends Construct {
  readonly userPool: UserPool;
  readonly client: UserPoolClient;

  constructor(scope: Construct, id: string, props: { consoleUrl: string; publicUrl?: string | undefined }) {
    super(scope, id);
    this.userPool = new UserPool(this, 'UserPool', {
      selfSignUpEnabled: false,
      signInAliases: { email: true },
      autoVerify: { email: true },
      standardAttributes: { email: { required: true, mutable: true } },
      passwordPolicy: {
        minLength: 12,
        requireLowercase: true,
        requireUppercase: true,
        requireDigits: true,
        requireSymbols: true,
        tempPasswordValidity: Duration.days(3),
      },
      // cdk-nag's COG2: every person proves a second factor (an authenticator app).
      mfa: Mfa.REQUIRED,
      mfaSecondFactor: { otp: true, sms: false },
      featurePlan: FeaturePlan.PLUS,
      standardThreatProtectionMode: StandardThreatProtectionMode.FULL_FUNCTION,
      accountRecovery: AccountRecovery.EMAIL_ONLY,
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    // The hosted sign-in pages answer the authorization endpoint; the prefix is unique per account and region.
    this.userPool.addDomain('Domain', { cognitoDomain: { domainPrefix: `vigil-${Aws.ACCOUNT_ID}` } });
    const callbacks = [`${props.consoleUrl.replace(/\/+$/, '')}${CALLBACK_PATH}`];
    if (props.publicUrl) callbacks.push(`${props.publicUrl.replace(/\/+$/, '')}${CALLBACK_PATH}`);
    this.client = this.userPool.addClient('VigilClient', {
      generateSecret: true,
      preventUserExistenceErrors: true,
      supportedIdentityProviders: [UserPoolClientIdentityProvider.COGNITO],
      oAuth: {
        flows: { authorizationCodeGrant: true },
        scopes: [OAuthScope.OPENID, OAuthScope.EMAIL, OAuthScope.PROFILE],
        callbackUrls: callbacks,
      },
    });
    const region = Stack.of(this).region;
    new CfnOutput(this, 'Issuer', {
      value: `https://cognito-idp.${region}.amazonaws.com/${this.userPool.userPoolId}`,
      description: 'SSO issuer URL for Settings → SSO (docs/auth.md)',
    });
    new CfnOutput(this, 'ClientId', {
      value: this.client.userPoolClientId,
      description: 'SSO client id for Settings → SSO; its secret is in the Cognito console',
    });
  }
}
