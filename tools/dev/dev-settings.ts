import { isAbsolute, resolve } from 'node:path';
import type { WiringSettings } from '@itp/harness';

/** What the dev stack runs with, read once from the environment of `npm start`. */
export interface DevSettings extends WiringSettings {
  repoRoot: string;
  /** Absolute; chain state goes to `<dataDir>/chain`, the services keep their files here. */
  dataDir: string;
  gatewayPort: number;
  /**
   * Where clients reach the gateway (PUBLIC_URL, default `http://localhost:<PORT>`): the API
   * documents' server URL, the OpenID Connect issuer, the demo site's requestId prefix. A host
   * name, not 127.0.0.1: WebAuthn needs one, and the README's URLs are these.
   */
  publicUrl: string;
  logLevel: string;
  /** Settings the user gave that the services also read (REDIS_URL, DATABASE_URL, …). */
  passThrough: Record<string, string>;
  /** How long each service has to answer GET /health/ready with 200 at start. */
  readyTimeoutMs: number;
}

/** Only these of the user's variables reach the services; nothing else of the parent's env does. */
export const PASS_THROUGH = [
  'REDIS_URL',
  'DATABASE_URL',
  'LOG_PRETTY',
  'BLOCK_FINALITY_DEPTH',
  // did-service's network segment of did:ethr (docs/api.md §3; README "DIDs outside this stack").
  'DID_NETWORK',
  // token-rpc's per-address rate limits (the benchmark suite lifts them for its run).
  'RATE_LIMIT_WALLET_PER_MINUTE',
  'RATE_LIMIT_TEMP_KEY_PER_MINUTE',
  'RATE_LIMIT_SIGN_DATA_PER_MINUTE',
  'RATE_LIMIT_READ_PER_MINUTE',
  // auth-service's Sign-In with Ethereum nonces and smart-account checks, OIDC authorization
  // requests and QR login pages per address (the benchmark lifts some of them too).
  'SIWE_NONCES_PER_IP_PER_MINUTE',
  'SIWE_CONTRACT_CHECKS_PER_IP_PER_MINUTE',
  'OIDC_QR_PAGES_PER_IP_PER_MINUTE',
  'OIDC_AUTHORIZATIONS_PER_IP_PER_MINUTE',
  // passkey authentication options per address (the benchmark's passkey logins come from one).
  'PASSKEY_OPTIONS_PER_IP_PER_MINUTE',
  // did-service's OpenID4VCI c_nonces per address (the benchmark's issuance flows come from one).
  'OID4VCI_NONCES_PER_IP_PER_MINUTE',
  // auth-service's trust anchors for presentation requests (a PEM bundle file; docs/api.md §14):
  // issuers besides the dev CA, e.g. a test PID provider's CA (e2e's dev-stack.spec.ts).
  'TRUSTED_ISSUER_CERTIFICATES',
] as const;

export function readDevSettings(env: NodeJS.ProcessEnv, repoRoot: string): DevSettings {
  const port = env.PORT ? Number(env.PORT) : 8080;
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new Error(`PORT must be a TCP port number (1-65535), got "${env.PORT}"`);
  }
  const dataDir = env.DATA_DIR || './data';
  const passThrough: Record<string, string> = {};
  for (const name of PASS_THROUGH) {
    const value = env[name];
    if (value) passThrough[name] = value;
  }
  return {
    repoRoot,
    dataDir: isAbsolute(dataDir) ? dataDir : resolve(repoRoot, dataDir),
    gatewayPort: port,
    publicUrl: (env.PUBLIC_URL || `http://localhost:${port}`).replace(/\/+$/, ''),
    logLevel: env.LOG_LEVEL || 'info',
    passThrough,
    readyTimeoutMs: 90_000,
  };
}
