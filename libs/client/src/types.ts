/**
 * The message types of the SDK. Every payload type comes from the zod schemas of @itp/schemas
 * (the ones the services validate with); nothing is declared twice. Those passed on unchanged are
 * re-exported once, below; the others are read as `schemas.<Name>`. Only the SDK's own shapes
 * (options, wallet helpers) are declared here.
 */
import type * as schemas from '@itp/schemas';

import type { StepUpRequiredError } from './errors/error-classes.js';

/** The input type of a zod schema (what a caller may send), without importing zod. */
type InputOf<S extends { _zod: { input: unknown } }> = S['_zod']['input'];
/** The output type of a zod schema (what the service answers). */
type OutputOf<S extends { _zod: { output: unknown } }> = S['_zod']['output'];

export type {
  AuthJwks,
  AuthUserByAppResponse,
  BlockRecord,
  BlockSelectorParam,
  CreateAddressResult,
  CreateDidRequest,
  CreateTokenParams,
  CreateVpRequest,
  DidRecord,
  Erc20AllowanceParams,
  Erc20AllowanceResult,
  Erc20ApproveParams,
  Erc20BalanceOfParams,
  Erc20BalanceOfResult,
  Erc20ContractParams,
  Erc20DecimalsResult,
  Erc20NameResult,
  Erc20SymbolResult,
  Erc20TotalSupplyResult,
  Erc20TransferFromParams,
  Erc20TransferParams,
  GetBalanceParams,
  GetBalanceResult,
  GetBlockNumberResult,
  GetTempKeyParams,
  GetTempKeyResult,
  GetTransactionStatusResult,
  GetTransactionStatsResult,
  ImportAddressParams,
  ImportAddressResult,
  IssuedCredential,
  IssuedCredentialsResponse,
  LinkAddressResponse,
  LoginResult,
  PasskeyAuthenticationOptions,
  PasskeyAuthenticationResponse,
  PasskeyRegistrationOptions,
  PasskeyRegistrationResponse,
  PasskeySummary,
  PresentationOutcome,
  PresentationRequestCreated,
  PresentedCredential,
  ServiceDidEntry,
  SignDataParams,
  SiweNonceResponse,
  SiweSignedMessage,
  StatsRange,
  TempKeyType,
  TransactionReceipt,
  TransactionRecord,
  TransferParams,
  UnlinkAddressResponse,
} from '@itp/schemas';

/**
 * GET /v2/auth/account: the caller's account and its ways in (`passkeys` is [] when the service
 * lists none).
 */
export type AccountResponse = schemas.AccountView;

/** A verifiable credential (docs/api.md §3.2), as create-vc answers it. */
export type VerifiableCredential = schemas.VerifiableCredentialBody;
/** A verifiable presentation (docs/api.md §3.3), as create-vp answers it. */
export type VerifiablePresentation = schemas.VerifiablePresentationBody;
/** create-vc's userInfo: free key/value pairs (reserved claim names are refused with 400). */
export type UserInfo = InputOf<typeof schemas.userInfoSchema>;
/** create-vc request: `holder`, `issuer`, optional `userInfo`. */
export type CreateVcParams = Omit<schemas.CreateVcRequest, 'userInfo'> & { userInfo?: UserInfo };
/** verify-vc / verify-vp answer: `verified: true` with the details, or `verified: false` with `error`. */
export type VerificationResult = OutputOf<typeof schemas.verificationResultSchema>;
export type VerificationFailure = OutputOf<typeof schemas.verificationFailureSchema>;

/**
 * The `credentialStatus` create-vc puts in every VC (W3C Bitstring Status List v1.0 §2.1): the
 * VC's bit in a status list. `statusListCredential` is the list's public URL (it answers the list
 * credential as a compact JWT, or as this API's VC JSON with `Accept: application/json`); `id` is
 * `<statusListCredential>#<statusListIndex>`.
 */
export type CredentialStatusEntry = schemas.BitstringStatusListEntry;

/**
 * POST /v2/did/revoke-vc: the VC as create-vc answered it, or its compact JWT, or an SD-JWT VC as
 * OpenID4VCI issued it (`dc+sd-jwt`, docs/api.md §15) — exactly one of the three, which this union
 * says and the schema's optional members check at run time.
 */
