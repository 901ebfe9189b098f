import * as z from 'zod';
import { defineCheckType, type ProbeJobOf } from '../contract/definition.ts';
import { hostSchema, portSchema, storedPortSchema } from '../contract/fields.ts';

const stored = z.object({ host: z.string(), port: storedPortSchema });
/** tcp: a TCP connection to host:port opens (and is closed at once; ./tcp-probe.ts). */
export const tcpCheckType = defineCheckType('tcp', {
  label: 'TCP',
  input: z.strictObject({ host: hostSchema, port: portSchema }),
  stored,
  tls: false,
  defaultName: (config) => `TCP ${config.host}:${config.port}`,
  targetLabel: (config) => `tcp ${config.host}:${config.port}`,
});

/** What a tcp probe runs: the config with the common probe fields. */
export type TcpProbeJob = ProbeJobOf<'tcp', typeof tcpCheckType>;
