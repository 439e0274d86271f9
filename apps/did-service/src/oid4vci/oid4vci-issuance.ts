import { createHash, randomBytes, randomInt } from 'node:crypto';
import {
  Oauth2AuthorizationServer,
  Oauth2ServerErrorResponseError,
  preAuthorizedCodeGrantIdentifier,
  type AuthorizationServerMetadata,
  type CallbackContext,
  type HttpMethod,
  type RequestLike,
} from '@openid4vc/oauth2';
import { Openid4vciIssuer, Openid4vciVersion } from '@openid4vc/openid4vci';
import type { Jwk } from '@openid4vc/oauth2';
import type { AccountEpoch } from '@itp/auth-jwt';
import {
  OID4VCI_TX_CODE_LENGTH,
  type CredentialOfferRequest,
  type CredentialOfferResult,
} from '@itp/schemas';
import type { Logger } from '@itp/service-kit';
import {
  signProfileCredential,
  type IssueCredentialDeps,
} from '../credentials/issue-credential.js';
import { canonicalDid } from '../dids/did-ethr.js';
import { ITP_CREDENTIAL_TYPES } from '../oid4vp/oid4vp-constants.js';
import type { SdJwtIssuerKeys } from '../sd-jwt-issuer/sd-jwt-issuer-key.js';
import type { TokenStatusLists } from '../status/token-status-lists.js';
import { DPOP_SIGNING_ALGS, DpopProofs } from './dpop-proofs.js';
import type { DpopNonces } from './dpop-nonces.js';
import {
  Oid4vciError,
  SdJwtIssuanceUnavailableError,
  invalidGrant,
  invalidNonce,
  invalidToken,
} from './oid4vci-error.js';
import type { AccessTokenRecord, Oid4vciGrant, Oid4vciStore } from './oid4vci-store.js';
import { PROOF_SIGNING_ALGS, jwtProofsOf, proofAlg, proofNonce } from './proof-jwt.js';
import { JWK_HEADER_SIGNING_ALGS, proofJwtVerifier, type ResolveDid } from './proof-keys.js';
import {
  ITP_PROFILE_SD_JWT_CONFIGURATION_ID,
  PROFILE_VCT_PATH,
  profileTypeMetadata,
} from './sd-jwt-profile-type.js';
import { publicEcJwk, signProfileSdJwtVc } from './sign-profile-sd-jwt-vc.js';

/** The first credential configuration: the Profile VC create-vc issues, as jwt_vc_json. */
export const ITP_PROFILE_CONFIGURATION_ID = 'itp_profile_jwt_vc_json';
export { ITP_PROFILE_SD_JWT_CONFIGURATION_ID };

/** The configuration an offer of each format names. */
const CONFIGURATION_OF_FORMAT = {
  jwt_vc_json: ITP_PROFILE_CONFIGURATION_ID,
  'dc+sd-jwt': ITP_PROFILE_SD_JWT_CONFIGURATION_ID,
} as const;

/** The holder key binding methods of the SD-JWT configuration (a `jwk` header, or a DID URL). */
const SD_JWT_BINDING_METHODS = ['jwk', 'did:key', 'did:jwk'];

/** Path of the credential issuer under the public base (its identifier is PUBLIC_URL + this). */
export const OID4VCI_ISSUER_PATH = '/v2/did/oid4vci';

/** Lifetimes (seconds): the offer and its pre-authorized code, the access token, a c_nonce. */
export const OID4VCI_LIFETIMES = { offer: 300, accessToken: 300, nonce: 300 } as const;

/**
 * tx_code attempts a pre-authorized code gets: each attempt is counted (one atomic INCR) before its
 * tx_code is compared, a later one is refused without comparing, and the last allowed one, when
 * wrong, drops the code. So a code survives two wrong tx_codes, not three — also when 50 guesses
 * arrive at once on several replicas.
 */
export const MAX_TX_CODE_ATTEMPTS = 3;

/** How far a key proof's `iat` may be from the issuer's clock, either way (seconds). */
export const PROOF_IAT_MAX_SKEW_SECONDS = 300;

/** A pre-authorized code, an offer id, an access token, a c_nonce: 256 random bits. */
const randomId = () => randomBytes(32).toString('base64url');

