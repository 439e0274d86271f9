import { ConflictError, NotFoundError } from '@itp/errors';
import { nextTokensValidAfter } from '@itp/auth-jwt';
import { parseBody } from '@itp/service-kit';
import type { CredentialRevocationOutbox } from '../account/credential-revocations.js';
import type { LoginHistory, Amr } from '../login/login-history.js';
import type { PasskeyRepository } from '../passkeys/passkey-repository.js';
import type { PasswordHasher } from '../passwords/password-hasher.js';
import type { LinkedAddresses } from '../siwe/linked-addresses.js';
import { newPasswordSchema, newUserFieldsSchema, type NewUserFields } from './user-fields.js';
import type { UserSummary } from './user.js';
import type { UserRepository } from './user-repository.js';

/** What the operator's account tools reach besides the users (all SQL: the CLI has no Redis). */
export interface UserAdminDeps {
  users: UserRepository;
  hasher: PasswordHasher;
  /** The Ethereum addresses linked to users (a reset unlinks them). */
  addresses?: LinkedAddresses;
  /** Where a reset asks did-service to revoke the user's credentials. */
  revocations?: CredentialRevocationOutbox;
  /** The users' passkeys (a reset removes them unless keepKeys; docs/api.md §13). */
  passkeys?: Pick<PasskeyRepository, 'listByUser' | 'removeAllOf'>;
  history?: LoginHistory;
  clock?: () => number;
}

/** What a password reset ended and what it kept (printed for the operator's review). */
export interface ResetOutcome {
  /** Addresses unlinked by the reset (none with keepKeys). */
  unlinked: string[];
  /** Addresses still linked (keepKeys): review them with the user. */
  keptAddresses: string[];
  /** Whether did-service was asked to revoke the user's credentials. */
  credentialsRevoked: boolean;
  /** Passkeys removed by the reset (none with keepKeys). */
  removedPasskeys: number;
  /** The names of the passkeys kept (keepKeys): review them with the user. */
  keptPasskeys: string[];
}

/** The account as the operator's `users show` prints it (docs/api.md §12). */
export interface UserDetails extends UserSummary {
  linkedAddresses: Array<{ address: string; linkedAt: number }>;
  passkeys: Array<{ id: string; name: string; createdAt: number; lastUsedAt: number | null }>;
  lastLogins: Partial<Record<Amr, number>>;
}

/**
 * Operator operations on users (CLI and the dev seed). Passwords are hashed here, never stored.
 * A reset is a clean slate (docs/api.md §12): the token epoch moves (every platform JWT and
 * OpenID Connect session from before it ends; a web-site login approved before it is not handed
 * out; an open credential offer is not redeemed), and unless `keepKeys` the key epoch moves too
 * (credentials issued before it no longer log in), every linked address is unlinked, every
 * passkey removed, and did-service is asked to revoke every credential issued for the user.
 */
export class UserAdmin {
  private readonly clock: () => number;

  constructor(private readonly deps: UserAdminDeps) {
    this.clock = deps.clock ?? Date.now;
  }

  /** Adds an enabled user. ConflictError when the id exists (unless `ifAbsent`: then false). */
  async add(fields: NewUserFields, options: { ifAbsent?: boolean } = {}): Promise<boolean> {
    const { users, hasher } = this.deps;
    const valid = parseBody(newUserFieldsSchema, fields);
    if (options.ifAbsent && (await users.findById(valid.id))) return false;
    const passwordHash = await hasher.hash(valid.password);
    const inserted = await users.insertIfAbsent(
      { id: valid.id, name: valid.name, email: valid.email, telNo: valid.telNo, passwordHash },
      this.clock(),
    );
    if (!inserted && !options.ifAbsent) throw new ConflictError(`User ${valid.id} exists already`);
    return inserted;
  }

  async list(): Promise<UserSummary[]> {
    const users = await this.deps.users.list();
    return users.map(({ passwordHash: _hash, ...summary }) => summary);
  }

  /** The user with the ways in auth-service keeps, and the last login per method. */
  async show(id: string): Promise<UserDetails> {
    const user = await this.deps.users.findById(id);
    if (!user) throw new NotFoundError(`No user ${id}`);
    const { passwordHash: _hash, ...summary } = user;
    const [linkedAddresses, lastLogins, passkeys] = await Promise.all([
      this.deps.addresses?.linksOf(id) ?? [],
      this.deps.history?.lastLogins(id) ?? {},
      this.deps.passkeys?.listByUser(id) ?? [],
    ]);
    return {
      ...summary,
      linkedAddresses,
      passkeys: passkeys.map(({ id: passkeyId, name, createdAt, lastUsedAt }) => ({
        id: passkeyId,
        name,
        createdAt,
        lastUsedAt,
      })),
      lastLogins,
    };
  }

  /** Enables or disables; a disable ends every platform JWT of the user (the token epoch). */
  async setEnabled(id: string, enabled: boolean): Promise<void> {
    if (!(await this.deps.users.setEnabled(id, enabled, this.clock()))) {
      throw new NotFoundError(`No user ${id}`);
    }
  }

  async resetPassword(
    id: string,
    password: string,
    options: { keepKeys?: boolean } = {},
  ): Promise<ResetOutcome> {
    const { users, hasher, addresses, revocations, passkeys } = this.deps;
    const valid = parseBody(newPasswordSchema, password);
    const passwordHash = await hasher.hash(valid);
    const now = this.clock();
    const keepKeys = options.keepKeys === true;
    if (!(await users.setPasswordHash(id, passwordHash, { now, endKeys: !keepKeys }))) {
      throw new NotFoundError(`No user ${id}`);
    }
    if (keepKeys) {
      return {
        unlinked: [],
        keptAddresses: (await addresses?.addressesOf(id)) ?? [],
        credentialsRevoked: false,
        removedPasskeys: 0,
        keptPasskeys: ((await passkeys?.listByUser(id)) ?? []).map((p) => p.name),
      };
    }
    const unlinked = (await addresses?.unlinkAll(id)) ?? [];
    const removedPasskeys = (await passkeys?.removeAllOf(id)) ?? 0;
    await revocations?.request({ userId: id, issuedBefore: nextTokensValidAfter(now) }, now);
    return {
      unlinked,
      keptAddresses: [],
      credentialsRevoked: revocations !== undefined,
      removedPasskeys,
      keptPasskeys: [],
    };
  }
}