export type RevokeVcRequest = { vc: VerifiableCredential } | { jwt: string } | SdJwtToRevoke;

/**
 * An SD-JWT VC to revoke (revokeVc's third form): the string the wallet received
 * (`<issuer-signed JWT>~<disclosure>~…~`), with or without its disclosures.
 */
export interface SdJwtToRevoke {
  sdJwt: string;
}

/** revoke-vc's answer; the same when the VC was revoked before. */
export type { RevokeVcResult } from '@itp/schemas';

/**
 * POST /v2/did/credential-offer (OpenID4VCI, docs/api.md §10, §15): `txCode` (default true) asks
 * for a numeric transaction code the user types into the wallet, `false` opts out (whoever scans
 * the offer first redeems it); `userInfo` the credential's profile claims; `format` the
 * credential the wallet receives: `jwt_vc_json` (the default, a W3C Profile VC) or `dc+sd-jwt`
 * (an SD-JWT VC for EU wallets, each profile claim selectively disclosable).
 */
export interface CredentialOfferParams {
  txCode?: boolean;
  userInfo?: UserInfo;
  format?: schemas.Oid4vciCredentialFormat;
}
/** credential-offer's answer: the `openid-credential-offer://` URI (a QR code), the tx_code. */
export type { CredentialOfferResult } from '@itp/schemas';

// ---- options -----------------------------------------------------------------------------------

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

export interface ClientOptions {
  /** The gateway, e.g. `http://127.0.0.1:8080` (paths /v2/auth, /v2/did, /token, /block are added). */
  baseUrl: string;
  /** fetch to use (default: the global one); inject for browsers, proxies or tests. */
  fetch?: FetchLike;
  /** Per-request timeout in milliseconds (default 30000); 0 = none. */
  timeoutMs?: number;
  /** Headers sent with every request (e.g. a tracing header). */
  headers?: Record<string, string>;
  /** Bearer JWT sent to the endpoints that take one (create-vc, create-vp, create-did binding). */
  token?: string;
  /**
   * Step-up (RFC 9470, docs/api.md §12): called when a request with a bearer JWT is refused with
   * `insufficient_user_authentication` (its login is older than the operation allows:
   * link-address, create-vc, create-did binding a DID, credential-offer). Log the user in again
   * and return the new JWT: the request is sent once more with it, and the client keeps it when
   * the refused JWT was the client's own. Return undefined to give up (the StepUpRequiredError
   * is thrown); what it throws is thrown. Without it, the StepUpRequiredError is thrown.
   */
  reauthenticate?: (challenge: StepUpRequiredError) => Promise<string | undefined>;
}

/** Per-call options. */
export interface CallOptions {
  signal?: AbortSignal;
  /** Overrides the client's timeoutMs for this call. */
  timeoutMs?: number;
  /** Overrides the client's bearer JWT for this call. */
  token?: string;
  headers?: Record<string, string>;
}

// ---- auth --------------------------------------------------------------------------------------

export interface PasswordLogin {
  id: string;
  password: string;
  /** A valid JWT of the same user to extend (its successor's `exp` is later). */
  token?: string;
}

export interface VpLogin {
  vp: VerifiablePresentation;
  /** Web-site login: the requestId the QR code shows (approves that request). */
  requestId?: string;
}

/**
 * An ethers v6 `Signer` (`Wallet`, `HDNodeWallet`, a browser wallet's `JsonRpcSigner`…), by its
 * shape: `getAddress()` and an EIP-191 `signMessage(message)`.
 */
export interface EthersLikeSigner {
  getAddress(): Promise<string>;
  signMessage(message: string): Promise<string>;
}

/**
 * A viem `LocalAccount` (`privateKeyToAccount`, `mnemonicToAccount`, `toAccount`…), by its shape:
 * `address` and an EIP-191 `signMessage({ message })`.
 */
export interface ViemLikeAccount {
  readonly address: string;
  signMessage(args: { message: string }): Promise<string>;
}

/**
 * What signs a Sign-In with Ethereum message: an ethers v6 `Signer` / `Wallet` (anything with
 * `getAddress()` is taken as one) or a viem `LocalAccount`. Both make the address's EIP-191
 * (`personal_sign`) signature the service checks. The SDK imports neither library.
 *
 *   await itp.auth.loginWithSiwe(new Wallet(privateKey));          // ethers
 *   await itp.auth.loginWithSiwe(privateKeyToAccount(privateKey)); // viem
 */
