import type { Schemas } from '../api/client';

/** A check's notification policy as facts, for a key that may not change it. */
export function PolicyFacts({ policy }: { policy: Schemas['NotificationPolicy'] }) {
  return (
    <dl className="check-config">
      <div>
        <dt>Cooldown</dt>
        <dd>{policy.cooldown_seconds} s</dd>
      </div>
      <div>
        <dt>Recovery alerts</dt>
        <dd>{policy.notify_on_recovery ? 'on' : 'off'}</dd>
      </div>
      <div>
        <dt>Silenced</dt>
        <dd>{policy.silenced ? 'yes: no alerts are sent' : 'no'}</dd>
      </div>
      <div>
        <dt>Repeat while down</dt>
        <dd>{policy.repeat_interval_seconds ? `every ${policy.repeat_interval_seconds} s` : 'never'}</dd>
      </div>
      <div>
        <dt>Hold back while an upstream is down</dt>
        <dd>{policy.suppress_when_upstream_down ? 'yes' : 'no'}</dd>
      </div>
      <div>
        <dt>Flapping</dt>
        <dd>
          {policy.flap_changes
            ? `more than ${policy.flap_changes} changes in ${policy.flap_window_seconds} s`
            : 'not detected'}
        </dd>
      </div>
    </dl>
  );
}
