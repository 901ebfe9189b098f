import type { Principal } from '../domain/principal.ts';
import { type Clock, isoTime } from '../platform/clock.ts';
import {
  ConflictError,
  LimitExceededError,
  NotFoundError,
  RateLimitedError,
  ReadOnlyError,
  ValidationError,
} from '../platform/errors.ts';
import { newId } from '../platform/ids.ts';
import type { PersonSendDeps } from '../providers/person-use.ts';
import { deleteHeld, replaceHeld } from '../store/held-writes.ts';
import type { PageDeps } from '../store/paging.ts';
import {
  type ContactMethodRecord,
  contactMethodCreatedOp,
  contactMethodDeletedOp,
  contactMethodReplacedOp,
  getContactMethod,
  getNotificationRules,
  listContactMethods,
  MAX_CONTACT_METHODS_PER_USER,
  notificationRulesPutOp,
} from './contact-items.ts';
import { type PublicContactMethod, type PublicRules, publicContactMethod } from './contact-responses.ts';
import { orderedRules, ruleProblems } from './contact-rules.ts';
import type { ContactMethodBody, RulesBody } from './contact-schemas.ts';
import { providerAccounts } from './kinds/provider-accounts.ts';
import { contactKind } from './kinds/registry.ts';
import {
  CODE_TTL_MS,
  codeHash,
  codeMatches,
  MAX_ATTEMPTS,
  newCode,
  resendWait,
} from './verification-code.ts';

export interface ContactServiceDeps extends PageDeps {
  clock: Clock;
  send: PersonSendDeps;
}

/** A person's own contact methods and rules: a read-only API key reads them, only the person's session or a writing key changes them. */
function writer(principal: Principal): Principal {
  if (principal.readOnly && principal.credential !== 'session') throw new ReadOnlyError();
  return principal;
}

/**
 * A person's contact methods (issue 55 item 2): each added unverified and sent a code through
 * itself (a console method is the signed-in console, verified as added), verified by that code,
 * and the person's notification rules over the verified ones. Only the person sees or changes
 * them: every read and write is keyed by the caller's own user id, so another person's id is 404.
 */