export interface Oid4vciIssuanceDeps {
  /** PUBLIC_URL: the credential issuer is `<publicUrl>/v2/did/oid4vci`. */
  publicUrl: string;
  store: Oid4vciStore;
  /** create-vc's issuing parts: the VC is signed the one way this service signs VCs. */
  credentials: Pick<
    IssueCredentialDeps,
    'agent' | 'serviceDids' | 'allocator' | 'statusUrls' | 'vcLifetimeSeconds' | 'issuedCredentials'
  >;
  /** The proof keys' DIDs (did:key, did:jwk, did:ethr): the agent's resolver. */
  resolveDid: ResolveDid;
  /**
   * The user's account (auth-service's users/status, cached briefly: ActiveUsers): an offer made
   * before the user's `tokensValidAfter` (a password reset, a disable, a logout everywhere), or
   * for a user who is no longer active, is not redeemed and gets no credential.
   */
  accounts: AccountEpochs;
  /** The server nonces of DPoP proofs (RFC 9449 §8), shared by the replicas. */
  dpopNonces: DpopNonces;
  /**
   * SD-JWT VC issuance (contract §15): the issuer key (ES256, x5c) and the token status lists.
   * Absent: off (the metadata lists only jwt_vc_json; a dc+sd-jwt offer is refused).
   */
  sdJwt?: { keys: SdJwtIssuerKeys; statusLists: TokenStatusLists } | undefined;
  logger?: Logger;
  now?: () => number;
}

/** An endpoint's answer and the `DPoP-Nonce` to send with it (when the request used DPoP). */
export interface Oid4vciAnswer<T> {
  body: T;
  dpopNonce?: string;
}

/** Where the issuance reads a user's account state (did-service's ActiveUsers). */
export interface AccountEpochs {
  epochOf(userId: string): Promise<AccountEpoch>;
}

/** The request as the protocol library reads it (headers for DPoP / client attestation). */
export interface IncomingRequest {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
}

/**
 * OpenID4VCI 1.0, pre-authorized code flow (contract §10, docs/api.md §10), with the OpenWallet
 * Foundation's `@openid4vc/openid4vci` / `@openid4vc/oauth2` for the protocol: the logged-in user
 * asks for an offer; the wallet fetches it once, redeems the one-time code (5 minutes, a tx_code
 * unless the offer opted out) at the token endpoint, takes a c_nonce, proves its key with an `openid4vci-proof+jwt`
 * whose `kid` is a DID URL (did:key, did:jwk, did:ethr), and receives a Profile VC issued to
 * that DID for the user, signed by this service's issuer DID with a status entry (§7). An offer
 * of format dc+sd-jwt (contract §15, docs/api.md §15) leads instead to an SD-JWT VC bound to the
 * proof's key (a `jwk` header or a did:key / did:jwk DID URL), signed by the SD-JWT issuer key
 * with a token status list entry. A wallet that sends DPoP proofs gets a DPoP-bound access token
 * (RFC 9449, dpop-proofs.ts).
 */
export class Oid4vciIssuance {
  readonly issuer: string;
  /** The `vct` of the SD-JWT Profile VC: where its type metadata is served. */
  readonly vct: string;
  private readonly library: Openid4vciIssuer;
  private readonly authorizationServer: Oauth2AuthorizationServer;
  private readonly dpop: DpopProofs;
  private readonly now: () => number;

  constructor(private readonly deps: Oid4vciIssuanceDeps) {
    const base = deps.publicUrl.replace(/\/+$/, '');
    this.issuer = `${base}${OID4VCI_ISSUER_PATH}`;
    this.vct = `${base}${PROFILE_VCT_PATH}`;
    this.now = deps.now ?? Date.now;
    const callbacks: Omit<CallbackContext, 'decryptJwe' | 'encryptJwe'> = {
      hash: (data, alg) =>
        new Uint8Array(createHash(alg.replace('-', '').toLowerCase()).update(data).digest()),
      generateRandom: (length) => new Uint8Array(randomBytes(length)),
      signJwt: () => {
        throw new Error('the OpenID4VCI issuer signs nothing through the library');
      },
      verifyJwt: proofJwtVerifier(deps.resolveDid),
      clientAuthentication: () => undefined,
    };
    this.library = new Openid4vciIssuer({ callbacks });
    this.authorizationServer = new Oauth2AuthorizationServer({ callbacks });
    this.dpop = new DpopProofs({
      nonces: deps.dpopNonces,
      server: this.authorizationServer,
      store: deps.store,
      now: this.now,
    });
  }