export type SiweSigner = EthersLikeSigner | ViemLikeAccount;

/** How the SDK builds a Sign-In with Ethereum message (EIP-4361). */
export interface SiweOptions {
  /**
   * The line the wallet shows above the fields (no line break). Default: `Sign in to <domain>`
   * (loginWithSiwe), `Link this address to your account on <domain>` (linkAddress).
   */
  statement?: string;
  /** Milliseconds the message stays valid (its Expiration Time; default 300000, 5 minutes). */
  expiresInMs?: number;
}

export interface ClientCredentials {
  clientId: string;
  clientSecret: string;
}

export interface StartLoginParams {
  /** The site identifier, e.g. `http://localhost:8080/login?` (must start with a registered prefix). */
  requestId: string;
  /** Seconds the request stays open (1..600, default 60). */
  waitTime?: number;
}

/** What waitForLogin reports before each wait. */
export interface LoginPoll {
  /** 1 for the first poll. */
  attempt: number;
  /** what the poll answered: still pending, slow_down (the interval grew), or a transient failure (network, 502/503/504) */
  outcome: 'pending' | 'slow_down' | 'unavailable';
  /** milliseconds until the next poll */
  nextPollInMs: number;
}

export interface WaitForLoginOptions {
  signal?: AbortSignal;
  /** Called after every poll that did not yet give the result. */
  onPoll?: (poll: LoginPoll) => void;
  /** Milliseconds between polls (default 1000, the service's LOGIN_POLL_MIN_INTERVAL_MS default). */
  intervalMs?: number;
  /** How much the interval grows on each `slow_down` (default 5000, RFC 8628 §3.5). */
  slowDownStepMs?: number;
  /** Give up (TimeoutError) after this many milliseconds (default: none; the service ends the request after its waitTime with a 400). */
  timeoutMs?: number;
}

/** presentationRequests.create: what the site asks a wallet for (docs/api.md §14). */
export interface PresentationRequestParams {
  /**
   * A DCQL query (OpenID4VP 1.0 §6): at most 10 credentials, each `dc+sd-jwt`
   * (`meta.vct_values`), `mso_mdoc` (`meta.doctype_value`) or `jwt_vc_json` (`meta.type_values`,
   * claim paths `["credentialSubject", …]`).
   */
  dcqlQuery: Record<string, unknown>;
  /** Why the site asks (kept with the request). */
  purpose?: string;
  /** Seconds the request stays open (1..600, default 300). */
  waitTime?: number;
}

/**
 * Presentation requests (docs/api.md §14): the site asks an EUDI (or any OpenID4VP 1.0) wallet
 * for credentials and gets back only the claims the user disclosed, already checked.
 */
export interface PresentationRequestsApi {
  /**
   * POST /v2/auth/presentation-requests: a new request; show `openid4vpUri` as a QR code or a
   * link. Throws BadRequestError for a DCQL query the service does not take (the message says
   * why), InvalidClientError for wrong client credentials.
   */
  create(
    params: PresentationRequestParams,
    options?: CallOptions,
  ): Promise<schemas.PresentationRequestCreated>;
  /**
   * POST /v2/auth/presentation-requests/result, once: `verified` (per credential query id, the
   * credentials with only the claims asked for), `declined` (the wallet's error) or `refused`
   * (the rule that failed). Throws PresentationPendingError (not yet: poll again),
   * SlowDownError (polled too fast), PresentationRequestUnknownError (unknown, expired, another
   * site's or already handed out).
   */
  result(requestId: string, options?: CallOptions): Promise<schemas.PresentationOutcome>;
}

/** The web-server side of QR login, authenticated with the relying party's client credentials. */
export interface RelyingPartyApi {
  /** auth-user-by-app: a new login request; show `requestId` as a QR code. */
  startLogin(
    params: StartLoginParams,
    options?: CallOptions,
  ): Promise<schemas.AuthUserByAppResponse>;
  /** cancel-auth-user-by-app. */
  cancelLogin(requestId: string, options?: CallOptions): Promise<void>;
  /**
   * auth-user-result-by-app, once: the login result, or LoginRequestPendingError (not yet),
   * LoginRequestUnknownError (gone), SlowDownError (polled too fast).
   */
  loginResult(requestId: string, options?: CallOptions): Promise<schemas.LoginResult>;
  /** Polls loginResult until the user approves, honouring the interval and slow_down. */
  waitForLogin(requestId: string, options?: WaitForLoginOptions): Promise<schemas.LoginResult>;
  /** Presentation requests of this site: credentials from a wallet (docs/api.md §14). */
  presentationRequests: PresentationRequestsApi;
}

