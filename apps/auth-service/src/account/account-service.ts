import type { AccountResponse, PasskeySummary } from '@itp/schemas';
import type { ClientRepository } from '../clients/client-repository.js';
import { NoSiteGrantError } from '../errors.js';
import type { OidcAccountGrants } from '../oidc/account-grants.js';
import type { LinkedAddresses } from '../siwe/linked-addresses.js';
import type { User } from '../users/user.js';
import type { UserRepository } from '../users/user-repository.js';

export interface AccountServiceDeps {
  users: UserRepository;
  addresses: LinkedAddresses;
  grants: OidcAccountGrants;
  clients: ClientRepository;
  /** The user's passkeys (docs/api.md §13); absent: none listed. */
  passkeys?: { list(userId: string): Promise<PasskeySummary[]> };
  clock?: () => number;
}

/**
 * The user's own view of the account's ways in, and ending them (docs/api.md §12): linked
 * addresses, passkeys and the sites holding an OpenID Connect grant; logout everywhere; revoking
 * a site.
 * The caller is already authenticated (a current JWT of an active user).
 */
export class AccountService {
  private readonly clock: () => number;

  constructor(private readonly deps: AccountServiceDeps) {
    this.clock = deps.clock ?? Date.now;
  }

  async view(user: User): Promise<AccountResponse> {
    const [links, grants, passkeys] = await Promise.all([
      this.deps.addresses.linksOf(user.id),
      this.deps.grants.list(user.id),
      this.deps.passkeys?.list(user.id) ?? [],
    ]);
    // A grant from before the last reset or logout everywhere is dead (its tokens and sessions
    // are refused), even while it waits for its expiry in the store.
    const ended = Math.max(Math.floor(user.updatedAt / 1000), user.tokensValidAfter - 1);
    const live = grants.filter((grant) => grant.grantedAt >= ended);
    const names = new Map<string, string>();
    for (const clientId of new Set(live.map((grant) => grant.clientId))) {
      const client = await this.deps.clients.findById(clientId);
      names.set(clientId, client?.name ?? clientId);
    }
    return {
      userId: user.id,
      name: user.name,
      ...(user.email ? { email: user.email } : {}),
      linkedAddresses: links.map((link) => ({
        address: link.address,
        linkedAt: new Date(link.linkedAt).toISOString(),
      })),
      sites: live.map((grant) => ({
        clientId: grant.clientId,
        name: names.get(grant.clientId) ?? grant.clientId,
        grantedAt: new Date(grant.grantedAt * 1000).toISOString(),
      })),
      passkeys,
    };
  }

  /**
   * Ends every platform JWT of the user (the one that asked too) and every OpenID Connect grant
   * and session: the token epoch moves; the grants and their tokens are removed.
   */
  async logoutEverywhere(userId: string): Promise<void> {
    await this.deps.users.endTokens(userId, this.clock());
    await this.deps.grants.revoke(userId);
  }

  /** Ends the caller's grants of one site (its codes, access and refresh tokens). */
  async revokeSite(userId: string, clientId: string): Promise<void> {
    if ((await this.deps.grants.revoke(userId, clientId)) === 0) throw new NoSiteGrantError();
  }
}
