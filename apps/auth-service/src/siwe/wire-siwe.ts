import { authPublicUrl, siweChain } from '../config.js';
import type { FeatureEdge } from '../feature.js';
import { bearerCaller } from '../http/bearer-caller.js';
import { failureLimit } from '../login/failure-limit.js';
import { FailureCounter } from '../rate-limit/failure-counter.js';
import type { SharedResources } from '../wire-shared.js';
import { SiweLogin } from './siwe-login.js';
import { siweRouter } from './siwe-router.js';
import { SiweNonces } from './siwe-nonces.js';
import { ChainSiweSignatureVerifier } from './siwe-signature-verifier.js';

/**
 * Sign-In with Ethereum (`siwe`, docs/api.md §11), when a chain is configured (ETH_RPC_URL,
 * CHAIN_ID): registered as a login method. Its routes answer 404 without a chain.
 */
export function wireSiwe(shared: SharedResources): FeatureEdge & {
  siwe: SiweLogin | undefined;
} {
  const { config } = shared;
  const siwe = siweLogin(shared);
  if (siwe) shared.loginMethods.register(siwe);
  return {
    siwe,
    routes: [
      {
        path: '/v2/auth',
        router: siweRouter({
          siwe,
          caller: bearerCaller(shared.ownTokens, shared.users),
          stepUpMaxAgeSeconds: config.STEP_UP_MAX_AGE_SECONDS,
          bodyLimitBytes: config.BODY_LIMIT_BYTES,
        }),
      },
    ],
  };
}

function siweLogin(shared: SharedResources): SiweLogin | undefined {
  const { config, kv, clock, loginWindowMs: windowMs } = shared;
  const chain = siweChain(config);
  if (!chain) return undefined;
  const publicUrl = authPublicUrl(config);
  return new SiweLogin(
    {
      nonces: new SiweNonces(kv, shared.usedLoginProofs, clock),
      verifier: new ChainSiweSignatureVerifier({
        rpcUrl: chain.rpcUrl,
        timeoutMs: chain.timeoutMs,
      }),
      addresses: shared.addresses,
      users: shared.users,
      loginResults: shared.loginResults,
      // SIWE's own failure counters: its refusals never lock password/OIDC logins out (login-ip).
      failuresPerIp: new FailureCounter(kv, {
        name: 'siwe-ip',
        max: config.SIWE_MAX_FAILURES_PER_IP,
        windowMs,
        message:
          'Too many refused Sign-In with Ethereum messages from this address; try again later',
      }),
      failuresPerAccount: new FailureCounter(kv, {
        name: 'siwe-id-ip',
        max: config.LOGIN_MAX_FAILURES_PER_ID,
        windowMs,
        message:
          'Too many refused Sign-In with Ethereum messages for this account from this address; try again later',
      }),
      noncesPerIp: failureLimit(kv, {
        name: 'siwe-nonce-ip',
        max: config.SIWE_NONCES_PER_IP_PER_MINUTE,
        windowMs: 60_000,
      }),
      contractChecksPerIp: failureLimit(kv, {
        name: 'siwe-contract-ip',
        max: config.SIWE_CONTRACT_CHECKS_PER_IP_PER_MINUTE,
        windowMs: 60_000,
        message: 'Too many smart-account signature checks from this address; try again later',
      }),
    },
    {
      expected: { domain: new URL(publicUrl).host, uri: publicUrl, chainId: chain.chainId },
      ...(clock ? { clock } : {}),
    },
  );
}
