// `@itp/presentations/testing`: the wallet side of the presentations, for specs and e2e tests.
export * from './sd-jwt-issuer.js';
export * from './mdoc-issuer.js';
export * from './x509-test-wallet.js';
