import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api, fieldErrors, must } from '../api/client';
import { useSession } from '../session';
import { ErrorNote, Loading, Notice } from '../ui/feedback';
import { CheckboxField, SelectField, TextField } from '../ui/fields';
import { FormShell } from '../ui/form-shell';
import { Section } from '../ui/page';
import { settingsKeys, settingsQueries } from './queries';

const MASK = '********';
type Role = 'admin' | 'member' | 'viewer';

/**
 * Single sign-on with the team's OpenID Connect provider (docs/auth.md "SSO with OIDC"), admins
 * only: the issuer, the client (its secret write-only: shown as ********, kept unless replaced),
 * who may sign in, their first role, and whether passwords are refused.
 */
export function SsoSection() {
  const { isAdmin: admin, me } = useSession();
  if (!admin) return null;
  return <SsoForm tenantId={me.id} />;
}

function SsoForm({ tenantId }: { tenantId: string }) {
  const queryClient = useQueryClient();
  const settings = useQuery(settingsQueries.sso());
  const [issuer, setIssuer] = useState('');
  const [clientId, setClientId] = useState('');
  const [secret, setSecret] = useState('');
  const [domains, setDomains] = useState('');
  const [role, setRole] = useState<Role>('member');
  const [required, setRequired] = useState(false);
  const [slug, setSlug] = useState('');
  useEffect(() => {
    const s = settings.data;
    if (!s) return;
    setIssuer(s.issuer ?? '');
    setClientId(s.client_id ?? '');
    setSecret(s.configured ? MASK : '');
    setDomains(s.email_domains.join(', '));
    setRole(s.default_role);
    setRequired(s.required);
    setSlug(s.slug ?? '');
  }, [settings.data]);
  const save = useMutation({
    mutationFn: () =>
      must(
        api.PUT('/v1/settings/sso', {
          body: {
            issuer: issuer.trim(),
            client_id: clientId.trim(),
            ...(secret === '' ? {} : { client_secret: secret }),
            email_domains: domains
              .split(/[\s,]+/)
              .map((d) => d.trim())
              .filter((d) => d !== ''),
            default_role: role,
            required,
            ...(slug.trim() === '' ? {} : { slug: slug.trim() }),
          },
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: settingsKeys.sso }),
  });
  const errs = fieldErrors(save.error);
  const origin = window.location.origin;
  const callback = `${origin}${settings.data?.callback_path ?? '/v1/sso/callback'}`;
  const startLink = `${origin}/v1/sso/start?tenant=${encodeURIComponent(settings.data?.slug ?? tenantId)}`;
  return (
    <Section title="SSO">
      <ErrorNote error={settings.error} title="The SSO settings could not be read." />
      {settings.isPending ? <Loading what="SSO settings" /> : null}
      {settings.data ? (
        <FormShell
          title="SSO settings"
          heading={false}
          send={save}
          submitLabel="Save SSO settings"
          failed="The SSO settings were not saved."
          done={
            <>
              {save.isSuccess ? <Notice>Saved.</Notice> : null}
              {settings.data.configured ? (
                <p className="muted">
                  Sign-in link: <code>{startLink}</code>
                </p>
              ) : null}
            </>
          }
          before={
            <p className="muted">
              Register Vigil at your OpenID Connect provider (Okta, Entra ID, Google, Keycloak, Amazon
              Cognito…) as a web application with the redirect URI <code>{callback}</code>.
            </p>
          }
        >
          <TextField
            label="Issuer URL"
            type="url"
            value={issuer}
            onChange={setIssuer}
            placeholder="https://login.example.com"
            hint="https://; Vigil reads its /.well-known/openid-configuration"
            error={errs.issuer}
          />
          <TextField label="Client ID" value={clientId} onChange={setClientId} error={errs.client_id} />
          <TextField
            label="Client secret"
            type="password"
            autoComplete="off"
            value={secret}
            onChange={setSecret}
            hint={
              settings.data.configured ? 'Stored; leave ******** to keep it' : 'Write-only: never shown again'
            }
            error={errs.client_secret}
          />
          <TextField
            label="Allowed e-mail domains"
            value={domains}
            onChange={setDomains}
            placeholder="example.com, example.org"
            hint="People with a verified address in these domains may sign in"
            error={errs.email_domains ?? errs['email_domains.0']}
          />
          <SelectField
            label="Role on first sign-in"
            value={role}
            onChange={(v) => setRole(v as Role)}
            options={['viewer', 'member', 'admin']}
            hint="A pending invitation's role wins"
            error={errs.default_role}
          />
          <TextField
            label="Sign-in slug"
            value={slug}
            onChange={setSlug}
            placeholder="acme"
            hint="Optional: a short name for the sign-in link, unique across teams"
            error={errs.slug}
          />
          <CheckboxField
            label="Require SSO (refuse password sign-in)"
            checked={required}
            onChange={setRequired}
            hint="API keys keep working"
          />
        </FormShell>
      ) : null}
    </Section>
  );
}
