/** The parts of the npm healthchecks-io-client package (no types of its own) the client tests use. */
declare module 'healthchecks-io-client' {
  export class HealthChecksPingClient {
    constructor(options: { uuid: string; baseUrl?: string; timeout?: number; returnResponse?: boolean });
    start(): Promise<string | undefined>;
    success(payload?: string): Promise<string | undefined>;
    fail(payload?: string): Promise<string | undefined>;
  }
}
