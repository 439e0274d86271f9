import { SigningKey, getAddress } from 'ethers';
import { DEV_CHAIN } from '@itp/dev-chain/constants';
import { DecryptionError, constantTimeEqual, sha256Hex } from '@itp/crypto';
import { InternalError } from '@itp/errors';
import type { TransactionOutcome } from '@itp/jsonrpc';
import type {
  CreateAddressResult,
  ImportAddressResult,
  TempKeyType,
  WalletRegisterDidResponse,
  WalletSignJwsResponse,
} from '@itp/schemas';
import type { Logger } from '@itp/service-kit';
import { hashKeyMatches } from '../auth/hash-key.js';
import { requestFingerprint } from '../auth/request-fingerprint.js';
import { signingHash, type SigningString } from '../auth/signing-string.js';
import { TempKeyRequests, type SentForTempKey } from '../auth/temp-key-requests.js';
import type { RequestKey } from '../transactions/transaction-log.js';
import type { TempKeyBinding, TempKeyStore } from '../auth/temp-key-store.js';
import {
  BadHashKeyError,
  BadSignatureError,
  DidNotRegisteredError,
  PublicDevAccountError,
  TempKeyRejectedError,
  UnknownAddressError,
  WrongSecretError,
} from '../errors.js';
import type { KeyCustody } from './key-custody.js';
import { checkJwsSigningInput, signJwsInput } from './jws-signing.js';
import { recoverEip191, signHashEip191 } from './signatures.js';
import {
  deriveWalletKey,
  generateMnemonic,
  generateSecretKey,
  normalizeMnemonic,
} from './wallet-keys.js';
import type { WalletRecord, WalletRepository } from './wallet-repository.js';

/** A wallet address whose request passed every check: its key, ready to sign one transaction. */
export interface AuthorizedWallet {
  address: string;
  /** ethers keeps the private key in a private field: logging this object does not reveal it. */
  signingKey: SigningKey;
  /** The tempKey request it was authorised for: recorded with the transaction (retries). */
  requestKey?: RequestKey;
}

/** What a transaction-creating request presents (docs/api.md §4). */
export interface TransactionCredentials {
  from: string;
  keyType: TempKeyType;
  tempKey: string;
  hashKey: string;
  signature: string;
  /** The method's signing string, built from the fields as sent. */
  signing: SigningString;
}

/** A transaction request: its credentials and what identifies it for identical retries. */
export interface TransactionRequest extends TransactionCredentials {
  /** The transaction kind (e.g. `transfer`, `erc20.approve`). */
  method: string;
  /** Every param as validated (fields exactly as sent): with `method`, the request's fingerprint. */
  params: Readonly<Record<string, unknown>>;
}

export interface WalletServiceOptions {
  repository: WalletRepository;
  custody: KeyCustody;
  tempKeys: TempKeyStore;
  logger: Logger;
  /** Dev mode: funds a new address once it is stored (docs/api.md §1). */
  fundNewAddress?: (address: string) => Promise<void>;
  /** How long an identical retry waits for the first request's answer (default 10 s). */
  retryWaitMs?: number;
  /**
   * The durable identical-retry answers (the transaction log): when Redis lost a tempKey, an
   * identical retry still gets its TransactionID (docs/api.md §4.2).
   */
  sentTransactions?: SentForTempKey;
  now?: () => number;
}

/** Compared against when an address is unknown, so both answers take the same path. */
const DUMMY_SECRET = '0'.repeat(64);

/** The dev chain's public mnemonic (anvil/hardhat): its keys are known to everyone. */
const PUBLIC_DEV_MNEMONIC = normalizeMnemonic(DEV_CHAIN.mnemonic);

/**
 * The server wallet: creates and imports addresses, issues tempKeys, checks hashKeys and
 * signatures, and signs with the stored keys. Secrets are opened only for the call that needs
 * them and never logged or returned (except the new secretKey/mnemonic to the caller who made it).
 */
export class WalletService {
  private readonly now: () => number;
  private readonly requests: TempKeyRequests;

  constructor(private readonly options: WalletServiceOptions) {
    this.now = options.now ?? Date.now;
    this.requests = new TempKeyRequests({
      tempKeys: options.tempKeys,
      logger: options.logger,
      waitMs: options.retryWaitMs ?? 10_000,
      sent: options.sentTransactions,
    });
  }

