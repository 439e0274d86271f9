import {
  Oauth2ServerErrorResponseError,
  type Oauth2AuthorizationServer,
  type RequestLike,
} from '@openid4vc/oauth2';
import type { DpopNonces } from './dpop-nonces.js';
import { Oid4vciError } from './oid4vci-error.js';
import type { Oid4vciStore } from './oid4vci-store.js';

/** The algorithms a DPoP proof may be signed with (HAIP 1.0: ES256). */
export const DPOP_SIGNING_ALGS = ['ES256'] as const;

/** How far a DPoP proof's `iat` may be from the server's clock, either way (seconds). */
export const DPOP_IAT_MAX_SKEW_SECONDS = 300;

/** How long a DPoP proof's `jti` is remembered as used (ms): longer than any proof is accepted. */
const JTI_KEPT_MS = 10 * 60_000;

/** Where a proof is checked: the token endpoint (400 errors) or the credential endpoint (401). */
export type DpopPlace = 'token' | 'resource';

export interface DpopProofCheck {
  /** The `DPoP` header (exactly one). */
  proof: string | string[] | undefined;
  request: RequestLike;
  place: DpopPlace;
  /** At the credential endpoint: the token the proof must name (`ath`) and its key's thumbprint. */
  accessToken?: string;
  expectedJkt?: string;
}

/**
 * DPoP proofs (RFC 9449) of the OpenID4VCI issuer, checked with `@openid4vc/oauth2`'s
 * `verifyDpopJwt` (typ `dpop+jwt`, the `jwk` header's key signed it, `htm`, `htu`, `ath` of the
 * access token, the bound key's thumbprint), ES256 only, plus the server nonce (a proof without
 * the current one: `use_dpop_nonce` with a fresh `DPoP-Nonce`), `iat` within
 * DPOP_IAT_MAX_SKEW_SECONDS and a one-time `jti` (the SQL one-time marks: a replayed proof is
 * refused on every replica, also after Redis lost its data).
 */
export class DpopProofs {
  constructor(
    private readonly deps: {
      nonces: DpopNonces;
      server: Oauth2AuthorizationServer;
      store: Oid4vciStore;
      now: () => number;
    },
  ) {}

  /** Verifies the proof of one request; answers its key's RFC 7638 thumbprint. */
  async verify(check: DpopProofCheck): Promise<{ jkt: string }> {
    const refuse = (description: string) =>
      new Oid4vciError(
        check.place === 'token' ? 400 : 401,
        'invalid_dpop_proof',
        description,
        check.place === 'resource' ? { scheme: 'DPoP' } : {},
      );
    if (typeof check.proof !== 'string' || check.proof.length === 0) {
      throw refuse('Send exactly one DPoP proof in the DPoP header');
    }
    const payload = payloadOf(check.proof);
    if (!payload) throw refuse('The DPoP proof is not a JWT');
    if (!(await this.deps.nonces.accepts(payload.nonce))) {
      throw new Oid4vciError(
        check.place === 'token' ? 400 : 401,
        'use_dpop_nonce',
        'The DPoP proof must carry the server nonce of the DPoP-Nonce header',
        { dpopNonce: await this.deps.nonces.current(), scheme: 'DPoP' },
      );
    }
    const now = this.deps.now();
    let verified: Awaited<ReturnType<Oauth2AuthorizationServer['verifyDpopJwt']>>;
    try {
      verified = await this.deps.server.verifyDpopJwt({
        dpopJwt: check.proof,
        request: check.request,
        allowedSigningAlgs: [...DPOP_SIGNING_ALGS],
        expectedNonce: payload.nonce as string,
        ...(check.accessToken !== undefined ? { accessToken: check.accessToken } : {}),
        ...(check.expectedJkt !== undefined ? { expectedJwkThumbprint: check.expectedJkt } : {}),
        now: new Date(now),
      });
    } catch (err) {
      if (err instanceof Oauth2ServerErrorResponseError) {
        throw refuse(err.errorResponse.error_description ?? 'The DPoP proof does not verify');
      }
      throw err;
    }
    const { iat, jti } = verified.payload;
    if (Math.abs(now / 1000 - iat) > DPOP_IAT_MAX_SKEW_SECONDS) {
      throw refuse(
        `The DPoP proof's iat must be within ${DPOP_IAT_MAX_SKEW_SECONDS} seconds of the server's time`,
      );
    }
    if (jti.length === 0 || jti.length > 256) throw refuse('The DPoP proof needs a jti');
    const fresh = await this.deps.store.markUsed(
      'dpop',
      `${verified.jwkThumbprint}:${jti}`,
      now + JTI_KEPT_MS,
      now,
    );
    if (!fresh) throw refuse('This DPoP proof was used before: make a new one per request');
    return { jkt: verified.jwkThumbprint };
  }
}

/** The payload of a compact JWS, unverified (only to read the nonce before the signature). */
function payloadOf(jwt: string): Record<string, unknown> | undefined {
  const parts = jwt.split('.');
  if (parts.length !== 3 || !parts.every((p) => /^[A-Za-z0-9_-]+$/.test(p))) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(parts[1] ?? '', 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
