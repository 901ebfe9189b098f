import { ContactMethodsSection } from '../contacts/contact-methods';
import { NotificationRulesSection } from '../contacts/notification-rules';
import { useSession } from '../session';
import { AlertingSection } from '../settings/alerting';
import { ConnectedClientsSection } from '../settings/connected-clients';
import { KeysSection } from '../settings/keys';
import { PingKeySection } from '../settings/ping-key';
import { ReportsSection } from '../settings/reports';
import { SecuritySection } from '../settings/security';
import { SessionsSection } from '../settings/sessions';
import { SsoSection } from '../settings/sso';
import { TeamSection } from '../settings/team';
import { Page, Section } from '../ui/page';

/** Settings: your security and sessions (people only), API keys, the team, your connected MCP clients, and the account's plan limits. */
export function SettingsPage() {
  const { me, credential, canWrite } = useSession();
  // Your own account: a person signed in as themselves (a viewer too), or a key that can write; not a read-only key.
  const yours = me.user !== null && (credential.kind === 'cookie' || canWrite);
  return (
    <Page title="Settings">
      {yours ? <SecuritySection /> : null}
      {yours ? <SessionsSection /> : null}
      {yours ? <ReportsSection /> : null}
      {yours ? <ContactMethodsSection /> : null}
      {yours ? <NotificationRulesSection /> : null}
      <KeysSection />
      <TeamSection />
      <AlertingSection />
      <PingKeySection />
      <ConnectedClientsSection />
      <SsoSection />
      <Section title="Plan limits">
        <p className="muted">
          Account {me.name} ({me.email}). The operator sets these limits.
        </p>
        <dl className="stats">
          <div className="stat">
            <dt>Blueprints</dt>
            <dd>{me.blueprint_limit}</dd>
          </div>
          <div className="stat">
            <dt>Entities per blueprint</dt>
            <dd>{me.entity_limit_per_bp}</dd>
          </div>
          <div className="stat">
            <dt>Checks per entity</dt>
            <dd>{me.check_limit_per_entity}</dd>
          </div>
          <div className="stat">
            <dt>Result retention</dt>
            <dd>{me.retention_days} days</dd>
          </div>
        </dl>
      </Section>
    </Page>
  );
}
