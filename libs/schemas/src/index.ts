export * from './block/index.js';
export * from './token/index.js';
export * from './auth/index.js';
export * from './did/index.js';
export * from './errors/index.js';
export { GATEWAY_ERRORS } from './gateway/errors.js';
export * from './openapi/index.js';
