import type { VerifiableCredential } from '@veramo/core';
import { createJWS } from 'did-jwt';
import {
  normalizeCredential,
  transformCredentialInput,
  validateJwtCredentialPayload,
} from 'did-jwt-vc';
import type { JwtCredentialPayload } from 'did-jwt-vc';
import { LRUCache } from 'lru-cache';
import type { DidAgent } from '../agent/create-did-agent.js';

/** The VC data model 1.1 context every credential starts with (Veramo's MANDATORY_CREDENTIAL_CONTEXT). */
const MANDATORY_CREDENTIAL_CONTEXT = 'https://www.w3.org/2018/credentials/v1';

/** A credential to sign as a JWT VC: what create-vc and OpenID4VCI build (issuanceDate set). */
export interface UnsignedCredential {
  '@context': string | string[];
  type: string | string[];
  issuer: string | { id: string };
  issuanceDate: string;
  credentialSubject: Record<string, unknown>;
  [member: string]: unknown;
}

/** The issuer DID's signing key as Veramo's JWT provider picks it, and its JWS algorithm. */
interface SigningKey {
  did: string;
  kid: string;
  alg: string;
}

/**
 * How long an issuer's signing key reference (DID, key id, algorithm: never changed once written)
 * is reused, and for how many DIDs; as the record caches of create-did-agent.ts.
 */
const KEY_CACHE = { ttlMs: 10 * 60_000, max: 1000 };

const signingKeys = new WeakMap<DidAgent, LRUCache<string, Promise<SigningKey>>>();

/**
 * Signs `credential` as a JWT VC (JwtProof2020) by its issuer's key, exactly as the agent's
 * `createVerifiableCredential({ credential, proofFormat: 'jwt' })` does (Veramo's
 * credential-w3c + credential-jwt over did-jwt-vc: the same @context / type handling, the same
 * key choice and algorithm, the same JWT, the signature by the agent's key manager, so by the
 * signing pool), without the agent's plugin dispatch around it: three agent calls fewer per VC
 * (two DID look-ups and the credential call, each with its debug loggers and a JSON copy of its
 * result), and the issuer's key reference looked up once per issuer, not twice per VC (ADR
 * 0031). The JWT's sections are encoded by node's base64url and the answer is normalised from
 * the payload's JSON, not decoded again from the JWT just made (ADR 0035).
 */
export async function signCredentialJwt(
  agent: DidAgent,
  input: UnsignedCredential,
): Promise<VerifiableCredential> {
  const credential = {
    ...input,
    '@context': entriesStartingWith(input['@context'], MANDATORY_CREDENTIAL_CONTEXT),
    type: entriesStartingWith(input.type, 'VerifiableCredential'),
  };
  const issuer = withoutDidParameters(
    typeof credential.issuer === 'string' ? credential.issuer : credential.issuer.id,
  );
  if (!issuer) throw new Error('invalid_argument: credential.issuer must not be empty');
  const key = await signingKeyOf(agent, issuer);
  // did-jwt-vc's createVerifiableCredentialJwt and did-jwt's createJWT, step by step, as Veramo's
  // JWT provider calls them (removeOriginalFields left to its default, no expiresIn, no
  // canonicalisation): the claims, then the header and the payload as JSON in base64url. The
  // payload's JSON is kept, so the answer is read from it, not decoded again from the JWT.
  const claims: JwtCredentialPayload = {
    iat: undefined,
    ...transformCredentialInput(credential as unknown as JwtCredentialPayload),
  };
  validateJwtCredentialPayload(claims);
  // createJWT's own order: its timestamps, then the claims (whose `iat: undefined` wins, so the
  // JWT has no iat), then the issuer.
  const payload = { iat: Math.floor(Date.now() / 1000), exp: undefined, ...claims, iss: key.did };
  const payloadJson = JSON.stringify(payload);
  const jwt = await createJWS(
    Buffer.from(payloadJson, 'utf8').toString('base64url'),
    (data: string | Uint8Array) =>
      agent.keyManagerSign({ keyRef: key.kid, data: data as string, algorithm: key.alg }),
    { alg: key.alg, typ: 'JWT' },
  );
  return credentialOfPayload(payloadJson, jwt);
}

/**
 * What did-jwt-vc's `normalizeCredential(jwt)` answers for the JWT made from `payloadJson`: the
 * same normalisation of the same claims (JSON.parse of the JSON that was encoded is what decoding
 * the JWT gives), members in the same order, the proof last; without decoding the JWT.
 */
export function credentialOfPayload(payloadJson: string, jwt: string): VerifiableCredential {
  // normalizeCredential of a claims object: `{ proof: {}, ...the normalised claims }`.
  const { proof: _empty, ...normalised } = normalizeCredential(
    JSON.parse(payloadJson) as JwtCredentialPayload,
  );
  return { ...normalised, proof: { type: 'JwtProof2020', jwt } } as VerifiableCredential;
}

function signingKeyOf(agent: DidAgent, did: string): Promise<SigningKey> {
  let cache = signingKeys.get(agent);
  if (!cache) {
    cache = new LRUCache({ max: KEY_CACHE.max, ttl: KEY_CACHE.ttlMs });
    signingKeys.set(agent, cache);
  }
  let entry = cache.get(did);
  if (!entry) {
    const pending = lookUpSigningKey(agent, did);
    // A failed look-up (not a DID of this agent, a database outage) is not kept.
    pending.catch(() => {
      if (cache.get(did) === pending) cache.delete(did);
    });
    cache.set(did, pending);
    entry = pending;
  }
  return entry;
}

async function lookUpSigningKey(agent: DidAgent, did: string): Promise<SigningKey> {
  let identifier;
  try {
    identifier = await agent.didManagerGet({ did });
  } catch (err) {
    throw new Error(
      `invalid_argument: args.credential.issuer must be a DID managed by this agent. ${String(err)}`,
    );
  }
  // Veramo's pickSigningKey without a keyRef: the first key of a signing type.
  const key = identifier.keys.find(
    (k) => k.type === 'Secp256k1' || k.type === 'Ed25519' || k.type === 'Secp256r1',
  );
  if (!key) throw new Error(`key_not_found: No signing key for ${identifier.did}`);
  const alg = key.type === 'Ed25519' ? 'EdDSA' : key.type === 'Secp256r1' ? 'ES256' : 'ES256K';
  return { did: identifier.did, kid: key.kid, alg };
}

/** Veramo's processEntryToArray: the entries as a list starting with `first`, without repeats. */
function entriesStartingWith(entries: string | string[] | undefined, first: string): string[] {
  const list =
    entries === undefined || entries === null
      ? [first]
      : Array.isArray(entries)
        ? [...entries]
        : [entries];
  if (list[0] !== first) list.unshift(first);
  return list.filter(
    (item, index, all) => item !== undefined && item !== null && all.indexOf(item) === index,
  );
}

/** Veramo's removeDIDParameters: a DID URL without its query and fragment. */
function withoutDidParameters(did: string): string {
  try {
    const { origin, protocol, pathname } = new URL(did);
    return origin !== 'null' ? `${origin}${pathname}` : `${protocol}${pathname}`;
  } catch {
    return did;
  }
}