  /** Whether SD-JWT VCs are issued (an SD-JWT issuer key and token status lists were given). */
  get sdJwtEnabled(): boolean {
    return this.deps.sdJwt !== undefined;
  }

  /** GET /v2/did/oid4vci/vct/profile: the SD-JWT VC type metadata; undefined when SD-JWT is off. */
  typeMetadata() {
    return this.sdJwtEnabled ? profileTypeMetadata(this.vct) : undefined;
  }

  /** Credential issuer metadata (OpenID4VCI 1.0 §12.2), validated by the library. */
  credentialIssuerMetadata() {
    return this.library.createCredentialIssuerMetadata({
      credential_issuer: this.issuer,
      credential_endpoint: `${this.issuer}/credential`,
      nonce_endpoint: `${this.issuer}/nonce`,
      display: [{ name: 'ITP identity platform', locale: 'en' }],
      credential_configurations_supported: {
        [ITP_PROFILE_CONFIGURATION_ID]: {
          format: 'jwt_vc_json',
          cryptographic_binding_methods_supported: ['did:key', 'did:jwk', 'did:ethr'],
          credential_signing_alg_values_supported: ['ES256K'],
          proof_types_supported: {
            jwt: { proof_signing_alg_values_supported: [...PROOF_SIGNING_ALGS] },
          },
          credential_definition: { type: [...ITP_CREDENTIAL_TYPES] },
          credential_metadata: { display: [{ name: 'Profile', locale: 'en' }] },
        },
        ...(this.sdJwtEnabled
          ? {
              [ITP_PROFILE_SD_JWT_CONFIGURATION_ID]: {
                format: 'dc+sd-jwt' as const,
                vct: this.vct,
                cryptographic_binding_methods_supported: SD_JWT_BINDING_METHODS,
                credential_signing_alg_values_supported: ['ES256'],
                proof_types_supported: {
                  jwt: { proof_signing_alg_values_supported: [...JWK_HEADER_SIGNING_ALGS] },
                },
                credential_metadata: {
                  display: [{ name: 'Profile (SD-JWT)', locale: 'en' }],
                  claims: (profileTypeMetadata(this.vct).claims ?? []).map((claim) => ({
                    path: claim.path as string[],
                    display: (claim.display ?? []).map((d) => ({
                      name: d.label,
                      locale: d.locale ?? 'en',
                    })),
                  })),
                },
              },
            }
          : {}),
      },
    });
  }

  /** Authorization server metadata (RFC 8414): the issuer is its own, pre-authorized code only. */
  authorizationServerMetadata(): AuthorizationServerMetadata {
    return this.authorizationServer.createAuthorizationServerMetadata({
      issuer: this.issuer,
      token_endpoint: `${this.issuer}/token`,
      grant_types_supported: [preAuthorizedCodeGrantIdentifier],
      token_endpoint_auth_methods_supported: ['none'],
      'pre-authorized_grant_anonymous_access_supported': true,
      dpop_signing_alg_values_supported: [...DPOP_SIGNING_ALGS],
    });
  }

  private issuerMetadata() {
    const credentialIssuer = this.credentialIssuerMetadata();
    return {
      originalDraftVersion: Openid4vciVersion.V1,
      credentialIssuer,
      authorizationServers: [this.authorizationServerMetadata()],
      knownCredentialConfigurations:
        this.library.getKnownCredentialConfigurationsSupported(credentialIssuer),
    };
  }

