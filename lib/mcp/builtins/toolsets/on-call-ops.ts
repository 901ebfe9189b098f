import type { CreateSkillBody } from '../../../skills/manifest.ts';
import { explainAlertingInput } from '../catalog-ops-schemas.ts';
import { explainAlerting } from '../explain-alerting.ts';
import { WHO_IS_ON_CALL_ENTRY } from '../who-is-on-call.ts';

/** The on-call-ops toolset: who is on call, and who would be told of a change and why. */
export const ON_CALL_OPS_MANIFEST = {
  slug: 'on-call-ops',
  name: 'On-call operations',
  description: 'Who is on call for an entity or team, and why someone would (not) be paged.',
  version: '1.1.0',
  enabled: true,
  tools: [
    WHO_IS_ON_CALL_ENTRY,
    {
      name: 'explain_alerting',
      description:
        'Why would I (not) be paged: for a check or an entity changing to to_state now, what each channel would get (send, skip, defer) and why; and what each channel was last told about the entity (last_told) and, while that is not its state, what holds the truth back until when (held); sends nothing.',
      inputSchema: explainAlertingInput,
      annotations: explainAlerting.annotations,
    },
  ],
} satisfies CreateSkillBody;