export function createContactService(deps: ContactServiceDeps) {
  const { table, clock } = deps;

  const require = async (p: Principal, id: string) => {
    const found = await getContactMethod(table, p.tenantId, p.userId, id);
    if (!found) throw new NotFoundError('contact method');
    return found;
  };

  /** Sends a fresh code to the method; throws 400 naming why when it could not go (nothing is written then). */
  const sendCode = async (method: ContactMethodRecord, path: string) => {
    const code = newCode();
    const accounts = await providerAccounts(deps, method.tenant_id);
    const target = { tenantId: method.tenant_id, address: method.address ?? '' };
    const sent = await contactKind(method.kind).send(deps.send, accounts, target, {
      subject: 'Your Vigil verification code',
      text: `Your Vigil verification code is ${code}. It expires in ${CODE_TTL_MS / 60_000} minutes. If you did not add this contact method, ignore this message.`,
      speech: `Your Vigil verification code is ${[...code].join(', ')}. Again: ${[...code].join(', ')}.`,
      deliveryId: newId('req', clock.now()),
    });
    if (!sent.ok)
      throw ValidationError.field(path, `The code could not be sent: ${sent.error ?? 'it failed'}.`);
    const now = clock.now();
    return {
      hash: codeHash(method.id, code),
      expires_at: isoTime(now + CODE_TTL_MS),
      attempts: 0,
      sentAt: isoTime(now),
    };
  };

  const write = async (current: ContactMethodRecord, next: ContactMethodRecord) =>
    replaceHeld(table, [contactMethodReplacedOp(next, current.version)], {
      name: 'contact method',
      exists: async () =>
        (await getContactMethod(table, current.tenant_id, current.user_id, current.id)) !== undefined,
    });

  return {
    async list(p: Principal): Promise<PublicContactMethod[]> {
      return (await listContactMethods(table, p.tenantId, p.userId)).map((m) => publicContactMethod(m));
    },

    async get(p: Principal, id: string): Promise<PublicContactMethod> {
      return publicContactMethod(await require(p, id));
    },

    /** Adds a method, unverified, and sends its code (a console method is verified as added). */
    async create(principal: Principal, body: ContactMethodBody): Promise<PublicContactMethod> {
      const p = writer(principal);
      const address = 'address' in body && typeof body.address === 'string' ? body.address : null;
      const kind = contactKind(body.kind);
      const existing = await listContactMethods(table, p.tenantId, p.userId);
      if (existing.some((m) => m.kind === body.kind && m.address === address))
        throw new ConflictError(`you already have this ${kind.label} contact method`);
      if (existing.length >= MAX_CONTACT_METHODS_PER_USER)
        throw new LimitExceededError(
          `a person keeps at most ${MAX_CONTACT_METHODS_PER_USER} contact methods`,
        );
      const now = clock.now();
      const verifiedWhenAdded = kind.verifiedWhenAdded === true;
      const record: ContactMethodRecord = {
        id: newId('cmt', now),
        tenant_id: p.tenantId,
        user_id: p.userId,
        kind: body.kind,
        address,
        label: body.label ?? null,
        verified: verifiedWhenAdded,
        verified_at: verifiedWhenAdded ? isoTime(now) : null,
        code: null,
        sends: [],
        created_at: isoTime(now),
        updated_at: isoTime(now),
        version: 1,
      };
      if (!verifiedWhenAdded) {
        const missing = kind.missing(await providerAccounts(deps, p.tenantId), deps.send);
        if (missing) throw ValidationError.field('kind', `${missing[0]?.toUpperCase()}${missing.slice(1)}.`);
        const { sentAt, ...code } = await sendCode(record, 'address');
        record.code = code;
        record.sends = [sentAt];
      }
      await table.transact([contactMethodCreatedOp(record)]);
      return publicContactMethod(record);
    },

    /** Sends a new code (the old one stops working), at most one a minute and SENDS_PER_HOUR an hour. */
    async resend(principal: Principal, id: string): Promise<PublicContactMethod> {
      const current = await require(writer(principal), id);
      if (current.verified) throw new ConflictError('this contact method is verified already');
      const { waitMs, recent } = resendWait(current.sends, clock.now());
      if (waitMs > 0)
        throw new RateLimitedError(waitMs / 1000, {
          message: 'a code was sent recently: wait before asking for another',
        });
      const { sentAt, ...code } = await sendCode(current, 'id');
      const next = {
        ...current,
        code,
        sends: [...recent, sentAt],
        updated_at: sentAt,
        version: current.version + 1,
      };
      await write(current, next);
      return publicContactMethod(next);
    },

    /** Verifies the method with its code: single-use, expiring, burnt after MAX_ATTEMPTS wrong tries. */
    async verify(principal: Principal, id: string, code: string): Promise<PublicContactMethod> {
      const current = await require(writer(principal), id);
      if (current.verified) throw new ConflictError('this contact method is verified already');
      const pending = current.code;
      if (!pending) throw new ConflictError('no code is pending for this contact method: ask for a new one');
      const now = clock.now();
      if (Date.parse(pending.expires_at) <= now)
        throw ValidationError.field('code', 'This code has expired: ask for a new one.');
      if (!codeMatches(current.id, code, pending.hash)) {
        const attempts = pending.attempts + 1;
        const burnt = attempts >= MAX_ATTEMPTS;
        await write(current, {
          ...current,
          code: burnt ? null : { ...pending, attempts },
          updated_at: isoTime(now),
          version: current.version + 1,
        });
        throw ValidationError.field(
          'code',
          burnt
            ? 'Wrong code, and too many wrong codes: this one no longer works. Ask for a new one.'
            : `Wrong code: ${MAX_ATTEMPTS - attempts} more tries before it stops working.`,
        );
      }
      const next = {
        ...current,
        verified: true,
        verified_at: isoTime(now),
        code: null,
        updated_at: isoTime(now),
        version: current.version + 1,
      };
      await write(current, next);
      return publicContactMethod(next);
    },

    /** Deletes the method, and with it the rules that use it. */
    async remove(principal: Principal, id: string): Promise<void> {
      const p = writer(principal);
      const rules = await getNotificationRules(table, p.tenantId, p.userId);
      const ops = [contactMethodDeletedOp(p.tenantId, p.userId, id)];
      if (rules?.rules.some((r) => r.contact_method_id === id))
        ops.push(
          notificationRulesPutOp(
            {
              ...rules,
              rules: rules.rules.filter((r) => r.contact_method_id !== id),
              updated_at: isoTime(clock.now()),
              version: rules.version + 1,
            },
            rules.version,
          ),
        );
      await deleteHeld(table, ops, 'contact method');
    },

    async rules(p: Principal): Promise<PublicRules> {
      const stored = await getNotificationRules(table, p.tenantId, p.userId);
      return { rules: stored ? stored.rules : [], updated_at: stored?.updated_at ?? null };
    },

    /** Replaces the person's rules: each on a verified method of theirs; kept by delay. */
    async setRules(principal: Principal, body: RulesBody): Promise<PublicRules> {
      const p = writer(principal);
      const methods = await listContactMethods(table, p.tenantId, p.userId);
      const problems = ruleProblems(body.rules, methods);
      if (problems.length > 0)
        throw new ValidationError(`${problems[0]?.path}: ${problems[0]?.message}`, problems);
      const before = await getNotificationRules(table, p.tenantId, p.userId);
      const now = isoTime(clock.now());
      const record = {
        tenant_id: p.tenantId,
        user_id: p.userId,
        rules: orderedRules(body.rules),
        updated_at: now,
        version: (before?.version ?? 0) + 1,
      };
      await replaceHeld(table, [notificationRulesPutOp(record, before?.version)], {
        name: 'notification rules',
        exists: async () => true,
      });
      return { rules: record.rules, updated_at: now };
    },
  };
}

export type ContactService = ReturnType<typeof createContactService>;
