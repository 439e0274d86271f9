import { ConflictError, NotFoundError } from '@itp/errors';
import { parseBody } from '@itp/service-kit';
import type { PasswordHasher } from '../passwords/password-hasher.js';
import { newPasswordSchema, newUserFieldsSchema, type NewUserFields } from './user-fields.js';
import type { UserSummary } from './user.js';
import type { UserRepository } from './user-repository.js';

/** Operator operations on users (CLI and the dev seed). Passwords are hashed here, never stored. */
export class UserAdmin {
  constructor(
    private readonly users: UserRepository,
    private readonly hasher: PasswordHasher,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Adds an enabled user. ConflictError when the id exists (unless `ifAbsent`: then false). */
  async add(fields: NewUserFields, options: { ifAbsent?: boolean } = {}): Promise<boolean> {
    const valid = parseBody(newUserFieldsSchema, fields);
    if (options.ifAbsent && (await this.users.findById(valid.id))) return false;
    const passwordHash = await this.hasher.hash(valid.password);
    const inserted = await this.users.insertIfAbsent(
      { id: valid.id, name: valid.name, email: valid.email, telNo: valid.telNo, passwordHash },
      this.clock(),
    );
    if (!inserted && !options.ifAbsent) throw new ConflictError(`User ${valid.id} exists already`);
    return inserted;
  }

  async list(): Promise<UserSummary[]> {
    const users = await this.users.list();
    return users.map(({ passwordHash: _hash, ...summary }) => summary);
  }

  async setEnabled(id: string, enabled: boolean): Promise<void> {
    if (!(await this.users.setEnabled(id, enabled, this.clock()))) {
      throw new NotFoundError(`No user ${id}`);
    }
  }

  async resetPassword(id: string, password: string): Promise<void> {
    const valid = parseBody(newPasswordSchema, password);
    const passwordHash = await this.hasher.hash(valid);
    if (!(await this.users.setPasswordHash(id, passwordHash, this.clock()))) {
      throw new NotFoundError(`No user ${id}`);
    }
  }
}
