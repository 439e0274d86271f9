import { createHash } from 'node:crypto';
import { getAddress, isAddress, type SigningKey } from 'ethers';
import type { WalletSignJwsResponse } from '@itp/schemas';
import { JwsRefusedError } from '../errors.js';

/** The JWS algorithms token-rpc signs (secp256k1 over SHA-256, as did-jwt defines them). */
export type JwsAlg = 'ES256K' | 'ES256K-R';
const ALGS: readonly string[] = ['ES256K', 'ES256K-R'] satisfies JwsAlg[];

/**
 * `did:ethr:<address>` or `did:ethr:<network>:<address>` (did-service's DID_NETWORK, ADR 0015):
 * the network segment names the chain, the address is the key's either way.
 */
const ETHR_DID_ADDRESS = /^did:ethr:(?:[A-Za-z0-9_.-]+:)?(0x[0-9a-fA-F]{40})$/;

function decodeJsonObject(part: string, what: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
  } catch {
    throw new JwsRefusedError(`the JWS ${what} is not base64url-encoded JSON`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new JwsRefusedError(`the JWS ${what} is not a JSON object`);
  }
  return value as Record<string, unknown>;
}

/**
 * Checks that `signingInput` (`base64url(header) "." base64url(payload)`) is a JWS this service
 * signs for `address`: the header a JSON object whose `alg` is ES256K or ES256K-R (and whose
 * payload is base64url-encoded: no `b64: false`), the payload a JSON object whose `iss` is
 * `did:ethr:<address>` or `did:ethr:<network>:<address>` (the address compared
 * case-insensitively). Anything else, a transaction
 * hash or arbitrary data included, is JwsRefusedError (400). Returns the header's alg.
 */
export function checkJwsSigningInput(signingInput: string, address: string): JwsAlg {
  const parts = signingInput.split('.');
  if (parts.length !== 2 || parts.some((part) => !/^[A-Za-z0-9_-]+$/.test(part))) {
    throw new JwsRefusedError('signingInput must be base64url(header).base64url(payload)');
  }
  const header = decodeJsonObject(parts[0] as string, 'header');
  if (typeof header.alg !== 'string' || !ALGS.includes(header.alg)) {
    throw new JwsRefusedError(`the JWS header's alg must be one of ${ALGS.join(', ')}`);
  }
  if (header.b64 !== undefined && header.b64 !== true) {
    throw new JwsRefusedError('unencoded JWS payloads (b64: false) are not signed');
  }
  const payload = decodeJsonObject(parts[1] as string, 'payload');
  const iss = payload.iss;
  const issAddress = typeof iss === 'string' ? ETHR_DID_ADDRESS.exec(iss)?.[1] : undefined;
  if (
    issAddress === undefined ||
    !isAddress(issAddress) ||
    getAddress(issAddress) !== getAddress(address)
  ) {
    throw new JwsRefusedError(
      `the JWS payload's iss must be did:ethr:${getAddress(address)}: only JWS issued by the ` +
        "address's own DID are signed",
    );
  }
  return header.alg as JwsAlg;
}

/**
 * Signs a checked JWS signing input: ECDSA secp256k1 over SHA-256 of its UTF-8 bytes. `signature`
 * is base64url of r ‖ s (ES256K) or r ‖ s ‖ recovery id (ES256K-R), low-s (as did-jwt expects).
 */
export function signJwsInput(
  signingKey: SigningKey,
  signingInput: string,
  alg: JwsAlg,
): WalletSignJwsResponse {
  const digest = createHash('sha256').update(signingInput, 'utf8').digest();
  const sig = signingKey.sign(digest);
  const rs = [Buffer.from(sig.r.slice(2), 'hex'), Buffer.from(sig.s.slice(2), 'hex')];
  const bytes =
    alg === 'ES256K-R' ? Buffer.concat([...rs, Buffer.from([sig.yParity])]) : Buffer.concat(rs);
  return { signature: bytes.toString('base64url'), r: sig.r, s: sig.s, recoveryParam: sig.yParity };
}