  /**
   * POST /v2/did/credential-offer: a new offer for `userId` (fetched once at its URI), its one-time
   * pre-authorized code (5 minutes) and, when asked for, a numeric transaction code that is
   * answered here only (the user types it into the wallet; it is not in the offer).
   */
  async createOffer(
    userId: string,
    request: CredentialOfferRequest,
  ): Promise<CredentialOfferResult> {
    const credentialConfigurationId = CONFIGURATION_OF_FORMAT[request.format];
    if (credentialConfigurationId === ITP_PROFILE_SD_JWT_CONFIGURATION_ID && !this.sdJwtEnabled) {
      throw new SdJwtIssuanceUnavailableError();
    }
    const offerId = randomId();
    const code = randomId();
    const txCode = request.txCode
      ? String(randomInt(0, 10 ** OID4VCI_TX_CODE_LENGTH)).padStart(OID4VCI_TX_CODE_LENGTH, '0')
      : undefined;
    const offerUri = `${this.issuer}/offer/${offerId}`;
    const { credentialOffer, credentialOfferObject } = await this.library.createCredentialOffer({
      issuerMetadata: this.issuerMetadata(),
      credentialConfigurationIds: [credentialConfigurationId],
      grants: {
        [preAuthorizedCodeGrantIdentifier]: {
          'pre-authorized_code': code,
          ...(txCode
            ? {
                tx_code: {
                  input_mode: 'numeric',
                  length: OID4VCI_TX_CODE_LENGTH,
                  description: 'The code shown beside the QR code',
                },
              }
            : {}),
        },
      },
      credentialOfferUri: offerUri,
    });
    const ttlMs = OID4VCI_LIFETIMES.offer * 1000;
    const now = this.now();
    await this.deps.store.putCode(
      code,
      {
        userId,
        userInfo: request.userInfo,
        offerId,
        offerCreatedAt: now,
        credentialConfigurationId,
        ...(txCode ? { txCode } : {}),
        expiresAt: now + ttlMs,
      },
      ttlMs,
    );
    await this.deps.store.putOffer(offerId, JSON.stringify(credentialOfferObject), ttlMs);
    this.deps.logger?.info(
      { offerId, userId, txCode: txCode !== undefined, credentialConfigurationId },
      'credential offer',
    );
    return {
      credentialOfferUri: credentialOffer,
      ...(txCode ? { txCode } : {}),
      expiresInSeconds: OID4VCI_LIFETIMES.offer,
    };
  }

  /** GET <issuer>/offer/<id>: the offer JSON, once; 404 afterwards, unknown or expired. */
  async takeOffer(offerId: string): Promise<string> {
    const offer = /^[A-Za-z0-9_-]{43}$/.test(offerId)
      ? await this.deps.store.takeOffer(offerId)
      : undefined;
    if (!offer)
      throw new Oid4vciError(
        404,
        'invalid_request',
        'Unknown, expired or already fetched credential offer',
      );
    return offer;
  }

