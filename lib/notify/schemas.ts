/**
 * lib/notify's request schemas and defaults as other features need them (its front door; the
 * files behind it are private): the configuration document (config-doc) and the importers build
 * policies, routes and shared channels with the API's own rules, the infrastructure types a
 * shared channel's input from the API's schema.
 */

export { documentChannelSchemas, tenantChannelInputSchema } from './api-schemas/channel-config.ts';
export { policyBody } from './api-schemas/request-schemas.ts';
export { POLICY_DEFAULTS } from './items/policy-items.ts';
export { GROUP_DEFAULTS } from './items/route-items.ts';
export {
  MAX_ROUTE_BLUEPRINTS,
  MAX_ROUTE_CHANNELS,
  MAX_ROUTE_ENTITIES,
  ROUTE_STATES,
  routeInputSchema,
  routeNameSchema,
} from './routing/route-schemas.ts';
