import { createPublicKey, verify as verifySignature, type KeyObject } from 'node:crypto';
import { decodeJWT, extractPublicKeyBytes, toEthereumAddress } from 'did-jwt';
import { normalizeCredential, validateCredentialPayload } from 'did-jwt-vc';
import type { DIDResolutionResult, VerificationMethod } from 'did-resolver';
import { parse } from 'did-resolver';
import { LRUCache } from 'lru-cache';
import { canonicalDid } from '../dids/did-ethr.js';
import type { CredentialContext } from './credential-context.js';
import type { VerificationSuccess } from './verification.js';

/**
 * did-jwt's verification method types for ES256K (`SUPPORTED_PUBLIC_KEY_TYPES.ES256K` of did-jwt
 * 8, not exported): the authenticators `resolveAuthenticator` keeps, in document order.
 */
const ES256K_TYPES: ReadonlySet<string> = new Set([
  'EcdsaSecp256k1VerificationKey2019',
  'EcdsaSecp256k1RecoveryMethod2020',
  'Secp256k1VerificationKey2018',
  'Secp256k1SignatureVerificationKey2018',
  'EcdsaPublicKeySecp256k1',
  'JsonWebKey2020',
  'Multikey',
]);

/** did-jwt's `NBF_SKEW` (seconds), the skew verifyJWT allows when no `skewTime` is given. */
const NBF_SKEW = 300;

/** `iss` values for which verifyJWT takes the signer's DID from elsewhere (did-jwt's SELF_ISSUED_*). */
const SELF_ISSUED: ReadonlySet<string> = new Set([
  'https://self-issued.me',
  'https://self-issued.me/v2',
  'https://self-issued.me/v2/openid-vc',
]);

/** Key material members of a verification method other than an address. */
const KEY_MEMBERS = [
  'publicKeyHex',
  'publicKeyBase58',
  'publicKeyBase64',
  'publicKeyJwk',
  'publicKeyMultibase',
] as const;

/** SPKI (DER) prefixes of a secp256k1 public key, compressed (33 bytes) and uncompressed (65). */
const SPKI_COMPRESSED = Buffer.from('3036301006072a8648ce3d020106052b8104000a032200', 'hex');
const SPKI_UNCOMPRESSED = Buffer.from('3056301006072a8648ce3d020106052b8104000a034200', 'hex');

/** A secp256k1 public key as node:crypto verifies with it, and its Ethereum address. */
interface KnownKey {
  key: KeyObject;
  /** Lower-case `0x…` address of the key. */
  address: string;
}

/**
 * What one agent's verifications have learned: public keys by their raw bytes (hex), and by
 * Ethereum address the keys of this service's issuers (from the agent's DID manager), so that an
 * address authenticator (did:ethr's `#controller`) is checked with one signature verification
 * instead of did-jwt's key recovery.
 */
class SignerKeys {
  /** Raw key (hex) → key object and address; `{ invalid: true }` for bytes that are no secp256k1 key. */
  readonly byBytes = new LRUCache<string, KnownKey | { invalid: true }>({ max: 1000 });
  /** Lower-case address → the issuer key with that address. */
  readonly byAddress = new LRUCache<string, KnownKey>({ max: 1000 });
  /** Issuer DIDs (canonical) whose keys were read from the DID manager lately. */
  readonly issuerLookups = new LRUCache<string, true>({ max: 100, ttl: 60_000 });

  /** `bytes` as a key, or undefined when node:crypto does not take it as a secp256k1 point. */
  keyOf(bytes: Uint8Array): KnownKey | undefined {
    const hex = Buffer.from(bytes).toString('hex');
    let known = this.byBytes.get(hex);
    if (!known) {
      known = toKnownKey(bytes) ?? { invalid: true };
      this.byBytes.set(hex, known);
    }
    return 'invalid' in known ? undefined : known;
  }
}

const signerKeysByAgent = new WeakMap<object, SignerKeys>();

function signerKeysOf(agent: object): SignerKeys {
  let keys = signerKeysByAgent.get(agent);
  if (!keys) {
    keys = new SignerKeys();
    signerKeysByAgent.set(agent, keys);
  }
  return keys;
}

function toKnownKey(bytes: Uint8Array): KnownKey | undefined {
  const prefix =
    bytes.length === 33 && (bytes[0] === 2 || bytes[0] === 3)
      ? SPKI_COMPRESSED
      : bytes.length === 65 && bytes[0] === 4
        ? SPKI_UNCOMPRESSED
        : undefined;
  if (!prefix) return undefined;
  try {
    const key = createPublicKey({
      key: Buffer.concat([prefix, bytes]),
      format: 'der',
      type: 'spki',
    });
    const jwk = key.export({ format: 'jwk' });
    if (jwk.crv !== 'secp256k1' || !jwk.x || !jwk.y) return undefined;
    const uncompressed =
      '04' +
      Buffer.from(jwk.x, 'base64url').toString('hex') +
      Buffer.from(jwk.y, 'base64url').toString('hex');
    return { key, address: toEthereumAddress(uncompressed).toLowerCase() };
  } catch {
    return undefined;
  }
}