/**
 * The caller's passkeys (WebAuthn, docs/api.md §13), with the bearer JWT. Adding and removing one
 * changes the ways into the account, so the JWT must come from a recent login (step-up: a
 * StepUpRequiredError, or the client's `reauthenticate`). The SDK runs no authenticator: a
 * browser makes the credential (`navigator.credentials.create`) from `registrationOptions()`.
 */
export interface PasskeysApi {
  /**
   * POST /v2/auth/passkeys/registration-options: the `PublicKeyCredentialCreationOptionsJSON` for
   * `navigator.credentials.create({ publicKey: PublicKeyCredential.parseCreationOptionsFromJSON(options) })`.
   */
  registrationOptions(options?: CallOptions): Promise<schemas.PasskeyRegistrationOptions>;
  /**
   * POST /v2/auth/passkeys: registers the new credential (`credential.toJSON()`) under `name`
   * (1–64 characters; default: the service's). Answers its id (the credential id), name and
   * creation time (ISO 8601). Throws PasskeyConflictError (409) when it is registered already
   * or the caller has the most passkeys allowed, BadRequestError (400) when it does not verify.
   */
  register(
    response: schemas.PasskeyRegistrationResponse,
    name?: string,
    options?: CallOptions,
  ): Promise<schemas.PasskeySummary>;
  /**
   * POST /v2/auth/passkeys/remove: the passkey no longer logs in. Throws PasskeyNotFoundError
   * (404) when the caller has no passkey with that id.
   */
  remove(id: string, options?: CallOptions): Promise<void>;
  /**
   * POST /v2/auth/passkeys/authentication-options (anonymous): the
   * `PublicKeyCredentialRequestOptionsJSON` for
   * `navigator.credentials.get({ publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(options) })`;
   * then `auth.loginWithPasskey(credential.toJSON())`.
   */
  authenticationOptions(options?: CallOptions): Promise<schemas.PasskeyAuthenticationOptions>;
}

