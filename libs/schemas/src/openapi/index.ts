export { OPENAPI_VERSION, buildOpenApiDocument, type OpenApiOptions } from './build-openapi.js';
export { REST_ENDPOINTS, type RestEndpoint } from './rest-endpoints.js';
