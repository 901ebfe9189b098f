import * as z from 'zod';
import { type Api, defineKind, expectOk, type NameIndex, seg } from '../config-doc/kind.ts';
import { SLUG } from '../domain/formats.ts';
import { PAGE_LIMITS, type PublicStatusPageRecord, pageCreateBody } from './status-pages.ts';

declare module '../config-doc/kind.ts' {
  interface DocLists {
    status_pages: true;
  }
}

/** An entity as the document names it: `<blueprint slug>/<entity slug>` (SLUG without its anchors, twice). */
const slug = SLUG.source.slice(1, -1);
const ENTITY_REF = new RegExp(`^${slug}/${slug}$`);

/**
 * A status page in the document: POST /v1/status-pages's body with `entity_ids` replaced by
 * `entities`, entity references in the order the page shows them. The API stores an empty
 * description as null and keeps each entity once, so the document form does the same: a document
 * that spelled either another way would otherwise plan a change after every apply.
 */
// A page's privacy stays out of the document: its password is a secret the API never returns, and
// PUT leaves an absent visibility as it is, so an apply never opens or closes a page. Its custom
// domain is in it, absent as null like the description: the document says where the page lives
// (an apply sends it on every write, so a page whose document has none loses the one it had).
const statusPageDoc = pageCreateBody
  .omit({ description: true, entity_ids: true, visibility: true, password: true })
  .extend({
    description: pageCreateBody.shape.description.transform((text) => text || null),
    domain: pageCreateBody.shape.domain.unwrap().default(null).meta({
      description:
        'A custom domain the page also answers on (https://<domain>/), one of the deployment’s VIGIL_PAGE_DOMAINS that no other page holds; null (default): none, and an apply clears the one the page has',
    }),
    entities: z
      .array(z.string().regex(ENTITY_REF, 'Name an entity as <blueprint slug>/<entity slug>.'))
      .max(PAGE_LIMITS.entityIds)
      .default([])
      .refine((refs) => new Set(refs).size === refs.length, 'Name each entity once.')
      .meta({
        description: 'The entities shown, in this order: `<blueprint slug>/<entity slug>`, each once',
        uniqueItems: true,
      }),
  });
type StatusPageDoc = z.output<typeof statusPageDoc>;

/** The page's id of an entity the document names; the engine has checked every reference exists. */
function entityId(names: NameIndex, ref: string): string {
  const id = names.id('entities', ref);
  if (id === undefined) throw new Error(`the status page names entity ${ref}, which the index does not hold`);
  return id;
}

/** The writable fields as PUT takes them (POST takes them with the slug). */
const body = (doc: StatusPageDoc, names: NameIndex) => ({
  title: doc.title,
  description: doc.description,
  entity_ids: doc.entities.map((ref) => entityId(names, ref)),
  show_incidents: doc.show_incidents,
  auto_publish_drafts_after_minutes: doc.auto_publish_drafts_after_minutes,
  domain: doc.domain,
});

/**
 * A page as the API reads it, in document form. Its entities come from the answer's `entities`
 * (named by blueprint and slug, a deleted entity left out), as the public page shows them.
 */
const toDoc = (page: PublicStatusPageRecord): StatusPageDoc => ({
  slug: page.slug,
  title: page.title,
  description: page.description,
  entities: page.entities.map((entity) => `${entity.blueprint_slug}/${entity.slug}`),
  show_incidents: page.show_incidents,
  auto_publish_drafts_after_minutes: page.auto_publish_drafts_after_minutes,
  domain: page.domain,
});

/** Status pages (/v1/status-pages), named by their slug, which is also their id. */
export const statusPagesKind = defineKind<StatusPageDoc>({
  key: 'status_pages',
  after: ['entities'],
  noun: 'status page',
  schema: statusPageDoc,
  identity: (doc) => doc.slug,
  references: (doc) => doc.entities.map((identity) => ({ key: 'entities', identity })),
  async read(api: Api) {
    const answer = await expectOk<{ status_pages: PublicStatusPageRecord[] }>(api, {
      method: 'GET',
      path: '/v1/status-pages',
    });
    return answer.status_pages.map((page) => ({ id: page.slug, doc: toDoc(page) }));
  },
  async create(api, doc, names) {
    const page = await expectOk<PublicStatusPageRecord>(api, {
      method: 'POST',
      path: '/v1/status-pages',
      body: { slug: doc.slug, ...body(doc, names) },
    });
    return page.slug;
  },
  async update(api, current, doc, names) {
    await expectOk(api, {
      method: 'PUT',
      path: `/v1/status-pages/${seg(current.id)}`,
      body: body(doc, names),
    });
  },
  async remove(api, current) {
    await expectOk(api, { method: 'DELETE', path: `/v1/status-pages/${seg(current.id)}` });
  },
});
