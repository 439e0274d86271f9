import type { Jwk, VerifyJwtCallback } from '@openid4vc/oauth2';
import { verifyJWS } from 'did-jwt';
import { compactVerify, importJWK } from 'jose';
import type { DIDResolutionResult, VerificationMethod } from 'did-resolver';

/** The DID methods a wallet may prove its key with (contract §10). */
export const PROOF_DID_METHODS = ['key', 'jwk', 'ethr'] as const;

/**
 * Resolves a DID: the service's agent, whose one resolver (agent/did-resolvers.ts) knows did:key,
 * did:jwk and did:ethr on its chain.
 */
export type ResolveDid = (did: string) => Promise<DIDResolutionResult>;

/** The verification method `didUrl` names, when the DID's document lists it for authentication or assertions. */
function provingMethod(
  resolution: DIDResolutionResult,
  didUrl: string,
): VerificationMethod | undefined {
  const document = resolution.didDocument;
  if (!document) return undefined;
  const did = didUrl.split('#')[0] ?? '';
  const absolute = (id: string) => (id.startsWith('#') ? `${did}${id}` : id);
  const methods = document.verificationMethod ?? [];
  const named = (ref: string | VerificationMethod) =>
    typeof ref === 'string' ? absolute(ref) === didUrl : absolute(ref.id) === didUrl;
  const relationships = [...(document.authentication ?? []), ...(document.assertionMethod ?? [])];
  const listed = relationships.find(named);
  if (listed) return typeof listed === 'string' ? methods.find((m) => named(m)) : listed;
  // did:jwk: a JWK without `use` serves every relationship (did:jwk spec §2.2); Veramo's resolver
  // lists relationships only for `use: "sig"`. A JWK for encryption (`use: "enc"`) never signs.
  if (did.startsWith('did:jwk:')) {
    const vm = methods.find((m) => named(m));
    const use = (vm?.publicKeyJwk as { use?: string } | undefined)?.use;
    if (vm && use !== 'enc') return vm;
  }
  return undefined;
}

/** The algorithms a key in a JWT's `jwk` header may sign with (HAIP 1.0: ES256 on P-256). */
export const JWK_HEADER_SIGNING_ALGS = ['ES256'] as const;

/**
 * A JWT signed by the public key of its `jwk` header (a key proof of the SD-JWT configuration, a
 * DPoP proof): ES256 on P-256 only, a public key only (a `d` in the header is refused).
 */
async function verifyByJwk(publicJwk: Jwk, alg: string, compact: string) {
  if (
    !(JWK_HEADER_SIGNING_ALGS as readonly string[]).includes(alg) ||
    publicJwk.kty !== 'EC' ||
    publicJwk.crv !== 'P-256' ||
    'd' in publicJwk
  ) {
    return { verified: false } as const;
  }
  try {
    const key = await importJWK({ kty: 'EC', crv: 'P-256', x: publicJwk.x, y: publicJwk.y }, alg);
    await compactVerify(compact, key, { algorithms: [alg] });
    return { verified: true, signerJwk: publicJwk } as const;
  } catch {
    return { verified: false } as const;
  }
}

/**
 * The `verifyJwt` callback of the OpenID4VCI issuer for proof JWTs: a `jwk` signer (verifyByJwk),
 * or a DID URL
 * (`kid`) of did:key, did:jwk or did:ethr whose document lists that key for authentication or
 * assertions, and the signature must be that key's (did-jwt: ES256, ES256K — also by a did:ethr
 * address, recovered — and EdDSA). Anything else does not verify (→ invalid_proof).
 */
export function proofJwtVerifier(resolveDid: ResolveDid): VerifyJwtCallback {
  return async (signer, { compact }) => {
    if (signer.method === 'jwk') return verifyByJwk(signer.publicJwk, signer.alg, compact);
    if (signer.method !== 'did') return { verified: false };
    const did = signer.didUrl.split('#')[0] ?? '';
    const method = did.split(':')[1] ?? '';
    if (
      !signer.didUrl.includes('#') ||
      !(PROOF_DID_METHODS as readonly string[]).includes(method)
    ) {
      return { verified: false };
    }
    try {
      const vm = provingMethod(await resolveDid(did), signer.didUrl);
      if (!vm) return { verified: false };
      verifyJWS(compact, vm);
      // did:ethr's key is an address (no JWK): the library needs the JWK only for key attestations.
      return { verified: true, signerJwk: (vm.publicKeyJwk ?? {}) as Jwk };
    } catch {
      return { verified: false };
    }
  };
}
