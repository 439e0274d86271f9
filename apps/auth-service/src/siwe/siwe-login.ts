import { UnauthorizedError } from '@itp/errors';
import type {
  LinkAddressResponse,
  LoginResult,
  SiweNonceResponse,
  UnlinkAddressResponse,
} from '@itp/schemas';
import { getAddress, type Hex } from 'viem';
import {
  AddressNotLinkedError,
  AddressTakenError,
  SiweMalformedError,
  SiweRefusedError,
} from '../errors.js';
import { attemptLogin, countedAttempt } from '../login/attempt-login.js';
import type { Authenticated, FailureLimit, LoginMethod } from '../login/login-method.js';
import type { LoginResults } from '../login/login-results.js';
import { clientGroup } from '@itp/service-kit';
import type { FailureCounter } from '../rate-limit/failure-counter.js';
import type { User } from '../users/user.js';
import type { UserRepository } from '../users/user-repository.js';
import { checkSiweFields, checkSiweOrigin, type SiweExpectations } from './check-siwe-fields.js';
import type { LinkedAddresses } from './linked-addresses.js';
import { parseSiweMessage, type SiweFields } from './parse-siwe-message.js';
import type { SiweNonces } from './siwe-nonces.js';
import type { SiweSignatureVerifier } from './siwe-signature-verifier.js';

export interface SiweLoginDeps {
  nonces: SiweNonces;
  verifier: SiweSignatureVerifier;
  addresses: LinkedAddresses;
  users: UserRepository;
  loginResults: LoginResults;
  /**
   * SIWE's own per-client-address failure counter (`siwe-ip`, SIWE_MAX_FAILURES_PER_IP): refused
   * messages never count on password login's (`login-ip`), so a burst of bad signatures from one
   * tab behind a shared address (NAT, office) leaves password and OIDC logins from it alone.
   */
  failuresPerIp: FailureCounter;
  /**
   * Failures per (account, client address) (`siwe-id-ip`, LOGIN_MAX_FAILURES_PER_ID) when the
   * account is known: the message's address is linked (login), or the caller (link-address).
   * None: not counted.
   */
  failuresPerAccount?: FailureCounter | undefined;
  /** Nonces issued per client IP and window (each one is a Redis key for five minutes); none: no limit. */
  noncesPerIp?: FailureCounter | undefined;
  /**
   * Signature checks that need the chain (smart accounts: an eth_call each) per client IP and
   * window (SIWE_CONTRACT_CHECKS_PER_IP_PER_MINUTE); key signatures never count. None: no limit.
   */
  contractChecksPerIp?: FailureCounter | undefined;
}

/** A signed Sign-In with Ethereum message, from a client address. */
export interface SiweSignedIn {
  message: string;
  signature: Hex;
  clientIp: string;
}

export interface SiweLoginOptions {
  expected: SiweExpectations;
  clock?: () => number;
}

/** A message failureLimits parsed, and the user its address is linked to (undefined: none). */
interface SeenMessage {
  fields: SiweFields;
  account: string | undefined;
}

/** The one answer for an address that logs nobody in: unlinked, or its user disabled. */
export const NO_USER_FOR_ADDRESS =
  'No active user is linked to this address; log in another way and link it (POST /v2/auth/link-address)';

/**
 * Sign-In with Ethereum (EIP-4361, docs/api.md §11). A message is accepted when it parses by the
 * EIP-4361 grammar (else 400), names this service's domain, URI and chain and is within its
 * time fields, carries a nonce this service issued and nobody used, and is signed by its address
 * (a key's ECDSA signature, or a smart account's through the chain); the nonce is then used up.
 * Every refusal is a 401 saying why and counts as a SIWE failure of the client's address (SIWE's
 * own limit, not password login's) and, when the account is known, of that account from that
 * address.
 */
export class SiweLogin implements LoginMethod<SiweSignedIn, Authenticated & { user: User }> {
  readonly id = 'siwe';
  readonly amr = 'siwe';
  private readonly clock: () => number;
  /** Per attempt (its input object): the parsed message and its account, from failureLimits. */
  private readonly seen = new WeakMap<SiweSignedIn, SeenMessage>();

  constructor(
    private readonly deps: SiweLoginDeps,
    private readonly options: SiweLoginOptions,
  ) {
    this.clock = options.clock ?? Date.now;
  }

  /** POST /siwe/nonce: a fresh nonce and what the message must carry. */
  async nonce(clientIp: string): Promise<SiweNonceResponse> {
    await this.deps.noncesPerIp?.take(clientGroup(clientIp));
    const nonce = await this.deps.nonces.issue();
    const { domain, uri, chainId } = this.options.expected;
    return { nonce, domain, uri, chainId };
  }

  /** auth-user-with-siwe: the login result of the address's user. */
  async login(message: string, signature: Hex, clientIp: string): Promise<LoginResult> {
    const login = await attemptLogin(this, { message, signature, clientIp });
    return this.deps.loginResults.complete(login);
  }

  /**
   * SIWE's per-client-address limit and, when the message's address is linked, its
   * per-(account, client address) limit (a malformed message counts per client address only).
   */
  async failureLimits(input: SiweSignedIn): Promise<readonly FailureLimit[]> {
    return this.limits(input.clientIp, await this.linkedAccountOf(input));
  }

