export { OPENAPI_VERSION, buildOpenApiDocument, type OpenApiOptions } from './build-openapi.js';
export { REST_ENDPOINTS, type RestEndpoint } from './rest-endpoints.js';
export {
  RECORDED_REST_EXAMPLES,
  catalogKeyOf,
  endpointKey,
  oauthCatalogKeyOf,
  type OAuthErrorExample,
  type RestEndpointExamples,
  type RestErrorExample,
  type RestExample,
  type RestExamplesFile,
} from './rest-examples.js';
