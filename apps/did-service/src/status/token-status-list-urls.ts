import { OID4VCI_ISSUER_PATH } from '../oid4vci/oid4vci-issuance.js';
import { isStatusListId } from './status-list-urls.js';

/** The path of the IETF token status lists (SD-JWT VCs) under the public base URL. */
export const TOKEN_STATUS_LISTS_PATH = '/v2/did/token-status-lists';

/** The media type of a status list token (draft-ietf-oauth-status-list). */
export const STATUS_LIST_JWT_MEDIA_TYPE = 'application/statuslist+jwt';

/**
 * The issuer column of a token status list: the SD-JWT VC issuer `<base>/v2/did/oid4vci` (its
 * `iss`), never a DID as the W3C lists' (so the two kinds never share a list); the base it was
 * made under when the base is one (a list keeps its URI after PUBLIC_URL changes), else undefined.
 */
export function tokenListBaseOf(issuer: string): string | undefined {
  if (!issuer.endsWith(OID4VCI_ISSUER_PATH)) return undefined;
  const base = issuer.slice(0, -OID4VCI_ISSUER_PATH.length);
  try {
    const url = new URL(base);
    return url.protocol === 'https:' || url.protocol === 'http:' ? base : undefined;
  } catch {
    return undefined;
  }
}

/** The URI of a token status list of `issuer` (a token lists' issuer): its `sub`, the VCs' `uri`. */
export function tokenListUri(issuer: string, listId: string): string {
  const base = tokenListBaseOf(issuer);
  if (base === undefined) throw new Error(`${issuer} is not an SD-JWT VC issuer`);
  return `${base}${TOKEN_STATUS_LISTS_PATH}/${listId}`;
}

/**
 * The list id of a token status list URI under any public base (a list only counts once its row's
 * issuer is the SD-JWT VC's verified `iss`); undefined for any other URI.
 */
export function tokenListIdOf(uri: string): string | undefined {
  let path: string;
  try {
    path = new URL(uri).pathname;
  } catch {
    return undefined;
  }
  const prefix = `${TOKEN_STATUS_LISTS_PATH}/`;
  const at = path.lastIndexOf(prefix);
  if (at < 0) return undefined;
  const listId = path.slice(at + prefix.length);
  return isStatusListId(listId) ? listId : undefined;
}

/** The SD-JWT VC issuer of this service under `publicUrl`: the issuer column of its token lists. */
export function sdJwtIssuerOf(publicUrl: string): string {
  return `${publicUrl.replace(/\/+$/, '')}${OID4VCI_ISSUER_PATH}`;
}