  /**
   * The token endpoint (RFC 6749 §5, OpenID4VCI 1.0 §6): the pre-authorized code grant only. The
   * code is redeemed once (on every replica; also after Redis lost its data: SQL mark), within 5
   * minutes, with the right tx_code when one was given, for a user who is still active and whose
   * `tokensValidAfter` is not after the offer (else invalid_grant). Each tx_code attempt is
   * counted atomically before it is compared: at most MAX_TX_CODE_ATTEMPTS are compared, the last
   * of them, when wrong, drops the code, and later ones are refused uncompared. Answers a Bearer
   * access token for one credential of that offer; with a `DPoP` proof (RFC 9449: the server
   * nonce, a one-time jti, ES256) a DPoP-bound one (`token_type` DPoP) and the next `DPoP-Nonce`.
   */
  async token(
    body: Record<string, unknown>,
    request: IncomingRequest,
  ): Promise<
    Oid4vciAnswer<{ access_token: string; token_type: 'Bearer' | 'DPoP'; expires_in: number }>
  > {
    const requestLike = toRequestLike(request);
    const parsed = this.library_(() =>
      this.authorizationServer.parseAccessTokenRequest({
        accessTokenRequest: body,
        request: requestLike,
      }),
    );
    // The proof first: a wallet told use_dpop_nonce retries with the same code and tx_code, which
    // must still be there (and its attempt not counted).
    const dpop = parsed.dpop
      ? await this.dpop.verify({ proof: parsed.dpop.jwt, request: requestLike, place: 'token' })
      : undefined;
    if (parsed.grant.grantType !== preAuthorizedCodeGrantIdentifier) {
      throw new Oid4vciError(
        400,
        'unsupported_grant_type',
        'Only the pre-authorized code grant is supported',
      );
    }
    const code = parsed.grant.preAuthorizedCode;
    const stored = await this.deps.store.readCode(code);
    if (!stored) throw invalidGrant();
    const record = stored.value;
    const txCode = parsed.grant.txCode;
    if (record.txCode !== undefined && txCode !== undefined) {
      // The attempt's number decides, not the record read above (concurrent requests all read
      // the same one): the INCR is the one atomic step every replica shares.
      const attempt = await this.deps.store.countTxCodeAttempt(
        code,
        OID4VCI_LIFETIMES.offer * 1000,
      );
      if (attempt > MAX_TX_CODE_ATTEMPTS) {
        await this.deps.store.dropCode(code);
        throw invalidGrant('Too many wrong tx_codes: the code is no longer valid');
      }
      if (!sameText(txCode, record.txCode)) {
        if (attempt >= MAX_TX_CODE_ATTEMPTS) await this.deps.store.dropCode(code);
        this.deps.logger?.info({ offerId: record.offerId, attempt }, 'wrong tx_code');
        throw invalidGrant('Wrong tx_code');
      }
    }
    const now = this.now();
    await this.library_(() =>
      this.authorizationServer.verifyPreAuthorizedCodeAccessTokenRequest({
        grant: parsed.grant as never,
        accessTokenRequest: parsed.accessTokenRequest,
        request: requestLike,
        expectedPreAuthorizedCode: code,
        expectedTxCode: record.txCode,
        preAuthorizedCodeExpiresAt: new Date(record.expiresAt),
        now: new Date(now),
        authorizationServerMetadata: this.authorizationServerMetadata(),
      }),
    );
    if (!(await this.offerStillCurrent(record))) {
      await this.deps.store.dropCode(code);
      throw invalidGrant(
        'The offer was ended by a password reset, a disable or a logout everywhere',
      );
    }
    // The first redemption wins, on any replica, also when Redis comes back with the code.
    if (!(await this.deps.store.markUsed('code', code, record.expiresAt, now)))
      throw invalidGrant();
    await this.deps.store.dropCode(code);
    const accessToken = randomId();
    const ttlMs = OID4VCI_LIFETIMES.accessToken * 1000;
    await this.deps.store.putAccessToken(
      accessToken,
      {
        userId: record.userId,
        userInfo: record.userInfo,
        offerId: record.offerId,
        offerCreatedAt: offerCreatedAt(record),
        credentialConfigurationId: configurationOf(record),
        ...(dpop ? { dpopJkt: dpop.jkt } : {}),
        expiresAt: now + ttlMs,
      },
      ttlMs,
    );
    this.deps.logger?.info(
      { offerId: record.offerId, dpop: dpop !== undefined },
      'pre-authorized code redeemed',
    );
    return {
      body: {
        access_token: accessToken,
        token_type: dpop ? 'DPoP' : 'Bearer',
        expires_in: OID4VCI_LIFETIMES.accessToken,
      },
      ...(dpop ? { dpopNonce: await this.deps.dpopNonces.current() } : {}),
    };
  }

  /**
   * Whether the offer of `grant` still stands for its user: the user is active and their epoch
   * (`tokensValidAfter`, epoch seconds) is not after the moment the offer was made.
   */
  private async offerStillCurrent(grant: Oid4vciGrant & { expiresAt: number }): Promise<boolean> {
    const account = await this.deps.accounts.epochOf(grant.userId);
    return account.active && offerCreatedAt(grant) >= account.tokensValidAfter * 1000;
  }

  /** The nonce endpoint (OpenID4VCI 1.0 §7): a fresh c_nonce, one-time, 5 minutes. */
  async nonce() {
    const nonce = randomId();
    const ttlMs = OID4VCI_LIFETIMES.nonce * 1000;
    await this.deps.store.putNonce(nonce, this.now() + ttlMs, ttlMs);
    return this.library.createNonceResponse({
      cNonce: nonce,
      cNonceExpiresIn: OID4VCI_LIFETIMES.nonce,
    });
  }

