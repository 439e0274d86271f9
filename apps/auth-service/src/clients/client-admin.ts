import { randomBytes } from 'node:crypto';
import { ConflictError, NotFoundError } from '@itp/errors';
import { parseBody } from '@itp/service-kit';
import type { PasswordHasher } from '../passwords/password-hasher.js';
import {
  idTokenSigningAlgSchema,
  newClientFieldsSchema,
  redirectUrisFieldsSchema,
  requestIdPrefixesSchema,
  type NewClientFields,
  type RedirectUrisFields,
} from './client-fields.js';
import type { ClientSummary } from './client.js';
import type { ClientRepository } from './client-repository.js';

/** What an operator gives (validated here: a string from the CLI is checked, not trusted). */
export type AddClientFields = Omit<NewClientFields, 'secret' | 'idTokenSigningAlg'> & {
  secret?: string;
  idTokenSigningAlg?: string;
};

/** Operator operations on relying parties (CLI and the dev seed). */
export class ClientAdmin {
  constructor(
    private readonly clients: ClientRepository,
    private readonly hasher: PasswordHasher,
    private readonly clock: () => number = Date.now,
  ) {}

  /**
   * Adds an enabled client. Without `secret`, a random 256-bit secret is generated and returned
   * (the only time it is ever visible). ConflictError when the id exists (unless `ifAbsent`:
   * then `{ created: false }`).
   */
  async add(
    fields: AddClientFields,
    options: { ifAbsent?: boolean } = {},
  ): Promise<{ created: boolean; secret?: string }> {
    const generated = fields.secret === undefined;
    const secret = fields.secret ?? randomBytes(32).toString('base64url');
    const valid = parseBody(newClientFieldsSchema, { ...fields, secret });
    if (options.ifAbsent && (await this.clients.findById(valid.id))) return { created: false };
    const created = await this.clients.insertIfAbsent(
      {
        id: valid.id,
        name: valid.name ?? valid.id,
        secretHash: await this.hasher.hash(valid.secret),
        requestIdPrefixes: [...new Set(valid.requestIdPrefixes)],
        redirectUris: [...new Set(valid.redirectUris)],
        postLogoutRedirectUris: [...new Set(valid.postLogoutRedirectUris)],
        backchannelLogoutUri: valid.backchannelLogoutUri ?? null,
        idTokenSigningAlg: valid.idTokenSigningAlg,
      },
      this.clock(),
    );
    if (!created && !options.ifAbsent) throw new ConflictError(`Client ${valid.id} exists already`);
    return created && generated ? { created, secret } : { created };
  }

  async list(): Promise<ClientSummary[]> {
    const clients = await this.clients.list();
    return clients.map(({ secretHash: _hash, ...summary }) => summary);
  }

  async setEnabled(id: string, enabled: boolean): Promise<void> {
    if (!(await this.clients.setEnabled(id, enabled, this.clock()))) {
      throw new NotFoundError(`No client ${id}`);
    }
  }

  /**
   * Replaces a client's OpenID Connect URIs (redirect URIs matched exactly, post-logout redirect
   * URIs, the back-channel logout URI; docs/api.md §9).
   */
  async setRedirectUris(id: string, fields: RedirectUrisFields): Promise<void> {
    const valid = parseBody(redirectUrisFieldsSchema, fields);
    const changed = await this.clients.setRedirectUris(
      id,
      {
        redirectUris: [...new Set(valid.redirectUris)],
        postLogoutRedirectUris: [...new Set(valid.postLogoutRedirectUris)],
        backchannelLogoutUri: valid.backchannelLogoutUri ?? null,
      },
      this.clock(),
    );
    if (!changed) throw new NotFoundError(`No client ${id}`);
  }

  /**
   * How a client's id_tokens are signed: ES256 (default) or RS256 (the provider needs an RSA key
   * in JWT_SIGNING_KEYS for it; docs/api.md §9).
   */
  async setIdTokenSigningAlg(id: string, alg: string): Promise<void> {
    const valid = parseBody(idTokenSigningAlgSchema, alg);
    if (!(await this.clients.setIdTokenSigningAlg(id, valid, this.clock()))) {
      throw new NotFoundError(`No client ${id}`);
    }
  }

  /** Replaces a client's requestId prefixes (the dev seed: the demo client follows PORT). */
  async setRequestIdPrefixes(id: string, prefixes: string[]): Promise<void> {
    const valid = parseBody(requestIdPrefixesSchema, prefixes);
    const changed = await this.clients.setRequestIdPrefixes(id, [...new Set(valid)], this.clock());
    if (!changed) throw new NotFoundError(`No client ${id}`);
  }
}