export interface AuthApi {
  /** auth-user: id + password (optionally extending a token). */
  login(params: PasswordLogin, options?: CallOptions): Promise<schemas.LoginResult>;
  /** auth-user-with-vp: login with a VP; with `requestId` it also approves that web-site login. */
  loginWithVp(params: VpLogin, options?: CallOptions): Promise<schemas.LoginResult>;
  /** The phone side of QR login: approves `requestId` with a VP (auth-user-with-vp). */
  approveLogin(
    requestId: string,
    vp: VerifiablePresentation,
    options?: CallOptions,
  ): Promise<schemas.LoginResult>;
  /**
   * POST /v2/auth/siwe/nonce: a one-time nonce (5 minutes) and the domain, URI and chain id a
   * Sign-In with Ethereum message for this service must carry (for callers that build and sign
   * the message themselves, then call auth-user-with-siwe through `loginWithSiweMessage`).
   */
  siweNonce(options?: CallOptions): Promise<schemas.SiweNonceResponse>;
  /**
   * Sign-In with Ethereum (EIP-4361): fetches a nonce, builds the message for it (viem's
   * `createSiweMessage`: the nonce answer's domain, URI, chain id and nonce, the signer's
   * address, version 1, issued now, expiring in 5 minutes), has `signer` sign it and posts it to
   * auth-user-with-siwe. The address must be linked to a user (`linkAddress`). Throws
   * SiweRefusedError (401: the message says why, e.g. no user for the address) or
   * BadRequestError (400: malformed message).
   */
  loginWithSiwe(
    signer: SiweSigner,
    siwe?: SiweOptions,
    options?: CallOptions,
  ): Promise<schemas.LoginResult>;
  /**
   * auth-user-with-passkey: login with a passkey assertion (`credential.toJSON()` of
   * `navigator.credentials.get` for `passkeys.authenticationOptions()`). Throws
   * PasskeyRefusedError (401) when it is refused.
   */
  loginWithPasskey(
    response: schemas.PasskeyAuthenticationResponse,
    options?: CallOptions,
  ): Promise<schemas.LoginResult>;
  /** The caller's passkeys: registration options, register, remove; the login's options. */
  readonly passkeys: PasskeysApi;
  /** auth-user-with-siwe with a message signed elsewhere (a browser wallet, another library). */
  loginWithSiweMessage(
    signed: schemas.SiweSignedMessage,
    options?: CallOptions,
  ): Promise<schemas.LoginResult>;
  /**
   * link-address: links the signer's address to the user of the bearer JWT (the client's, from
   * `withToken`, or the call's `token`), proven by a Sign-In with Ethereum message it signs for a
   * fresh nonce. Without a token it throws UnauthorizedError before anything is signed; throws
   * AddressTakenError (409) when the address is linked to another user.
   */
  linkAddress(
    signer: SiweSigner,
    siwe?: SiweOptions,
    options?: CallOptions,
  ): Promise<schemas.LinkAddressResponse>;
  /**
   * unlink-address (bearer JWT): the address no longer logs in as the caller. Throws
   * AddressNotLinkedError (404) when it is not linked to the caller.
   */
  unlinkAddress(address: string, options?: CallOptions): Promise<schemas.UnlinkAddressResponse>;
  /** GET /v2/auth/.well-known/jwks.json: the public keys of the JWTs. */
  jwks(options?: CallOptions): Promise<schemas.AuthJwks>;
  /**
   * GET /v2/auth/account (bearer JWT): the caller's account and the ways in auth-service keeps —
   * linked Ethereum addresses, passkeys and the sites (OpenID Connect clients) holding a grant.
   * The credentials issued for the user: `did.credentials()`.
   */
  account(options?: CallOptions): Promise<AccountResponse>;
  /**
   * POST /v2/auth/logout-everywhere (bearer JWT): ends every platform JWT of the user — the one
   * that asks too — and every site's grant. Log in again afterwards.
   */
  logoutEverywhere(options?: CallOptions): Promise<void>;
  /**
   * POST /v2/auth/revoke-site (bearer JWT): ends the grants of the site `clientId` for the
   * caller (it must ask the user to log in again). Throws SiteGrantNotFoundError (404) when no
   * such site holds a grant.
   */
  revokeSite(clientId: string, options?: CallOptions): Promise<void>;
  /** The web-server side of QR login for one relying party. */
  relyingParty(credentials: ClientCredentials): RelyingPartyApi;
}

// ---- did ---------------------------------------------------------------------------------------

export interface DidApi {
  /** create-did (idempotent); with a bearer JWT it also binds the DID to that user. */
  createDid(params: schemas.CreateDidRequest, options?: CallOptions): Promise<schemas.DidRecord>;
  /** create-vc (bearer JWT of the user the holder DID is bound to). */
  createVc(params: CreateVcParams, options?: CallOptions): Promise<VerifiableCredential>;
  /**
   * verify-vc. A revoked VC answers `verified: false` with `error.code` "revoked"; one whose
   * status list cannot be read, "status_unavailable".
   */
  verifyVc(vc: VerifiableCredential, options?: CallOptions): Promise<VerificationResult>;
  /**
   * revoke-vc: revokes `credential` (the VC as createVc returned it, its compact JWT, or
   * `{ sdJwt }`: an SD-JWT VC as the wallet received it) for good; revoking it again answers the
   * same (for an SD-JWT VC: its token status list's `uri` and `idx`). Bearer JWT of the user the
   * VC was issued to. Throws BadRequestError (not a VC of this service, or one without a status
   * entry), UnauthorizedError (no or a bad token), ForbiddenError (another user's VC).
   */
  revokeVc(
    credential: VerifiableCredential | string | SdJwtToRevoke,
    options?: CallOptions,
  ): Promise<schemas.RevokeVcResult>;
  /** create-vp (bearer JWT of the user the holder DID is bound to). */
  createVp(params: schemas.CreateVpRequest, options?: CallOptions): Promise<VerifiablePresentation>;
  verifyVp(vp: VerifiablePresentation, options?: CallOptions): Promise<VerificationResult>;
  issuers(options?: CallOptions): Promise<schemas.ServiceDidEntry[]>;
  verifiers(options?: CallOptions): Promise<schemas.ServiceDidEntry[]>;
  /**
   * GET /v2/did/credentials (bearer JWT): the credentials issued for the caller (create-vc and
   * OpenID4VCI), newest first, each with its status (`valid` / `revoked`) and how it was issued.
   */
  credentials(options?: CallOptions): Promise<schemas.IssuedCredentialsResponse>;
  /**
   * credential-offer (OpenID4VCI 1.0, bearer JWT of the user): an offer any standard wallet
   * redeems once within 5 minutes, receiving the user's Profile VC bound to the wallet's own DID
   * (`format: 'dc+sd-jwt'`: an SD-JWT VC bound to the wallet's key, for EU wallets).
   */
  credentialOffer(
    params?: CredentialOfferParams,
    options?: CallOptions,
  ): Promise<schemas.CredentialOfferResult>;
}

