import type { EmailSender } from '../domain/formats.ts';
import type { EgressSettings } from '../egress/egress.ts';
import type { EmailTransport } from '../notify/email-transport.ts';
import { spendEmailQuota } from '../notify/email-transport.ts';
import type { SmsTransport } from '../notify/sms-transport.ts';
import type { Clock } from '../platform/clock.ts';
import type { Runtime } from '../platform/config.ts';
import type { PersonSendDeps, SendResult } from '../providers/person-use.ts';
import type { CursorSeal } from '../store/cursor-seal.ts';
import type { Table } from '../store/table.ts';
import { getContactMethod, listContactMethods } from './contact-items.ts';
import { contactPlan } from './contact-plan.ts';
import type { ContactStep } from './contact-rules.ts';
import { providerAccounts } from './kinds/provider-accounts.ts';
import { contactKind } from './kinds/registry.ts';

export type { SendResult } from '../providers/person-use.ts';
export type { ContactStep } from './contact-rules.ts';

/** What reaching people needs: the runtime's outbound paths (SMTP or SES, SNS, the egress guard). */
export interface ContactReachDeps {
  table: Table;
  cursors: CursorSeal;
  clock: Clock;
  config: { runtime: Runtime; egressAllow: readonly string[]; emailFrom?: EmailSender | undefined };
  egress?: EgressSettings | undefined;
  email?: EmailTransport | undefined;
  smsTransport?: SmsTransport | undefined;
  /** The tenant's daily e-mail limit (a message to a person counts against it, as every e-mail does). */
  emailDailyLimit(tenantId: string): Promise<number>;
}

/** One message to a person: the e-mail's subject, the text every kind sends, what a call says. */
export interface PersonMessage {
  subject: string;
  text: string;
  speech: string;
  /** The message's id: the same for a redelivery (an X-Vigil-Delivery header on e-mail). */
  deliveryId: string;
}

/** The runtime's sending paths for contact methods, as the providers' people uses take them. */
export function contactSendDeps(deps: ContactReachDeps): PersonSendDeps {
  const { runtime, egressAllow, emailFrom } = deps.config;
  return {
    http: {
      egressAllow,
      runtime,
      ca: deps.egress?.ca,
      resolve: deps.egress?.resolve,
      transport: deps.egress?.transport,
    },
    email: { transport: deps.email, from: emailFrom, runtime },
    sms: deps.smsTransport,
    spendEmail: async (tenantId) =>
      (
        await spendEmailQuota(
          { table: deps.table, clock: deps.clock },
          tenantId,
          1,
          await deps.emailDailyLimit(tenantId),
        )
      )?.skipped,
  };
}

/**
 * lib/contacts' face for those who reach people (escalations paging the on-call person, handover
 * summaries): a person's contact plan, their first verified method, and sending one message to one
 * of their methods through the account's provider accounts. A method that is gone or no longer
 * verified is not sent to (the result says so); nothing here retries: the caller's job does.
 */
export function createContactReach(deps: ContactReachDeps) {
  const send = contactSendDeps(deps);
  return {
    /** The person's verified methods in rule order, each with its delay after the page starts. */
    plan: (tenantId: string, userId: string): Promise<ContactStep[]> => contactPlan(deps, tenantId, userId),

    /** The person's first verified contact method (oldest first), or undefined. */
    async first(tenantId: string, userId: string): Promise<ContactStep['contact_method'] | undefined> {
      const [plan] = await contactPlan(deps, tenantId, userId);
      if (plan) return plan.contact_method;
      const verified = (await listContactMethods(deps.table, tenantId, userId)).find((m) => m.verified);
      return (
        verified && { id: verified.id, kind: verified.kind, address: verified.address, label: verified.label }
      );
    },

    /** Sends one message to one of the person's methods, read again (gone or unverified: not sent). */
    async send(
      tenantId: string,
      userId: string,
      methodId: string,
      message: PersonMessage,
    ): Promise<SendResult> {
      const method = await getContactMethod(deps.table, tenantId, userId, methodId);
      if (!method?.verified) return { ok: false, error: 'The contact method is gone or not verified.' };
      const accounts = await providerAccounts(deps, tenantId);
      return contactKind(method.kind).send(
        send,
        accounts,
        { tenantId, address: method.address ?? '' },
        message,
      );
    },
  };
}

export type ContactReach = ReturnType<typeof createContactReach>;
