import type { ChainVerificationCache, TrustAnchors } from '@itp/x509';
import { CLOCK_SKEW_SECONDS } from './check-validity-window.js';
import { decodeStatusList, statusAt, type DecodedStatusLists } from './decoded-status-lists.js';
import { refuse } from './refuse.js';
import { splitCompactJws, type CompactJwsParts } from './split-compact-jws.js';
import { verifyX5cJws, type X5cSigner } from './verify-x5c-jws.js';

export interface StatusCheckContext {
  trustAnchors: TrustAnchors;
  now: Date;
  /**
   * The credential's issuer (from its x5c leaf): may sign the status list without an x5c; a
   * status list token under the same x5c is not chain-checked a second time.
   */
  issuer: X5cSigner;
  fetchStatusList: (uri: string) => Promise<string>;
  /** Remembered chain checks (another x5c on the status list token). */
  chains?: ChainVerificationCache;
  /** Decoded lists kept beside their exact token: the same token is not inflated again. */
  statusLists?: DecodedStatusLists;
}

/**
 * IETF Token Status List: a credential with `status.status_list { idx, uri }` is checked against
 * the status list token at `uri`. The token must be `typ` statuslist+jwt, signed (ES256) under an
 * `x5c` chain to the trust anchors or by the credential issuer's key, with `sub` = `uri`, not
 * expired. Any failure to get such a token refuses ('status_unavailable': never treated as
 * valid); a status other than 0 (VALID) — 1 INVALID, 2 SUSPENDED, … — refuses ('revoked').
 * A credential without a `status` claim has nothing to check.
 */
export async function checkStatus(
  credential: Record<string, unknown>,
  context: StatusCheckContext,
): Promise<void> {
  if (credential.status === undefined) return;
  const { idx, uri } = statusReference(credential.status);
  let token: string;
  try {
    token = await context.fetchStatusList(uri);
  } catch (error) {
    throw refuse('status_unavailable', `the status list ${uri} could not be fetched`, error);
  }
  const jws = await checkStatusListToken(token, uri, context);
  let status: number;
  try {
    status = context.statusLists
      ? context.statusLists.statusOf(uri, token, jws.payload, idx)
      : statusAt(decodeStatusList(token, jws.payload), idx);
  } catch (error) {
    throw refuse('status_unavailable', `the status list ${uri} has no entry ${idx}`, error);
  }
  if (status !== 0)
    throw refuse('revoked', `status list entry ${idx} is ${status} (${statusName(status)})`);
}

function statusReference(status: unknown): { idx: number; uri: string } {
  const list = (status as { status_list?: { idx?: unknown; uri?: unknown } } | null)?.status_list;
  if (
    typeof list?.idx !== 'number' ||
    !Number.isSafeInteger(list.idx) ||
    list.idx < 0 ||
    typeof list.uri !== 'string'
  ) {
    throw refuse('format', 'status is not { status_list: { idx, uri } }');
  }
  return { idx: list.idx, uri: list.uri };
}

async function checkStatusListToken(
  token: string,
  uri: string,
  context: StatusCheckContext,
): Promise<CompactJwsParts> {
  const jws = splitCompactJws(token);
  if (jws === undefined) throw refuse('status_unavailable', `the status list ${uri} is not a JWT`);
  if (jws.header.typ !== 'statuslist+jwt') {
    throw refuse('status_unavailable', `the status list ${uri} is not typ statuslist+jwt`);
  }
  const verified = await verifyX5cJws(
    jws,
    context.trustAnchors,
    context.now,
    context.issuer,
    context.chains,
  );
  if (!verified.ok)
    throw refuse('status_unavailable', `the status list ${uri} is not trusted: ${verified.reason}`);
  if (jws.payload.sub !== uri)
    throw refuse('status_unavailable', `the status list's sub is not ${uri}`);
  const exp = jws.payload.exp;
  if (typeof exp === 'number' && exp + CLOCK_SKEW_SECONDS < context.now.getTime() / 1000) {
    throw refuse('status_unavailable', `the status list ${uri} has expired`);
  }
  return jws;
}

function statusName(status: number): string {
  if (status === 1) return 'INVALID';
  if (status === 2) return 'SUSPENDED';
  return 'not VALID';
}
