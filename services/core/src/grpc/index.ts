export { createGrpcClient, serverStream, unary } from './client.js';
export { isDependencyOutage } from './dependency-outage.js';
export { GrpcError, invalidArgument, notFound, resourceExhausted, unavailable } from './errors.js';
export { registration, startGrpcServer, type AsyncService, type CallContext, type GrpcServer, type ServiceRegistration } from './server.js';
