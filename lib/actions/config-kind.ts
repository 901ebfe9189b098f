import * as z from 'zod';
import { type Api, defineKind, expectOk, type NameIndex, postNew, seg } from '../config-doc/kind.ts';
import { requireUniqueNames } from '../config-doc/names.ts';
import { ConflictError } from '../platform/errors.ts';
import type { publicActionSchema } from './api.ts';
import { createActionBody } from './api.ts';

declare module '../config-doc/kind.ts' {
  interface DocLists {
    actions: true;
  }
}

type PublicAction = z.output<typeof publicActionSchema>;

/** A check as the document names it: `<blueprint slug>/<entity slug>:<check name>`. */
const checkRef = z
  .string()
  .regex(/^[^/:\s]+\/[^/:\s]+:\S(.*\S)?$/, 'Name the check as <blueprint slug>/<entity slug>:<check name>.')
  .meta({
    description: 'The check whose changes run the action: `<blueprint slug>/<entity slug>:<check name>`',
  });
const noCheck = z.null({ error: 'only a state_change action has one' }).optional();

/**
 * An action in the document: POST /v1/actions's body, one shape per trigger type, with `check_id`
 * replaced by `check`. The parsed form has every field whatever the trigger type (null where the
 * type has none), as the API reads an action back, so a manual action that leaves the trigger
 * fields out equals the same action read from the tenant.
 */
const [manual, stateChange, schedule] = createActionBody.in.options;
const actionDoc = z
  .discriminatedUnion('trigger_type', [
    manual.omit({ check_id: true }).extend({ check: noCheck }),
    stateChange.omit({ check_id: true }).extend({ check: checkRef }),
    schedule.omit({ check_id: true }).extend({ check: noCheck }),
  ])
  .transform((action) => ({
    ...action,
    trigger_type: action.trigger_type ?? 'manual',
    check: action.check ?? null,
    trigger_to_state: action.trigger_to_state ?? null,
    interval_seconds: action.interval_seconds ?? null,
  }));
type ActionDoc = z.output<typeof actionDoc>;

/** The id of the check the document names; the engine has checked every reference exists. */
function checkId(names: NameIndex, ref: string | null): string | null {
  if (ref === null) return null;
  const id = names.id('checks', ref);
  if (id === undefined) throw new Error(`the action names check ${ref}, which the index does not hold`);
  return id;
}

/** The body POST and PUT take: every field, so a PUT leaves nothing of the stored action unsaid. */
const body = ({ check, ...fields }: ActionDoc, names: NameIndex) => ({
  ...fields,
  check_id: checkId(names, check),
});

/**
 * The action in document form. Header values read `********`, which the engine never compares
 * and an update sends back as they are (PUT keeps the stored value of a header sent so).
 */
function toDoc(action: PublicAction, names: NameIndex): ActionDoc {
  let check: string | null = null;
  if (action.check_id !== null) {
    const identity = names.identity('checks', action.check_id);
    // An action outlives a deleted check (its trigger never fires again); it has no document form.
    if (identity === undefined)
      throw new ConflictError(
        `action ${JSON.stringify(action.name)} (${action.id}) runs on check ${action.check_id}, which no longer exists: point it at a check or delete it`,
      );
    check = identity;
  }
  return {
    name: action.name,
    url: action.url,
    method: action.method,
    headers: action.headers,
    body_template: action.body_template,
    trigger_type: action.trigger_type,
    check,
    trigger_to_state: action.trigger_to_state,
    interval_seconds: action.interval_seconds,
    timeout_ms: action.timeout_ms,
    pipeline_timeout_seconds: action.pipeline_timeout_seconds,
  };
}

/** Actions (/v1/actions), named by their name. */
export const actionsKind = defineKind<ActionDoc>({
  key: 'actions',
  // After the checks they watch and the status pages.
  after: ['checks', 'status_pages'],
  noun: 'action',
  schema: actionDoc,
  identity: (doc) => doc.name,
  references: (doc) => (doc.check === null ? [] : [{ key: 'checks', identity: doc.check }]),
  async read(api: Api, names) {
    const actions = await expectOk<PublicAction[]>(api, { method: 'GET', path: '/v1/actions' });
    requireUniqueNames('actions', actions);
    return actions.map((action) => ({ id: action.id, doc: toDoc(action, names) }));
  },
  async create(api, doc, names) {
    return (await postNew<PublicAction>(api, '/v1/actions', body(doc, names))).id;
  },
  async update(api, current, doc, names) {
    await expectOk(api, { method: 'PUT', path: `/v1/actions/${seg(current.id)}`, body: body(doc, names) });
  },
  async remove(api, current) {
    await expectOk(api, { method: 'DELETE', path: `/v1/actions/${seg(current.id)}` });
  },
});
