import { useSession } from '../session';
import { AlertingSection } from '../settings/alerting';
import { KeysSection } from '../settings/keys';
import { PingKeySection } from '../settings/ping-key';
import { SsoSection } from '../settings/sso';
import { TeamSection } from '../settings/team';
import { Page, Section } from '../ui/page';

/** Settings: API keys, the team, and the account's plan limits. */
export function SettingsPage() {
  const { me } = useSession();
  return (
    <Page title="Settings">
      <KeysSection />
      <TeamSection />
      <AlertingSection />
      <PingKeySection />
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