  /** A refusal (401) and a malformed message (400) both count as SIWE failures. */
  isFailure(err: unknown): boolean {
    return err instanceof UnauthorizedError || err instanceof SiweMalformedError;
  }

  /**
   * The user a signed message logs in (enabled), without issuing a token (run by attemptLogin
   * under failureLimits): the OpenID Connect login page uses it too.
   */
  async authenticate(input: SiweSignedIn): Promise<Authenticated & { user: User }> {
    // What failureLimits read of this attempt (attemptLogin hands both the same input): the
    // message parsed once and its address's account looked up once (docs/adr/0032).
    const seen = this.seen.get(input);
    const address = await this.verifyParsed(input.message, input.signature, input.clientIp, seen);
    const userId = seen ? seen.account : await this.deps.addresses.userOf(address);
    const user = userId === undefined ? undefined : await this.deps.users.findById(userId);
    if (!user || !user.enabled) {
      throw new SiweRefusedError(NO_USER_FOR_ADDRESS, {
        details: { reason: !user ? 'address not linked' : 'user disabled', address },
      });
    }
    return { user, userId: user.id, amr: 'siwe' };
  }

  /** link-address: links the message's address to `userId` (the caller). */
  async link(
    userId: string,
    message: string,
    signature: Hex,
    clientIp: string,
  ): Promise<LinkAddressResponse> {
    const address = await countedAttempt(
      this.limits(clientIp, userId),
      () => this.verifyMessage(message, signature, clientIp),
      (err) => this.isFailure(err),
    );
    const outcome = await this.deps.addresses.link(address, userId, this.clock());
    if (outcome === 'taken') throw new AddressTakenError();
    return { address, userId };
  }

  /** unlink-address: removes the caller's link of `address`. */
  async unlink(userId: string, address: string): Promise<UnlinkAddressResponse> {
    const checksummed = getAddress(address.toLowerCase());
    if (!(await this.deps.addresses.unlink(checksummed, userId))) throw new AddressNotLinkedError();
    return { address: checksummed, userId };
  }

  /**
   * The message's address (EIP-55) when every rule holds; the nonce is then used up. A signature
   * that needs the chain counts against `clientIp`'s limit of those checks (429 over it).
   */
  async verifyMessage(message: string, signature: Hex, clientIp: string): Promise<Hex> {
    return this.verifyParsed(message, signature, clientIp, undefined);
  }

  /** verifyMessage, with the message's fields when they were parsed already (`seen`). */
  private async verifyParsed(
    message: string,
    signature: Hex,
    clientIp: string,
    seen: SeenMessage | undefined,
  ): Promise<Hex> {
    checkSiweOrigin(message, this.options.expected);
    const fields = seen?.fields ?? parseSiweMessage(message);
    checkSiweFields(fields, this.options.expected, this.clock());
    // Checked before the signature (which may cost a chain call), used up after it: a message
    // whose signature fails leaves its nonce to the rightful signer.
    if (!(await this.deps.nonces.isOpen(fields.nonce))) throw nonceRefused();
    if (!(await this.signedBy(fields.address, message, signature, clientIp))) {
      throw new SiweRefusedError(
        `The signature is not ${fields.address}'s signature of the message`,
      );
    }
    if (!(await this.deps.nonces.use(fields.nonce))) throw nonceRefused();
    return fields.address;
  }

  /**
   * Whether `address` signed `message`: its key's ECDSA signature, checked here; else a smart
   * account's, asked of the chain — an eth_call a caller can make as costly as the gas cap allows
   * (an ERC-6492 factory of its choosing), so each one counts against the caller's address first.
   */
  private async signedBy(
    address: Hex,
    message: string,
    signature: Hex,
    clientIp: string,
  ): Promise<boolean> {
    const { verifier, contractChecksPerIp } = this.deps;
    if (await verifier.isKeySignature(address, message, signature)) return true;
    await contractChecksPerIp?.take(clientGroup(clientIp));
    return verifier.verifyOnChain(address, message, signature);
  }

  /**
   * The user the message's address is linked to, when the message parses (else undefined: its
   * refusal counts per client address only).
   */
  private async linkedAccountOf(input: SiweSignedIn): Promise<string | undefined> {
    let fields: SiweFields;
    try {
      fields = parseSiweMessage(input.message);
    } catch {
      return undefined;
    }
    const account = await this.deps.addresses.userOf(fields.address);
    this.seen.set(input, { fields, account });
    return account;
  }

  /**
   * SIWE's per-client-address failure limit and, when `account` is known, its per-(account,
   * client address) limit, which a success clears (as password login's).
   */
  private limits(clientIp: string, account: string | undefined): FailureLimit[] {
    const { failuresPerIp, failuresPerAccount } = this.deps;
    const client = clientGroup(clientIp);
    return [
      { counter: failuresPerIp, subject: client },
      ...(account === undefined || !failuresPerAccount
        ? []
        : [
            {
              counter: failuresPerAccount,
              subject: `${account}\u0000${client}`,
              resetOnSuccess: true,
            },
          ]),
    ];
  }
}

function nonceRefused(): SiweRefusedError {
  return new SiweRefusedError(
    'The nonce was not issued by this service, has expired (5 minutes) or was used; ask POST /v2/auth/siwe/nonce for a new one',
  );
}
