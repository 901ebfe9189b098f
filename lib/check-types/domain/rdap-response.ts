import * as z from 'zod';

/** The part of an RDAP domain object (RFC 9083 section 5.3) a domain check reads: its events. */
const domainObject = z.object({
  objectClassName: z.string().optional(),
  events: z.array(z.object({ eventAction: z.string(), eventDate: z.string().optional() }).loose()).optional(),
});

/** RFC 9083's class name of a domain object (a Set: the check type of the same name is not meant). */
const RDAP_DOMAIN_CLASS = new Set(['domain']);

/** The expiration date (epoch ms) in an RDAP answer's body, or a sentence saying what is wrong. */
export function readExpiry(body: Buffer, maxBytes: number): number | string {
  if (body.length >= maxBytes) return `the RDAP answer is larger than ${maxBytes / 1024} KiB`;
  let json: unknown;
  try {
    json = JSON.parse(body.toString('utf8'));
  } catch {
    return 'the RDAP server answered with malformed JSON';
  }
  const parsed = domainObject.safeParse(json);
  const objectClass = parsed.data?.objectClassName;
  if (!parsed.success || (objectClass !== undefined && !RDAP_DOMAIN_CLASS.has(objectClass))) {
    return 'the RDAP server answered with something other than a domain object';
  }
  const event = parsed.data.events?.find((e) => e.eventAction === 'expiration');
  if (!event?.eventDate)
    return 'the registry publishes no expiration date for this domain (no RDAP expiration event)';
  const at = Date.parse(event.eventDate);
  if (Number.isNaN(at)) return `the RDAP expiration date is not a date: ${event.eventDate.slice(0, 40)}`;
  return at;
}
