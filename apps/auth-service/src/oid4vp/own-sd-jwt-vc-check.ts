import { decodeJwt } from 'jose';
import { ServiceUnavailableError } from '@itp/errors';
import {
  DecodedStatusLists,
  PresentationRefusedError,
  verifySdJwtVcPresentation,
} from '@itp/presentations';
import { ChainVerificationCache } from '@itp/x509';
import type { OwnIssuerAnchors } from '../did-service/own-issuer-anchors.js';
import { fetchStatusListOverHttp } from './fetch-status-list-over-http.js';

/**
 * The login request's DCQL credential query for this service's SD-JWT VC: did-service's request
 * object names it (apps/did-service/src/oid4vp/oid4vp-constants.ts, ITP_SD_JWT_QUERY_ID; apps
 * never import apps).
 */
export const ITP_SD_JWT_QUERY_ID = 'itp_sd_jwt';

/** Where this service's OpenID4VCI issuer is (`iss` of its SD-JWT VCs), under PUBLIC_URL. */
export const OWN_CREDENTIAL_ISSUER_PATH = '/v2/did/oid4vci';
/** The `vct` of its Profile SD-JWT VC, under PUBLIC_URL (contract §15). */
export const OWN_PROFILE_VCT_PATH = '/v2/did/oid4vci/vct/profile';

/** A login credential checked: whose it is, and when it was issued (for the account's epochs). */
export type OwnSdJwtVcVerification =
  | { verified: true; userId: string; credentialIssuedAt: number }
  | { verified: false; error: { code: string; message: string } };

export interface OwnSdJwtVcCheckDeps {
  /** The own SD-JWT issuers' roots (from did-service): the only anchors trusted for a login. */
  ownIssuers: Pick<OwnIssuerAnchors, 'anchors' | 'refreshIfDue'>;
  /** The status list fetcher (default: @itp/presentations' HTTP GET). */
  fetchStatusList?: (uri: string) => Promise<string>;
  clock?: () => number;
}

const refused = (code: string, message: string): OwnSdJwtVcVerification => ({
  verified: false,
  error: { code, message },
});

/**
 * OpenID4VP login with this service's own Profile SD-JWT VC (docs/api.md §8): the presentation
 * verifies (@itp/presentations: an `x5c` chain to an own issuer's root only — never one of
 * TRUSTED_ISSUER_CERTIFICATES —, the issuer's signature, disclosures, validity, key binding with
 * this request's `nonce` and `aud` = its client id, `sd_hash`, the token status list entry 0), its
 * `iss` is this service's credential issuer and its `vct` the Profile type; it names its user by
 * `sub`. The account's epochs are judged by the caller with `credentialIssuedAt` (`iat`).
 * A status list that cannot be fetched is a 503 (ServiceUnavailableError: the wallet may retry);
 * every other failure is a refusal naming the rule. Accepted x5c chains are remembered and status
 * lists decoded once per token (ADR 0039); the status list token is fetched for every login.
 */
export class OwnSdJwtVcCheck {
  private readonly chains = new ChainVerificationCache();
  private readonly statusLists = new DecodedStatusLists();

  constructor(
    private readonly deps: OwnSdJwtVcCheckDeps,
    private readonly options: { publicUrl: string },
  ) {}

  async check(
    presentation: string,
    request: { nonce: string; clientId: string },
  ): Promise<OwnSdJwtVcVerification> {
    let verified;
    try {
      verified = await this.verify(presentation, request).catch(async (err: unknown) => {
        // An own issuer whose (new) CA auth-service has not fetched yet: fetch, then once more.
        if (ruleOf(err) === 'issuer_untrusted' && (await this.deps.ownIssuers.refreshIfDue())) {
          return this.verify(presentation, request);
        }
        throw err;
      });
    } catch (err) {
      if (err instanceof ServiceUnavailableError) throw err;
      if (err instanceof PresentationRefusedError) return refused(err.rule, err.message);
      return refused('invalid_presentation', 'The SD-JWT VC presentation could not be read');
    }
    const { publicUrl } = this.options;
    if (verified.issuer !== `${publicUrl}${OWN_CREDENTIAL_ISSUER_PATH}`) {
      return refused('issuer_not_own', 'The credential was not issued by this service');
    }
    if (verified.vct !== `${publicUrl}${OWN_PROFILE_VCT_PATH}`) {
      return refused('wrong_vct', 'The credential is not this service’s Profile credential');
    }
    const userId = verified.claims.sub;
    if (typeof userId !== 'string' || userId.length === 0) {
      return refused('user_mismatch', 'The credential does not name a user (sub)');
    }
    const issuedAt = issuedAtOf(presentation);
    if (issuedAt === undefined) {
      return refused('format', 'The credential has no issuance time (iat)');
    }
    return { verified: true, userId, credentialIssuedAt: issuedAt };
  }

  private async verify(presentation: string, request: { nonce: string; clientId: string }) {
    let unreachable = false;
    const fetchStatusList = this.deps.fetchStatusList;
    try {
      return await verifySdJwtVcPresentation(presentation, {
        nonce: request.nonce,
        audience: request.clientId,
        trustAnchors: this.deps.ownIssuers.anchors,
        chains: this.chains,
        statusLists: this.statusLists,
        ...(this.deps.clock ? { now: new Date(this.deps.clock()) } : {}),
        fetchStatusList: async (uri) => {
          try {
            return await (fetchStatusList ?? fetchStatusListOverHttp)(uri);
          } catch (err) {
            unreachable = true;
            throw err;
          }
        },
      });
    } catch (err) {
      if (unreachable && ruleOf(err) === 'status_unavailable') {
        throw new ServiceUnavailableError('The credential’s status list cannot be fetched now', {
          cause: err,
        });
      }
      throw err;
    }
  }
}

function ruleOf(err: unknown): string | undefined {
  return err instanceof PresentationRefusedError ? err.rule : undefined;
}

/** The issuer-signed JWT's `iat` (the presentation verified: its first part is that JWT). */
function issuedAtOf(presentation: string): number | undefined {
  try {
    const { iat } = decodeJwt(presentation.split('~')[0] ?? '');
    return typeof iat === 'number' && Number.isFinite(iat) ? iat : undefined;
  } catch {
    return undefined;
  }
}