  /**
   * A new address: stored (sealed) first, then — dev mode — funded, so that coin never goes to an
   * address the wallet failed to store. When the funding fails (DevFundingError, "503") the
   * address is removed again: it was never handed out (no secretKey left this service), so no
   * half wallet remains — no row, nothing register-did could find. Coin of a funding that was
   * sent but not seen mined may still reach it: test coin of the dev chain, lost.
   */
  async createAddress(): Promise<CreateAddressResult> {
    const mnemonic = generateMnemonic();
    const key = deriveWalletKey(mnemonic);
    const secretKey = generateSecretKey();
    const now = this.now();
    const sealed = this.options.custody.seal(key.address, {
      privateKey: key.privateKey,
      mnemonic,
      secretKey,
    });
    await this.options.repository.upsert({
      address: key.address,
      ...sealed,
      createdAt: now,
      updatedAt: now,
    });
    this.options.logger.info({ address: key.address }, 'wallet address created');
    if (this.options.fundNewAddress) {
      try {
        await this.options.fundNewAddress(key.address);
      } catch (err) {
        await this.forgetUnfunded(key.address, sealed.secretKeySealed);
        throw err;
      }
    }
    return { address: key.address, mnemonic, secretKey };
  }

  /** Best effort: a row left behind holds a secretKey nobody was given (unusable, never listed). */
  private async forgetUnfunded(address: string, secretKeySealed: string): Promise<void> {
    try {
      await this.options.repository.removeNew(address, secretKeySealed);
      this.options.logger.info({ address }, 'wallet address removed: its dev funding failed');
    } catch (err) {
      this.options.logger.warn(
        { address, err },
        'could not remove the wallet address whose dev funding failed (its secretKey was never handed out)',
      );
    }
  }

  /**
   * Restores the address of a mnemonic with a NEW secretKey; the old one stops working at once.
   * The dev chain's public mnemonic is refused in every mode (PublicDevAccountError, "403").
   */
  async importAddress(phrase: string): Promise<ImportAddressResult> {
    const key = deriveWalletKey(phrase);
    const mnemonic = normalizeMnemonic(phrase);
    if (mnemonic === PUBLIC_DEV_MNEMONIC || key.address === DEV_CHAIN.devOnlyAccount0.address) {
      throw new PublicDevAccountError();
    }
    const secretKey = generateSecretKey();
    const now = this.now();
    await this.options.repository.upsert({
      address: key.address,
      ...this.options.custody.seal(key.address, {
        privateKey: key.privateKey,
        mnemonic,
        secretKey,
      }),
      createdAt: now,
      updatedAt: now,
    });
    this.options.logger.info({ address: key.address }, 'wallet address imported');
    return { address: key.address, secretKey };
  }

  async issueTempKey(address: string, keyType: TempKeyType): Promise<{ tempKey: string }> {
    const record = await this.load(address);
    const tempKey = await this.options.tempKeys.issue({ address: record.address, keyType });
    return { tempKey };
  }

  /**
   * signData: checks that the tempKey is live and bound to `from` and that hashKey matches, then
   * signs the 32-byte hash (EIP-191). The tempKey is not consumed.
   */
  async signData(p: {
    from: string;
    hash: string;
    tempKey: string;
    hashKey: string;
  }): Promise<string> {
    const record = await this.load(p.from);
    const binding = await this.options.tempKeys.peek(p.tempKey);
    this.checkBinding(binding, record.address);
    this.checkHashKey(record, p.tempKey, p.hashKey);
    return signHashEip191(this.signingKeyOf(record), p.hash);
  }

  /**
   * Authorises a transaction-creating request and runs `send` with the wallet's key, once per
   * tempKey (docs/api.md §4). The checks, in this order: the tempKey is claimed first (whatever
   * follows, it is used), then it must be bound to `from` and the keyType, the address must be in
   * the wallet, the hashKey must match its secretKey and the signature over the signing string's
   * hash must recover `from`. An identical retry (same tempKey, same params and signature) is not
   * run again: it gets the first request's answer (the same TransactionID, or the same error).
   */
  authorizeTransaction(
    request: TransactionRequest,
    send: (wallet: AuthorizedWallet) => Promise<TransactionOutcome<string>>,
  ): Promise<TransactionOutcome<string>> {
    const fingerprint = requestFingerprint(request.method, request.params);
    return this.requests.runOnce(request.tempKey, fingerprint, async (binding) =>
      send({
        ...(await this.checkTransaction(binding, request)),
        requestKey: { tempKeyHash: sha256Hex(request.tempKey), fingerprint },
      }),
    );
  }

