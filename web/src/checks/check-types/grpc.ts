import type { CheckTypeForm } from './form';

export const grpcForm: CheckTypeForm<'grpc'> = {
  label: 'gRPC health',
  kind: 'configured',
  nameExample: 'gRPC api.internal:50051',
  fields: [
    { key: 'host', label: 'Host', kind: 'text', required: true, placeholder: 'api.internal' },
    { key: 'port', label: 'Port', kind: 'number', required: true, placeholder: '50051' },
    {
      key: 'service',
      label: 'Service',
      kind: 'text',
      placeholder: 'my.package.Orders',
      hint: 'The service asked about (grpc.health.v1); empty: the server as a whole. TLS (use_tls) and metadata (such as an authorization token) are set through the API; an edit here keeps them.',
    },
  ],
  tls: true,
  target: (check) =>
    `grpc ${check.config.host}:${check.config.port}${check.config.service ? ` ${check.config.service}` : ''}`,
  rows: (check) => [
    ['Host', `${check.config.host}:${check.config.port}`],
    ['Service', check.config.service || 'the server as a whole'],
    ['TLS', check.config.use_tls ? 'yes' : 'no'],
    ...(check.config.metadata && Object.keys(check.config.metadata).length > 0
      ? [['Metadata', Object.keys(check.config.metadata).join(', ')] as [string, string]]
      : []),
  ],
};