  /**
   * The credential endpoint (OpenID4VCI 1.0 §8), its refusals as §8.3.1.2 names them: the access
   * token of the token endpoint (`Authorization: Bearer`, the scheme in any case, RFC 9110 §11.1;
   * a DPoP-bound one only as `Authorization: DPoP` with a DPoP proof by its key naming it, else
   * 401 invalid_token / invalid_dpop_proof / use_dpop_nonce; one credential; else 401
   * invalid_token); a `credential_configuration_id` of the metadata (else
   * unknown_credential_configuration; a `credential_identifier`, never issued here,
   * unknown_credential_identifier) and the one the offer named (else invalid_credential_request);
   * one `jwt` proof signed with ES256, ES256K or EdDSA (ES256 for the SD-JWT configuration; never
   * `alg: none`), with a `nonce` (else invalid_proof) that is a c_nonce of the nonce endpoint not
   * used before (else invalid_nonce), `aud` this issuer and signed by the key it names (else
   * invalid_proof): for jwt_vc_json a `kid` DID URL of did:key, did:jwk or did:ethr (the VC names
   * that DID as `credentialSubject.id` and the user as `credentialSubject.sub`); for the SD-JWT
   * configuration a `jwk` header or a did:key / did:jwk DID URL of a P-256 key (bound as
   * `cnf.jwk`).
   */
  async credential(request: IncomingRequest, body: unknown): Promise<Oid4vciAnswer<unknown>> {
    const presented = accessTokenOf(request.headers.authorization);
    if (!presented)
      throw invalidToken(
        'Authorization: Bearer <access token> (or DPoP <access token>) is required',
      );
    const { token, scheme } = presented;
    const stored = await this.deps.store.readAccessToken(token);
    const now = this.now();
    if (!stored || stored.value.expiresAt <= now) throw invalidToken();
    const grant = stored.value;
    const dpopNonce = await this.checkTokenUse(grant, token, scheme, request);
    const issuerMetadata = this.issuerMetadata();
    const credentialRequest = (body ?? {}) as Record<string, unknown>;
    const granted = configurationOf(grant);
    // Before the library parses the request: it would call an unknown configuration, or a proof
    // it cannot read (an unsigned alg-none JWT), a malformed request (invalid_credential_request).
    const configurationId = credentialRequest.credential_configuration_id;
    if (
      typeof configurationId === 'string' &&
      !Object.hasOwn(
        issuerMetadata.credentialIssuer.credential_configurations_supported,
        configurationId,
      )
    ) {
      throw new Oid4vciError(
        400,
        'unknown_credential_configuration',
        `Unknown credential_configuration_id: ask for ${granted}`,
      );
    }
    for (const jwt of jwtProofsOf(credentialRequest)) proofNonce(jwt);
    const request_ = this.library_(() =>
      this.library.parseCredentialRequest({ issuerMetadata, credentialRequest }),
    );
    if (request_.credentialIdentifier !== undefined) {
      throw new Oid4vciError(
        400,
        'unknown_credential_identifier',
        `This issuer gives no credential identifiers: ask for credential_configuration_id ${granted}`,
      );
    }
    if (request_.credentialConfigurationId !== granted) {
      throw new Oid4vciError(
        400,
        'invalid_credential_request',
        `This access token is for credential_configuration_id ${granted}`,
      );
    }
    const sdJwt = granted === ITP_PROFILE_SD_JWT_CONFIGURATION_ID;
    const proofs = request_.proofs?.jwt;
    if (!proofs || proofs.length !== 1 || typeof proofs[0] !== 'string') {
      throw new Oid4vciError(400, 'invalid_proof', 'Send exactly one proof of type jwt');
    }
    const proofJwt = proofs[0];
    if (
      sdJwt &&
      !(JWK_HEADER_SIGNING_ALGS as readonly string[]).includes(proofAlg(proofJwt) ?? '')
    ) {
      throw new Oid4vciError(
        400,
        'invalid_proof',
        `The proof for ${granted} must be signed with ${JWK_HEADER_SIGNING_ALGS.join(', ')}`,
      );
    }
    const nonce = proofNonce(proofJwt);
    const nonceExpiresAt = await this.deps.store.takeNonce(nonce);
    if (nonceExpiresAt === undefined || nonceExpiresAt <= now) throw invalidNonce();
    if (!(await this.deps.store.markUsed('nonce', nonce, nonceExpiresAt, now)))
      throw invalidNonce();
    const verified = await this.library_(() =>
      this.library.verifyCredentialRequestJwtProof({
        issuerMetadata,
        jwt: proofJwt,
        expectedNonce: nonce,
        nonceExpiresAt: new Date(nonceExpiresAt),
        now: new Date(now),
      }),
    );
    const iat = verified.payload.iat;
    if (typeof iat !== 'number' || Math.abs(now / 1000 - iat) > PROOF_IAT_MAX_SKEW_SECONDS) {
      throw new Oid4vciError(
        400,
        'invalid_proof',
        `The proof's iat must be within ${PROOF_IAT_MAX_SKEW_SECONDS} seconds of the issuer's time`,
      );
    }
    const holder = sdJwt ? sdJwtHolder(verified.signer) : didHolder(verified.signer);
    if (!(await this.offerStillCurrent(grant))) {
      throw new Oid4vciError(
        400,
        'credential_request_denied',
        'The credential can no longer be issued: the user was disabled, or a password reset or a logout everywhere ended the offer',
      );
    }
    // One credential per access token: of concurrent requests only one is answered.
    if (!(await this.deps.store.spendAccessToken(token, stored))) throw invalidToken();
    // Only the SD-JWT configuration's holder has a key to bind (sdJwtHolder).
    const credential = holder.jwk
      ? await this.issueSdJwtVc(grant, holder.did, holder.jwk, now)
      : await this.issueJwtVc(grant, holder.did);
    this.deps.logger?.info(
      { offerId: grant.offerId, holder: holder.did, credentialConfigurationId: granted },
      'credential issued (OpenID4VCI)',
    );
    return {
      body: this.library.createCredentialResponse({
        credentialRequest: request_,
        credentials: [{ credential }],
      }),
      ...(dpopNonce ? { dpopNonce } : {}),
    };
  }

