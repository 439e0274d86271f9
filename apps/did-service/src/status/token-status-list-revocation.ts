import { compactVerify, exportJWK, importJWK, importX509, type JWK } from 'jose';
import type { RevokeVcResult } from '@itp/schemas';
import type { StatusListStore } from '../db/status-lists.js';
import { NotRevocableError, NotYourCredentialError } from '../errors.js';
import type { SdJwtIssuerKeys } from '../sd-jwt-issuer/sd-jwt-issuer-key.js';
import { tokenListBaseOf, tokenListIdOf, tokenListUri } from './token-status-list-urls.js';

export interface RevokeSdJwtDeps {
  /** The SD-JWT issuer key; undefined when SD-JWT issuance is off (nothing is revocable). */
  keys: SdJwtIssuerKeys | undefined;
  store: StatusListStore;
}

/** The `typ` of the SD-JWT VCs this service issues (and the earlier name of the media type). */
const SD_JWT_VC_TYPES = ['dc+sd-jwt', 'vc+sd-jwt'];
const MAX_INDEX = 2 ** 31 - 1;

/**
 * Revokes an SD-JWT VC for good (revoke-vc `{ sdJwt }`). Its issuer-signed JWT decides (the part
 * before the first `~`; disclosures and a key-binding JWT are ignored): it must verify (ES256)
 * with the current SD-JWT issuer key, name that key as its x5c leaf, be an SD-JWT VC (`typ`), and
 * carry a `status.status_list` `{ idx, uri }` of one of this service's token status lists whose
 * issuer is the VC's `iss` (400 otherwise; expiry is not checked: revoking an expired VC is
 * harmless). With `userId` (the bearer's user) the entry must have been handed out to that user
 * (403). Revoking a revoked VC answers the same. SD-JWT VCs signed by an earlier key are revoked
 * by a password reset (which needs no signature), not here.
 */
export async function revokeSdJwtCredential(
  deps: RevokeSdJwtDeps,
  sdJwt: string,
  userId?: string,
): Promise<RevokeVcResult> {
  if (!deps.keys) {
    throw new NotRevocableError(
      'This service issues no SD-JWT VCs: the credential cannot be revoked',
    );
  }
  const jwt = sdJwt.trim().split('~')[0] ?? '';
  const { header, payload } = await verifyIssuerSigned(jwt, deps.keys);
  const { iss, status } = payload as { iss?: unknown; status?: { status_list?: unknown } };
  const { idx, uri } = (status?.status_list ?? {}) as { idx?: unknown; uri?: unknown };
  if (!SD_JWT_VC_TYPES.includes(String(header.typ))) {
    throw new NotRevocableError(`The JWT is no SD-JWT VC (typ ${SD_JWT_VC_TYPES.join(' or ')})`);
  }
  const listId = typeof uri === 'string' ? tokenListIdOf(uri) : undefined;
  const index = Number.isInteger(idx) && (idx as number) >= 0 ? (idx as number) : undefined;
  const list =
    listId !== undefined && index !== undefined && index <= MAX_INDEX
      ? await deps.store.list(listId)
      : undefined;
  const entry = list && index !== undefined ? await deps.store.entry(list.id, index) : undefined;
  if (
    !list ||
    !entry ||
    typeof iss !== 'string' ||
    list.issuer !== iss ||
    tokenListBaseOf(list.issuer) === undefined ||
    uri !== tokenListUri(list.issuer, list.id)
  ) {
    throw new NotRevocableError(
      'The credential has no token status list entry of this service: it cannot be revoked',
    );
  }
  if (userId !== undefined && entry.userId !== userId) throw new NotYourCredentialError();
  await deps.store.revoke(entry.listId, entry.index);
  return {
    revoked: true,
    statusListCredential: tokenListUri(list.issuer, list.id),
    statusListIndex: String(entry.index),
  };
}

/**
 * The issuer-signed JWT's header and claims once it verifies with the current key and its x5c
 * leaf is that key; NotRevocableError otherwise.
 */
async function verifyIssuerSigned(
  jwt: string,
  keys: SdJwtIssuerKeys,
): Promise<{ header: Record<string, unknown>; payload: unknown }> {
  const key = await keys.current();
  let verified;
  try {
    verified = await compactVerify(jwt, await importJWK(key.publicJwk, 'ES256'), {
      algorithms: ['ES256'],
    });
  } catch {
    throw new NotRevocableError(
      'The SD-JWT does not verify as signed by this service’s SD-JWT issuer key',
    );
  }
  const header = verified.protectedHeader as Record<string, unknown>;
  const leaf = Array.isArray(header.x5c) ? header.x5c[0] : undefined;
  if (typeof leaf !== 'string' || !(await isLeafOf(leaf, key.publicJwk))) {
    throw new NotRevocableError('The SD-JWT’s x5c certificate is not this service’s issuer key');
  }
  try {
    return { header, payload: JSON.parse(new TextDecoder().decode(verified.payload)) };
  } catch {
    throw new NotRevocableError('The SD-JWT’s claims are not JSON');
  }
}

/** The base64 DER certificate `leaf` certifies `publicJwk` (EC P-256). */
async function isLeafOf(leaf: string, publicJwk: JWK): Promise<boolean> {
  const pem = `-----BEGIN CERTIFICATE-----\n${leaf.match(/.{1,64}/g)?.join('\n') ?? ''}\n-----END CERTIFICATE-----`;
  try {
    const certified = await exportJWK(await importX509(pem, 'ES256', { extractable: true }));
    return certified.x === publicJwk.x && certified.y === publicJwk.y;
  } catch {
    return false;
  }
}