// ---- token -------------------------------------------------------------------------------------

/** The answer of a transaction-creating method: `result.TransactionID` and `result.resultData`. */
export interface TransactionResult<T = string> {
  /** 0x transaction hash */
  transactionId: string;
  resultData: T;
}

export interface WaitForTransactionOptions {
  signal?: AbortSignal;
  /** Called after every status read that was not final yet. */
  onPoll?: (status: schemas.GetTransactionStatusResult, attempt: number) => void;
  /** Milliseconds between status reads (default 500). */
  intervalMs?: number;
  /** Give up (TimeoutError) after this many milliseconds (default 120000). */
  timeoutMs?: number;
}

/** A wallet address and its secretKey: the SDK does tempKey → hashKey → signData → method. */
export interface Wallet {
  readonly address: string;
  balance(options?: CallOptions): Promise<schemas.GetBalanceResult>;
  /** Native coin transfer of `amount` wei (decimal string). */
  transfer(
    params: { to: string; amount: string },
    options?: CallOptions,
  ): Promise<TransactionResult>;
  /** Deploys an ERC-20 token; `resultData` is the contract address. */
  createToken(
    params: Pick<schemas.CreateTokenParams, 'name' | 'symbol' | 'decimals' | 'initialSupply'>,
    options?: CallOptions,
  ): Promise<TransactionResult>;
  /** The ERC-20 token at `contract`, as this wallet. */
  erc20(contract: string): WalletErc20;
  /**
   * The authorisation of one transaction: a fresh tempKey for `keyType`, hashKey, and the
   * signature over SHA-256 of `fields|tempKey|hashKey` (fields in the method's order, as sent).
   */
  authorize(
    keyType: schemas.TempKeyType,
    fields: readonly string[],
    options?: CallOptions,
  ): Promise<{ tempKey: string; hashKey: string; signature: string }>;
}

export interface WalletErc20 {
  readonly contract: string;
  balance(options?: CallOptions): Promise<schemas.Erc20BalanceOfResult>;
  transfer(
    params: { to: string; amount: string },
    options?: CallOptions,
  ): Promise<TransactionResult>;
  /** Allows `spender` to spend `amount` of this wallet's tokens. */
  approve(
    params: { spender: string; amount: string },
    options?: CallOptions,
  ): Promise<TransactionResult>;
  /** Moves `amount` of `owner`'s tokens to `to`, within the allowance `owner` gave this wallet. */
  transferFrom(
    params: { owner: string; to: string; amount: string },
    options?: CallOptions,
  ): Promise<TransactionResult>;
}

/** A new wallet: its address and the mnemonic and secretKey shown only once. */
export interface CreatedWallet extends Wallet {
  readonly mnemonic: string;
  readonly secretKey: string;
}