/**
 * The addresses an address authenticator names, as did-jwt's recovery compares them
 * (`ethereumAddress`, a CAIP-2 `<address>@eip155:…` or a CAIP-10 `eip155:<chain>:<address>`
 * `blockchainAccountId`), lower case; `undefined` for a method without an address; `null` for an
 * address form this module leaves to did-jwt (bip122, cosmos, anything else).
 */
function addressesOf(a: VerificationMethod): string[] | undefined | null {
  if (!a.ethereumAddress && !a.blockchainAccountId) return undefined;
  const addresses: string[] = [];
  if (a.ethereumAddress) {
    if (!/^0x[0-9a-fA-F]{40}$/.test(a.ethereumAddress)) return null;
    addresses.push(a.ethereumAddress.toLowerCase());
  }
  if (a.blockchainAccountId) {
    const caip10 = /^eip155:[^:@]+:(0x[0-9a-fA-F]{40})$/.exec(a.blockchainAccountId);
    const caip2 = /^(0x[0-9a-fA-F]{40})@eip155(?::[^@]*)?$/.exec(a.blockchainAccountId);
    const address = caip10?.[1] ?? caip2?.[1];
    if (!address) return null;
    addresses.push(address.toLowerCase());
  }
  return addresses;
}

/** Reads the keys of a service issuer DID from the agent's DID manager, at most once a minute. */
async function learnIssuerKeys(
  ctx: Pick<CredentialContext, 'agent' | 'serviceDids'>,
  keys: SignerKeys,
  did: string,
): Promise<void> {
  const canonical = canonicalDid(did);
  if (keys.issuerLookups.get(canonical)) return;
  keys.issuerLookups.set(canonical, true);
  const entry = ctx.serviceDids.issuers.find((e) => canonicalDid(e.did) === canonical);
  if (!entry) return;
  try {
    const identifier = await ctx.agent.didManagerGet({ did: entry.did });
    for (const k of identifier.keys) {
      if (k.type !== 'Secp256k1' || !/^(0x)?[0-9a-fA-F]+$/.test(k.publicKeyHex)) continue;
      const known = keys.keyOf(Buffer.from(k.publicKeyHex.replace(/^0x/, ''), 'hex'));
      if (known) keys.byAddress.set(known.address, known);
    }
  } catch {
    // Not learned: verifications of this DID take did-jwt's path.
  }
}

/**
 * did-jwt's `resolveAuthenticator(resolver, 'ES256K', iss)` without a proof purpose (what
 * did-jwt-vc's verifyCredential asks through Veramo): the DID resolved by the agent (its
 * resolution cache included), its verification methods of an ES256K type in document order.
 * Undefined for anything did-jwt would refuse (it refuses it with its own message).
 */
async function resolveAuthenticators(
  ctx: Pick<CredentialContext, 'agent'>,
  iss: string,
): Promise<
  { didResolutionResult: DIDResolutionResult; authenticators: VerificationMethod[] } | undefined
> {
  const result = (await ctx.agent.resolveDid({ didUrl: iss })) as unknown as DIDResolutionResult;
  if (Object.getOwnPropertyNames(result).indexOf('didDocument') === -1) return undefined;
  if (result.didResolutionMetadata?.error || result.didDocument == null) return undefined;
  const doc = result.didDocument as DIDResolutionResult['didDocument'] & {
    publicKey?: VerificationMethod[];
  };
  const authenticators = [...(doc?.verificationMethod ?? []), ...(doc?.publicKey ?? [])].filter(
    ({ type }) => ES256K_TYPES.has(type),
  );
  if (authenticators.length === 0) return undefined;
  return { didResolutionResult: result, authenticators };
}

/**
 * The signature of an ES256K JWT (`r || s`, 64 bytes) when did-jwt reads exactly the same bytes
 * from it (canonical base64url, 86 characters); else undefined.
 */
function compactSignature(signature: string): Buffer | undefined {
  if (!/^[A-Za-z0-9_-]{86}$/.test(signature)) return undefined;
  const bytes = Buffer.from(signature, 'base64url');
  if (bytes.length !== 64 || bytes.toString('base64url') !== signature) return undefined;
  return bytes;
}

/**
 * Verifies a VC JWT as Veramo's `verifyCredential({ credential: jwt })` does (did-jwt-vc's
 * verifyCredential: did-jwt's verifyJWT against the issuer's DID document as resolved now, then
 * normalizeCredential and validateCredentialPayload), with the ES256K signature checked by
 * node:crypto (OpenSSL) against a key already known for each authenticator, in did-jwt's order:
 * a verification method's own key, or for an address (did:ethr's `#controller`) the key of this
 * service's issuer with that address, read once from the agent's DID manager. A signature
 * verifies for a key exactly when one of did-jwt's two key recoveries (recovery id 0, then 1)
 * gives that key, high-S signatures included (did-jwt normalises S for a full key and tries
 * both ids for an address; OpenSSL accepts both S).
 *
 * Answers only a success, and the same object did-jwt-vc returns (member order included).
 * Undefined when anything is not certain to verify this way — another algorithm, a nested or
 * self-issued JWT, an `aud`, a key or address form it does not handle, an address whose key is
 * not known, a signature that does not verify, a date out of range, a payload did-jwt-vc refuses,
 * a resolution failure: the caller then takes the agent's path, which gives today's answer and
 * error.
 */
