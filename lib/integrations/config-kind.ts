import * as z from 'zod';
import { defineKind, expectOk, postNew, SECRET_PLACEHOLDER, seg } from '../config-doc/kind.ts';
import { requireUniqueNames } from '../config-doc/names.ts';
import { envReferenceSchema } from '../config-doc/secrets.ts';
import { type IntegrationBody, ingestTokenSchema, integrationBodyWithToken } from './config-face.ts';

declare module '../config-doc/kind.ts' {
  interface DocLists {
    integrations: true;
  }
}

/**
 * Integrations in the document (docs/integrations.md): the body of POST /v1/integrations as it
 * is, identity the integration's name. The ingest token is a secret: the document gives it as a
 * `${ENV}` reference (or the value, which the CLI puts there), so the URL and routing key senders
 * already have keep working where the document is applied; an export writes
 * `${VIGIL_INTEGRATIONS_<NAME>_TOKEN}`. A document that leaves the token out gets a new one at
 * create (shown by the console's rotation, never by an apply) and keeps the stored one on update.
 *
 * The integration's own entity and its outside checks are made by the integration, so exports
 * leave them out (lib/integrations/own-blueprint.ts).
 */

const schema = integrationBodyWithToken(z.union([ingestTokenSchema, envReferenceSchema]).optional());
type IntegrationDoc = IntegrationBody;

interface IntegrationView {
  id: string;
  name: string;
  kind: IntegrationBody['kind'];
  enabled: boolean;
  entity_rules: IntegrationBody['entity_rules'];
  severity_map: IntegrationBody['severity_map'];
  generic: Record<string, unknown> | null;
}

/** An integration of the API as the document has it; the token, write-only, reads as `********`. */
const docOf = (view: IntegrationView): IntegrationDoc => ({
  kind: view.kind,
  name: view.name,
  enabled: view.enabled,
  entity_rules: view.entity_rules,
  severity_map: view.severity_map,
  ...(view.generic === null ? {} : { generic: view.generic }),
  token: SECRET_PLACEHOLDER,
});

/** The request body of a document's integration: a token left to keep (`********`) is not sent. */
function bodyOf(doc: IntegrationDoc): IntegrationBody {
  const { token, ...rest } = doc;
  return token === undefined || token === SECRET_PLACEHOLDER ? rest : { ...rest, token };
}

export const integrationsKind = defineKind<IntegrationDoc>({
  key: 'integrations',
  // They name nothing by identity (their rules' entities are templates, placed when an alert comes): last.
  after: ['routes'],
  noun: 'integration',
  schema,
  identity: (doc) => doc.name,
  references: () => [],

  async read(api) {
    const { integrations } = await expectOk<{ integrations: IntegrationView[] }>(api, {
      method: 'GET',
      path: '/v1/integrations',
    });
    requireUniqueNames('integrations', integrations);
    return integrations.map((view) => ({ id: view.id, doc: docOf(view) }));
  },

  async create(api, doc) {
    return (await postNew<{ id: string }>(api, '/v1/integrations', bodyOf(doc))).id;
  },

  async update(api, current, doc) {
    await expectOk(api, { method: 'PUT', path: `/v1/integrations/${seg(current.id)}`, body: bodyOf(doc) });
  },

  async remove(api, current) {
    await expectOk(api, { method: 'DELETE', path: `/v1/integrations/${seg(current.id)}` });
  },
});