  private async checkTransaction(
    binding: TempKeyBinding,
    c: TransactionCredentials,
  ): Promise<AuthorizedWallet> {
    const address = getAddress(c.from);
    this.checkBinding(binding, address, c.keyType);
    const record = await this.load(address);
    this.checkHashKey(record, c.tempKey, c.hashKey);
    const recovered = recoverEip191(signingHash(c.signing), c.signature);
    if (recovered !== record.address) throw new BadSignatureError(c.signing.template);
    return { address: record.address, signingKey: this.signingKeyOf(record) };
  }

  /**
   * Internal API (did-service's create-did): address + secretKey → the public key (one answer for
   * an unknown address and a wrong secretKey), and on success the address is marked as registered
   * for a DID: from then on sign-jws signs for it.
   */
  async registerDid(address: string, secretKey: string): Promise<WalletRegisterDidResponse> {
    const record = await this.checkSecret(address, secretKey);
    const answer = { address: record.address, publicKeyHex: this.signingKeyOf(record).publicKey };
    if (record.didRegisteredAt === null) {
      await this.options.repository.markDidRegistered(record.address, this.now());
      this.options.logger.info({ address: record.address }, 'wallet address registered for a DID');
    }
    return answer;
  }

  /**
   * Internal API: signs a JWS signing input for the DID of a registered address, and nothing
   * else. Checks, in order: the input is an ES256K / ES256K-R JWS whose payload's iss is
   * did:ethr:<address> (400), the address is in the wallet (404) and registered for a DID (403).
   */
  async signJws(address: string, signingInput: string): Promise<WalletSignJwsResponse> {
    const alg = checkJwsSigningInput(signingInput, address);
    const record = await this.load(address);
    if (record.didRegisteredAt === null) throw new DidNotRegisteredError(record.address);
    return signJwsInput(this.signingKeyOf(record), signingInput, alg);
  }

  private checkBinding(
    binding: TempKeyBinding | null,
    address: string,
    keyType?: TempKeyType,
  ): asserts binding is TempKeyBinding {
    if (!binding) {
      throw new TempKeyRejectedError(
        'tempKey is unknown, expired or already used: get a new one with net_getTempKey',
      );
    }
    if (binding.address !== address) {
      throw new TempKeyRejectedError('tempKey was issued for another address');
    }
    if (keyType !== undefined && binding.keyType !== keyType) {
      throw new TempKeyRejectedError(
        `tempKey was issued for keyType "${binding.keyType}", this method needs "${keyType}"`,
      );
    }
  }

  /** The record of a matching address + secretKey; one answer (401) for unknown and wrong. */
  private async checkSecret(address: string, secretKey: string): Promise<WalletRecord> {
    const record = await this.options.repository.find(getAddress(address));
    const stored = record ? this.openSecretKey(record) : DUMMY_SECRET;
    const matches = constantTimeEqual(secretKey, stored);
    if (!record || !matches) throw new WrongSecretError();
    return record;
  }

  private checkHashKey(record: WalletRecord, tempKey: string, hashKey: string): void {
    if (!hashKeyMatches(hashKey, tempKey, this.openSecretKey(record))) throw new BadHashKeyError();
  }

  private async load(address: string): Promise<WalletRecord> {
    const checksummed = getAddress(address);
    const record = await this.options.repository.find(checksummed);
    if (!record) throw new UnknownAddressError(checksummed);
    await this.resealIfRotated(record);
    return record;
  }

  /** After a master key rotation, re-seals a record under the current key (best effort). */
  private async resealIfRotated(record: WalletRecord): Promise<void> {
    const { custody, repository, logger } = this.options;
    if (!custody.needsRotation(record)) return;
    try {
      const next = custody.seal(
        record.address,
        this.opened(() => custody.open(record.address, record)),
      );
      if (await repository.replaceSealed(record.address, record, next)) {
        logger.info(
          { address: record.address },
          'wallet secrets re-sealed under the current master key',
        );
      }
    } catch (err) {
      logger.warn({ address: record.address, err }, 'could not re-seal wallet secrets');
    }
  }

  private signingKeyOf(record: WalletRecord): SigningKey {
    return new SigningKey(
      this.opened(() => this.options.custody.openPrivateKey(record.address, record)),
    );
  }

  private openSecretKey(record: WalletRecord): string {
    return this.opened(() => this.options.custody.openSecretKey(record.address, record));
  }

  private opened<T>(open: () => T): T {
    try {
      return open();
    } catch (err) {
      if (err instanceof DecryptionError) {
        // The message names no secret: the key id at most.
        throw new InternalError(
          `wallet secrets cannot be decrypted: ${err.message} (check WALLET_MASTER_KEY)`,
        );
      }
      throw err;
    }
  }
}
