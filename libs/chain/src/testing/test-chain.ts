/**
 * The harness' dev chain for this lib's own specs (libs/testing's global setup provides it; read
 * directly because @itp/testing depends on this lib).
 */
export function testChainUrl(): string {
  const url = process.env.ITP_TEST_ETH_RPC_URL;
  if (!url)
    throw new Error('ITP_TEST_ETH_RPC_URL is not set: run through jest (npm run test:jest)');
  return url;
}

/** A local port where nothing listens (and that fetch does not bar): connections are refused at once. */
export const REFUSING_URL = 'http://127.0.0.1:2';
