import { emailProvider } from './email.ts';
import { ntfyProvider } from './ntfy.ts';
import type { Provider } from './provider.ts';
import { pushoverProvider } from './pushover.ts';
import { smsProvider } from './sms.ts';
import { telegramProvider } from './telegram.ts';

/**
 * The one messaging-provider registry: every provider by the name the API knows its channel type
 * by, each declared whole in its one file (./<provider>.ts: its config rules, its request, its
 * error words and its uses, `channel` and `people`). Adding one is that file and one line here
 * (CONTRIBUTING.md "Adding a messaging provider"): lib/notify derives its channel type
 * (lib/notify/channels/registry.ts CHANNEL_DEFINITIONS) and lib/contacts the kinds of contact
 * method it serves (lib/contacts/kinds/registry.ts) from this object.
 */
export const PROVIDERS = {
  ntfy: ntfyProvider,
  email: emailProvider,
  telegram: telegramProvider,
  pushover: pushoverProvider,
  sms: smsProvider,
} satisfies Record<string, Provider>;
