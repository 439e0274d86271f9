import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { loadOrCreateDevSecret } from './dev-secret.js';

/** What secret resolution reads of a service's config. */
export interface SecretSource {
  APP_ENV: string;
  DATA_DIR: string;
}

/**
 * A deployment secret: the configured value; in development, when unset, the one kept in
 * `DATA_DIR/secrets/<file>` (generated once, mode 0600, linked into place so that dev services
 * starting together agree); outside development undefined when unset (the caller's config
 * refuses to start without it).
 */
export function resolveDeploymentSecret(
  config: SecretSource,
  value: string | undefined,
  file: string,
  generate: () => string,
): string | undefined {
  if (value) return value;
  if (config.APP_ENV !== 'development') return undefined;
  return loadOrCreateDevSecret(join(config.DATA_DIR, 'secrets', file), generate);
}

/**
 * The internal API's bearer tokens: one per calling service and called service (ADR 0020), so
 * that each service holds only the tokens of the calls it makes and answers. auth-service never
 * holds the token of token-rpc's signer. The value is the dev stack's file in DATA_DIR/secrets/.
 */
export const INTERNAL_TOKENS = {
  /** did-service → token-rpc (the wallet and its signer). */
  INTERNAL_TOKEN_DID_TO_TOKEN_RPC: {
    file: 'internal-token-did-to-token-rpc',
    caller: 'did-service',
    callee: 'token-rpc',
  },
  /** did-service → auth-service (is this user still active?). */
  INTERNAL_TOKEN_DID_TO_AUTH: {
    file: 'internal-token-did-to-auth',
    caller: 'did-service',
    callee: 'auth-service',
  },
  /** auth-service → did-service (verify a login VP). */
  INTERNAL_TOKEN_AUTH_TO_DID: {
    file: 'internal-token-auth-to-did',
    caller: 'auth-service',
    callee: 'did-service',
  },
} as const;

export type InternalTokenName = keyof typeof INTERNAL_TOKENS;

/** The internal tokens an app holds: those of the calls it makes and of the calls it answers. */
export function internalTokensHeldBy(app: string): InternalTokenName[] {
  return (Object.keys(INTERNAL_TOKENS) as InternalTokenName[]).filter(
    (name) => INTERNAL_TOKENS[name].caller === app || INTERNAL_TOKENS[name].callee === app,
  );
}

/** Values of the internal tokens, by name. */
export type InternalTokens = Record<InternalTokenName, string>;

/** A fresh internal token: 32 random bytes, base64url. */
const newInternalToken = (): string => randomBytes(32).toString('base64url');

/** A fresh value for every internal token (one start of a stack, one test). */
export function newInternalTokens(): InternalTokens {
  const tokens = {} as InternalTokens;
  for (const name of Object.keys(INTERNAL_TOKENS) as InternalTokenName[]) {
    tokens[name] = newInternalToken();
  }
  return tokens;
}

/** The environment of `app`'s internal tokens: only those it holds (internalTokensHeldBy). */
export function internalTokenEnv(app: string, tokens: InternalTokens): Record<string, string> {
  return Object.fromEntries(internalTokensHeldBy(app).map((name) => [name, tokens[name]]));
}

/** One of the internal API tokens: its variable, or in development the dev stack's file. */
export function resolveInternalToken(
  config: SecretSource & Partial<Record<InternalTokenName, string>>,
  name: InternalTokenName,
): string | undefined {
  return resolveDeploymentSecret(
    config,
    config[name],
    INTERNAL_TOKENS[name].file,
    newInternalToken,
  );
}