  /**
   * How the access token must be presented: a DPoP-bound one only as `DPoP` with a proof by its
   * key naming it (RFC 9449 §7; answers the next `DPoP-Nonce`), a Bearer one only as `Bearer`.
   */
  private async checkTokenUse(
    grant: AccessTokenRecord,
    token: string,
    scheme: 'bearer' | 'dpop',
    request: IncomingRequest,
  ): Promise<string | undefined> {
    if (grant.dpopJkt === undefined) {
      if (scheme !== 'bearer')
        throw invalidToken('This access token is not DPoP-bound: send Authorization: Bearer');
      return undefined;
    }
    if (scheme !== 'dpop') {
      throw new Oid4vciError(
        401,
        'invalid_token',
        'This access token is DPoP-bound: send Authorization: DPoP <token> with a DPoP proof',
        { scheme: 'DPoP' },
      );
    }
    await this.dpop.verify({
      proof: request.headers.dpop,
      request: toRequestLike({ ...request, url: `${this.issuer}/credential` }),
      place: 'resource',
      accessToken: token,
      expectedJkt: grant.dpopJkt,
    });
    return this.deps.dpopNonces.current();
  }

  /** The Profile VC as jwt_vc_json (the way create-vc signs), issued to the holder's DID. */
  private async issueJwtVc(grant: AccessTokenRecord, holder: string): Promise<string> {
    const issuer = this.deps.credentials.serviceDids.issuers[0]?.did;
    if (!issuer) throw new Error('did-service has no issuer DID');
    const vc = await signProfileCredential(this.deps.credentials, {
      issuer,
      holder,
      userId: grant.userId,
      userInfo: grant.userInfo,
      via: 'openid4vci',
    });
    return vc.proof.jwt as string;
  }

  /**
   * The Profile SD-JWT VC (contract §15) bound to `holderJwk`, with a token status list entry;
   * recorded for the user like the other credentials (GET /v2/did/credentials) before it is
   * answered.
   */
  private async issueSdJwtVc(
    grant: AccessTokenRecord,
    holder: string,
    holderJwk: Jwk,
    now: number,
  ): Promise<string> {
    const sd = this.deps.sdJwt;
    if (!sd) throw new Error('SD-JWT issuance is off');
    const status = await sd.statusLists.allocate(grant.userId);
    const issuedAt = Math.floor(now / 1000);
    const lifetimeSeconds = this.deps.credentials.vcLifetimeSeconds;
    const { id, sdJwt } = await signProfileSdJwtVc(sd.keys, {
      issuer: this.issuer,
      vct: this.vct,
      userId: grant.userId,
      userInfo: grant.userInfo,
      holderJwk,
      status,
      issuedAt,
      ...(lifetimeSeconds ? { lifetimeSeconds } : {}),
    });
    await this.deps.credentials.issuedCredentials.record({
      id,
      userId: grant.userId,
      holder,
      issuedAt: new Date(issuedAt * 1000).toISOString(),
      expiresAt: lifetimeSeconds
        ? new Date((issuedAt + lifetimeSeconds) * 1000).toISOString()
        : undefined,
      via: 'openid4vci',
      listId: statusListIdOf(status.uri),
      index: status.idx,
    });
    return sdJwt;
  }