export async function verifyCredentialJwtFast(
  ctx: Pick<CredentialContext, 'agent' | 'serviceDids'>,
  jwt: string,
): Promise<VerificationSuccess | undefined> {
  let decoded: ReturnType<typeof decodeJWT>;
  try {
    decoded = decodeJWT(jwt, false);
  } catch {
    return undefined;
  }
  const { header, payload, signature, data } = decoded;
  if (header.alg !== 'ES256K' || header.cty === 'JWT') return undefined;
  const iss = payload.iss;
  if (typeof iss !== 'string' || !iss || SELF_ISSUED.has(iss)) return undefined;
  if (payload.aud !== undefined && payload.aud !== null && payload.aud !== '') return undefined;
  let parsedDid: string | undefined;
  try {
    parsedDid = parse(iss)?.did;
  } catch {
    return undefined;
  }
  if (parsedDid !== iss) return undefined;
  const sig = compactSignature(signature);
  if (!sig) return undefined;

  let resolved: Awaited<ReturnType<typeof resolveAuthenticators>>;
  try {
    resolved = await resolveAuthenticators(ctx, iss);
  } catch {
    return undefined;
  }
  if (!resolved) return undefined;
  const { authenticators, didResolutionResult } = resolved;

  const keys = signerKeysOf(ctx.agent);
  const signingInput = Buffer.from(data, 'utf8');
  const verifies = (known: KnownKey): boolean =>
    verifySignature('sha256', signingInput, { key: known.key, dsaEncoding: 'ieee-p1363' }, sig);

  // The full keys of the document by address (did:ethr's `#controllerKey` is the key of its
  // `#controller` address), read when an address needs a key.
  let documentKeys: KnownKey[] | undefined;
  const keysFor = (addresses: string[]): KnownKey[] => {
    documentKeys ??= authenticators
      .filter((m) => addressesOf(m) === undefined)
      .flatMap((m) => {
        try {
          return [keys.keyOf(extractPublicKeyBytes(m).keyBytes)].filter((k) => k !== undefined);
        } catch {
          return [];
        }
      });
    const found = addresses.map((x) => keys.byAddress.get(x)).filter((k) => k !== undefined);
    return [...found, ...documentKeys.filter((k) => addresses.includes(k.address))];
  };

  let signer: VerificationMethod | undefined;
  let learned = false;
  for (const a of authenticators) {
    const addresses = addressesOf(a);
    if (addresses === null) return undefined;
    if (addresses === undefined) {
      // A full key: did-jwt verifies the (S-normalised) signature with it.
      let bytes: Uint8Array;
      try {
        bytes = extractPublicKeyBytes(a).keyBytes;
      } catch {
        return undefined;
      }
      const known = keys.keyOf(bytes);
      if (!known) return undefined;
      if (verifies(known)) {
        signer = a;
        break;
      }
      continue;
    }
    // An address: did-jwt recovers the key (id 0, then 1) and compares its address.
    if (KEY_MEMBERS.some((m) => a[m] !== undefined)) return undefined;
    let candidates = keysFor(addresses);
    if (candidates.length === 0 && !learned && ctx.serviceDids.isIssuer(iss)) {
      learned = true;
      await learnIssuerKeys(ctx, keys, iss);
      candidates = keysFor(addresses);
    }
    if (candidates.length === 0) return undefined;
    if (candidates.some(verifies)) {
      signer = a;
      break;
    }
  }
  if (!signer) return undefined;

  // verifyJWT's dates, with Veramo's policies (none set) and did-jwt's skew.
  const now = Math.floor(Date.now() / 1000);
  if (payload.nbf) {
    if (payload.nbf > now + NBF_SKEW) return undefined;
  } else if (payload.iat && payload.iat > now + NBF_SKEW) {
    return undefined;
  }
  if (payload.exp && payload.exp <= now - NBF_SKEW) return undefined;

  let verifiableCredential: Record<string, unknown>;
  try {
    verifiableCredential = normalizeCredential(jwt) as unknown as Record<string, unknown>;
    validateCredentialPayload(verifiableCredential as never);
  } catch {
    return undefined;
  }
  return {
    verified: true,
    payload: payload as Record<string, unknown>,
    didResolutionResult: didResolutionResult as unknown as Record<string, unknown>,
    issuer: iss,
    signer: signer as unknown as Record<string, unknown>,
    jwt,
    // Veramo's policies after did-jwt-vc's: every member present, none set.
    policies: { nbf: undefined, iat: undefined, exp: undefined, aud: undefined },
    verifiableCredential,
  };
}
