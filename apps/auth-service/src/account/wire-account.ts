import { resolveInternalToken } from '@itp/crypto';
import type { FeatureEdge } from '../feature.js';
import { bearerCaller } from '../http/bearer-caller.js';
import type { OidcParts } from '../oidc/wire-oidc.js';
import { OidcAccountGrants } from '../oidc/account-grants.js';
import type { Passkeys } from '../passkeys/passkeys.js';
import type { SharedResources } from '../wire-shared.js';
import { AccountService } from './account-service.js';
import { accountRouter } from './account-router.js';
import { CredentialRevocationDelivery } from './credential-revocations.js';

/**
 * The caller's account (docs/api.md §12): its ways in, logout everywhere, revoke a site; and the
 * delivery of a reset's credential revocations to did-service (started here, stopped with the
 * scope), so that they reach it also when it was down at the reset.
 */
export function wireAccount(
  shared: SharedResources,
  oidc: Pick<OidcParts, 'adapter' | 'records'>,
  passkeys?: Pick<Passkeys, 'list'>,
): FeatureEdge & {
  account: AccountService;
  revocationDelivery: CredentialRevocationDelivery | undefined;
} {
  const { config, kv } = shared;
  const account = new AccountService({
    users: shared.users,
    addresses: shared.addresses,
    grants: new OidcAccountGrants(kv, oidc.adapter, oidc.records),
    clients: shared.clients,
    ...(passkeys ? { passkeys } : {}),
  });
  const revocationDelivery = credentialRevocationDelivery(shared);
  if (revocationDelivery) {
    revocationDelivery.start();
    shared.scope.onClose('credential revocation delivery', () => revocationDelivery.stop());
  }
  return {
    account,
    revocationDelivery,
    routes: [
      {
        path: '/v2/auth',
        router: accountRouter({
          account,
          caller: bearerCaller(shared.ownTokens, shared.users),
          bodyLimitBytes: config.BODY_LIMIT_BYTES,
        }),
      },
    ],
  };
}

/** The outbox of a reset's credential revocations, delivered to did-service when it is known. */
function credentialRevocationDelivery(
  shared: SharedResources,
): CredentialRevocationDelivery | undefined {
  const { config } = shared;
  const token = resolveInternalToken(config, 'INTERNAL_TOKEN_AUTH_TO_DID');
  if (!config.DID_SERVICE_INTERNAL_URL || !token) return undefined;
  return new CredentialRevocationDelivery(shared.revocations, shared.didService, shared.logger, {
    intervalMs: config.CREDENTIAL_REVOCATION_INTERVAL_MS,
  });
}