  /** Runs a library step, its OAuth refusals as Oid4vciError (their code and description). */
  private library_<T>(step: () => T): T {
    const rethrow = (err: unknown): never => {
      if (err instanceof Oauth2ServerErrorResponseError) {
        throw new Oid4vciError(
          err.status === 401 ? 401 : 400,
          err.errorResponse.error,
          err.errorResponse.error_description ?? err.errorResponse.error,
        );
      }
      throw err;
    };
    try {
      const result = step();
      if (result instanceof Promise) return result.catch(rethrow) as T;
      return result;
    } catch (err) {
      return rethrow(err);
    }
  }
}

/** The configuration a code or token is for; records from before there were two: jwt_vc_json. */
function configurationOf(grant: Oid4vciGrant): string {
  return grant.credentialConfigurationId ?? ITP_PROFILE_CONFIGURATION_ID;
}

/**
 * The access token of an `Authorization` header and its scheme (`Bearer` or `DPoP`, in any case:
 * RFC 9110 §11.1), or undefined.
 */
function accessTokenOf(
  authorization: string | string[] | undefined,
): { token: string; scheme: 'bearer' | 'dpop' } | undefined {
  if (typeof authorization !== 'string') return undefined;
  const match = /^(Bearer|DPoP) +([A-Za-z0-9_-]{1,128})$/i.exec(authorization.trim());
  if (!match?.[1] || !match[2]) return undefined;
  return { token: match[2], scheme: match[1].toLowerCase() as 'bearer' | 'dpop' };
}

/** The signer of a verified key proof, as the library answers it. */
type ProofSigner =
  | { method: 'did'; didUrl: string; publicJwk: Jwk }
  | { method: 'jwk'; publicJwk: Jwk }
  | { method: string; publicJwk?: Jwk };

/** jwt_vc_json: the proof's DID (did:ethr canonical), the VC's `credentialSubject.id`. */
function didHolder(signer: ProofSigner): { did: string; jwk?: undefined } {
  if (signer.method !== 'did' || !('didUrl' in signer)) {
    throw new Oid4vciError(400, 'invalid_proof', 'The proof kid must be a DID URL');
  }
  const did = signer.didUrl.split('#')[0] ?? '';
  return { did: did.startsWith('did:ethr:') ? canonicalDid(did) : did };
}

/**
 * The SD-JWT configuration: the holder key to bind as `cnf.jwk` — the `jwk` header's, or the key of
 * a did:key / did:jwk DID URL — a P-256 key; and how the account lists it (`holder`: the DID, or
 * the did:jwk of a `jwk` header's key).
 */
function sdJwtHolder(signer: ProofSigner): { did: string; jwk: Jwk } {
  const jwk = signer.publicJwk;
  if (
    !jwk ||
    jwk.kty !== 'EC' ||
    jwk.crv !== 'P-256' ||
    (signer.method !== 'jwk' && signer.method !== 'did')
  ) {
    throw new Oid4vciError(
      400,
      'invalid_proof',
      'The proof must name a P-256 key to bind: a jwk header, or a did:key / did:jwk DID URL',
    );
  }
  if (signer.method === 'did' && 'didUrl' in signer) {
    return { did: signer.didUrl.split('#')[0] ?? '', jwk: publicEcJwk(jwk) };
  }
  const publicJwk = publicEcJwk(jwk);
  return {
    did: `did:jwk:${Buffer.from(JSON.stringify(publicJwk)).toString('base64url')}`,
    jwk: publicJwk,
  };
}

/** The list id of a token status list URI (`…/token-status-lists/<listId>`, its last segment). */
function statusListIdOf(uri: string): string {
  return new URL(uri).pathname.split('/').pop() ?? '';
}

/** When the offer of a code or token was made; records from before it was kept: from the expiry. */
function offerCreatedAt(grant: Oid4vciGrant & { expiresAt: number }): number {
  return grant.offerCreatedAt ?? grant.expiresAt - OID4VCI_LIFETIMES.offer * 1000;
}

/** Compares two short texts in constant time for their length. */
function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i += 1) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

function toRequestLike(request: IncomingRequest): RequestLike {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  return { method: request.method as HttpMethod, url: request.url, headers };
}
