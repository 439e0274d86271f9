import { RateLimiter } from '@itp/stores';
import { authPublicUrl } from '../config.js';
import { SqlPasskeys } from '../db/sql-passkeys.js';
import type { FeatureEdge } from '../feature.js';
import { bearerCaller } from '../http/bearer-caller.js';
import { FailureCounter } from '../rate-limit/failure-counter.js';
import type { SharedResources } from '../wire-shared.js';
import { PasskeyChallenges } from './passkey-challenges.js';
import { PasskeyLogin } from './passkey-login.js';
import { Passkeys, type RelyingParty } from './passkeys.js';
import { passkeysRouter } from './passkeys-router.js';

/** The name authenticators show for this service when the operator named none. */
const DEFAULT_RP_NAME = 'Identity and Token Platform';

/** The relying party of PUBLIC_URL (docs/api.md §13): its host name is the RP id. */
export function relyingPartyOf(publicUrl: string, productName?: string): RelyingParty {
  const url = new URL(publicUrl);
  return { id: url.hostname, origin: url.origin, name: productName ?? DEFAULT_RP_NAME };
}

/**
 * Passkeys (docs/api.md §13): registered as a login method; the `/v2/auth` passkey routes. Its
 * challenges live in Redis and are marked used in SQL (contract §16).
 */
export function wirePasskeys(shared: SharedResources): FeatureEdge & {
  passkeys: Passkeys;
  passkeyLogin: PasskeyLogin;
  passkeyStore: SqlPasskeys;
} {
  const { config, kv } = shared;
  const passkeyStore = new SqlPasskeys(shared.database);
  const passkeys = new Passkeys({
    passkeys: passkeyStore,
    challenges: new PasskeyChallenges(kv, shared.oneTimeMarks, shared.clock),
    rp: relyingPartyOf(authPublicUrl(config), config.LOGIN_PAGE_PRODUCT_NAME),
    ...(shared.clock ? { clock: shared.clock } : {}),
  });
  const passkeyLogin = new PasskeyLogin({
    passkeys,
    users: shared.users,
    failuresPerIp: shared.loginFailuresPerIp,
    failuresPerOwnerAndIp: new FailureCounter(kv, {
      name: 'passkey-id-ip',
      max: config.LOGIN_MAX_FAILURES_PER_ID,
      windowMs: shared.loginWindowMs,
    }),
  });
  shared.loginMethods.register(passkeyLogin);
  return {
    passkeys,
    passkeyLogin,
    passkeyStore,
    routes: [
      {
        path: '/v2/auth',
        router: passkeysRouter({
          passkeys,
          login: passkeyLogin,
          results: shared.loginResults,
          caller: bearerCaller(shared.ownTokens, shared.users),
          stepUpMaxAgeSeconds: config.STEP_UP_MAX_AGE_SECONDS,
          optionsLimiter: new RateLimiter(kv),
          optionsLimit: {
            name: 'passkey-options',
            what: 'passkey authentication options',
            max: config.PASSKEY_OPTIONS_PER_IP_PER_MINUTE,
            windowMs: 60_000,
          },
          bodyLimitBytes: config.BODY_LIMIT_BYTES,
          ...(shared.clock ? { clock: shared.clock } : {}),
        }),
      },
    ],
  };
}
