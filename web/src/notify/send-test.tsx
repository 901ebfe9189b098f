import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api, must, type Schemas } from '../api/client';
import { ErrorNote } from '../ui/feedback';
import { deliveriesChanged } from './queries';
import { deliveryInWords } from './words';

type Policy = Schemas['NotificationPolicy'];

/** "Send test" for a check: one test alert through each of its channels, and what each answered. */
export function SendTest({ checkId, hasChannels }: { checkId: string; hasChannels: boolean }) {
  const queryClient = useQueryClient();
  const test = useMutation({
    mutationFn: () =>
      must(
        api.POST('/v1/checks/{check_id}/policy/test', { params: { path: { check_id: checkId } }, body: {} }),
      ),
    onSettled: () => deliveriesChanged(queryClient),
  });
  return (
    <div className="notify-test">
      <div className="row">
        <button type="button" disabled={test.isPending || !hasChannels} onClick={() => test.mutate()}>
          {test.isPending ? 'Sending test…' : 'Send test'}
        </button>
        {hasChannels ? null : <span className="muted">Add a channel to send a test.</span>}
      </div>
      <ErrorNote error={test.error} title="The test could not be sent." />
      {test.data ? (
        <div className="note" role="status">
          <strong>Test result:</strong>
          <ul>
            {test.data.map((d) => (
              <li key={d.id}>{deliveryInWords(d)}</li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}

/** The states a route takes, in words: "when it goes down", or every change. */
function statesWords(states: readonly string[]): string {
  return states.length === 0 ? 'on every change' : `when it goes ${states.join(' or ')}`;
}

/**
 * The routes that also deliver this check's alerts (matching its entity or blueprint), with their
 * shared channels: a check whose only path is a route is still told about.
 */
/** The shared channels that routes add to a check's own, each with the states it hears. */
export function RoutedChannels({ routes, own }: { routes: Policy['routes']; own: number }) {
  const delivering = routes.filter((r) => r.channels.length > 0);
  if (delivering.length === 0) return null;
  return (
    <div className="routed-channels">
      <p>
        {own === 0 ? 'Routes deliver its alerts' : 'Routes also deliver its alerts'} to{' '}
        {delivering.length === 1 ? 'this shared channel' : 'these shared channels'} (
        <Link to="/channels">routes</Link>):
      </p>
      <ul aria-label="Channels reached by routes">
        {delivering.flatMap((r) =>
          r.channels.map((c) => (
            <li key={`${r.route_id}-${c.id}`}>
              <span className="badge">{c.channel_type}</span> <strong>{c.name}</strong>{' '}
              {statesWords(r.to_states)}
            </li>
          )),
        )}
      </ul>
    </div>
  );
}