export interface TokenApi {
  createAddress(options?: CallOptions): Promise<schemas.CreateAddressResult>;
  importAddress(
    params: schemas.ImportAddressParams,
    options?: CallOptions,
  ): Promise<schemas.ImportAddressResult>;
  getBalance(
    params: schemas.GetBalanceParams,
    options?: CallOptions,
  ): Promise<schemas.GetBalanceResult>;
  /** net_getTempKey */
  getTempKey(
    params: schemas.GetTempKeyParams,
    options?: CallOptions,
  ): Promise<schemas.GetTempKeyResult>;
  /** signData: the signature (0x + 130 hex digits). */
  signData(params: schemas.SignDataParams, options?: CallOptions): Promise<string>;
  transfer(params: schemas.TransferParams, options?: CallOptions): Promise<TransactionResult>;
  /** createToken; `resultData` is the contract address. */
  createToken(params: schemas.CreateTokenParams, options?: CallOptions): Promise<TransactionResult>;
  getTransactionStatus(
    params: { transactionId: string },
    options?: CallOptions,
  ): Promise<schemas.GetTransactionStatusResult>;
  /**
   * Waits until the transaction is final and returns its status record: final in the service's
   * record (getTransactionStatus: mined, failed, dropped) or in a block by its receipt (block API
   * getTransactionReceipt: then status, blockNumber and final come from the receipt), whichever
   * comes first.
   */
  waitForTransaction(
    transactionId: string,
    options?: WaitForTransactionOptions,
  ): Promise<schemas.GetTransactionStatusResult>;
  /** A wallet for an existing address and its secretKey. */
  wallet(credentials: { address: string; secretKey: string }): Wallet;
  /** createAddress, as a wallet. */
  createWallet(options?: CallOptions): Promise<CreatedWallet>;
  /** Any method of /token by name (`resultData` of the answer). */
  call<T = unknown>(method: string, params?: unknown, options?: CallOptions): Promise<T>;
}

export interface Erc20Api {
  name(
    params: schemas.Erc20ContractParams,
    options?: CallOptions,
  ): Promise<schemas.Erc20NameResult>;
  symbol(
    params: schemas.Erc20ContractParams,
    options?: CallOptions,
  ): Promise<schemas.Erc20SymbolResult>;
  decimals(
    params: schemas.Erc20ContractParams,
    options?: CallOptions,
  ): Promise<schemas.Erc20DecimalsResult>;
  totalSupply(
    params: schemas.Erc20ContractParams,
    options?: CallOptions,
  ): Promise<schemas.Erc20TotalSupplyResult>;
  balanceOf(
    params: schemas.Erc20BalanceOfParams,
    options?: CallOptions,
  ): Promise<schemas.Erc20BalanceOfResult>;
  allowance(
    params: schemas.Erc20AllowanceParams,
    options?: CallOptions,
  ): Promise<schemas.Erc20AllowanceResult>;
  transfer(params: schemas.Erc20TransferParams, options?: CallOptions): Promise<TransactionResult>;
  approve(params: schemas.Erc20ApproveParams, options?: CallOptions): Promise<TransactionResult>;
  transferFrom(
    params: schemas.Erc20TransferFromParams,
    options?: CallOptions,
  ): Promise<TransactionResult>;
  /** Any method of /token/erc20 by name (`resultData` of the answer). */
  call<T = unknown>(method: string, params?: unknown, options?: CallOptions): Promise<T>;
}

// ---- block -------------------------------------------------------------------------------------

export interface GetBlockOptions extends CallOptions {
  /** true: full transaction records; false (default): transaction hashes. */
  fullTransactions?: boolean;
}

export interface BlockApi {
  /** getBlock: `block` = number, 0x-hex number, tag or 0x block hash (default latest). */
  getBlock(
    block?: schemas.BlockSelectorParam,
    options?: GetBlockOptions,
  ): Promise<schemas.BlockRecord>;
  getBlockNumber(options?: CallOptions): Promise<schemas.GetBlockNumberResult>;
  getTransaction(hash: string, options?: CallOptions): Promise<schemas.TransactionRecord>;
  getTransactionReceipt(hash: string, options?: CallOptions): Promise<schemas.TransactionReceipt>;
  /** Transactions per UTC day, both ends inclusive (YYYY-MM-DD). */
  getTransactionStats(
    range: schemas.StatsRange,
    options?: CallOptions,
  ): Promise<schemas.GetTransactionStatsResult>;
  /** Any method of /block by name (`resultData` of the answer). */
  call<T = unknown>(method: string, params?: unknown, options?: CallOptions): Promise<T>;
}

// ---- the client --------------------------------------------------------------------------------

export interface ItpClient {
  readonly auth: AuthApi;
  readonly did: DidApi;
  readonly token: TokenApi;
  readonly erc20: Erc20Api;
  readonly block: BlockApi;
  /** The same client sending `token` as bearer JWT (e.g. after `auth.login`). */
  withToken(token: string | undefined): ItpClient;
}
