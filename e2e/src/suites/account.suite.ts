/**
 * One account, one key ring (docs/api.md §12) through the gateway: an intruder holding a user's
 * JWT links his own Ethereum key and puts a credential into his own standard wallet
 * (`Openid4vciClient`), then logs in with each. After the operator's password reset, nothing of
 * that works any more — not the JWT (auth-service at once, did-service within its status cache),
 * not the address, not the credential (refused at once, and its status bit set for everyone
 * else) — while the user's new password logs in.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { runAuthCli } from '@itp/harness';
import { waitFor } from '@itp/testing/wait-for';
import { Oid4vpWallet } from '@itp/wallet';
import { privateKeyToAccount, generatePrivateKey } from 'viem/accounts';
import { createSiweMessage } from 'viem/siwe';
import { thirdPartyResolver } from '../did-ethr.js';
import { post, type Json } from '../http.js';
import { newDidJwkKey, oid4vciWallet, type DidJwkKey } from '@itp/testing/oid4vci-wallet';
import type { GatewayStack, Suite } from './context.js';
import { expectRefusal, siteLogin } from './oid4vp.suite.js';

const CONFIGURATION_ID = 'itp_profile_jwt_vc_json';
/**
 * The suite's own client address (the setups' gateway trusts the loopback hop's
 * X-Forwarded-For): its refused logins after the reset count against it, not against the
 * address the other suites log in from (3 failures per address in the setups).
 */
const FROM = { 'x-forwarded-for': '192.0.2.77' };

async function getWithBearer(url: string, bearer: string): Promise<{ status: number; body: Json }> {
  const res = await fetch(url, { headers: { authorization: `Bearer ${bearer}`, ...FROM } });
  return { status: res.status, body: (await res.json()) as Json };
}

async function passwordLogin(gw: string, id: string, password: string): Promise<string> {
  const answer = await post(`${gw}/v2/auth/auth-user`, { id, password }, FROM);
  expect(answer.status).toBe(200);
  return answer.body.token as string;
}

/** A Sign-In with Ethereum message for `address` with a fresh nonce, signed by `key`. */
async function siweSigned(gw: string, key: `0x${string}`) {
  const account = privateKeyToAccount(key);
  const issued = (await post(`${gw}/v2/auth/siwe/nonce`, {}, FROM)).body as Json;
  const message = createSiweMessage({
    domain: issued.domain,
    address: account.address,
    uri: issued.uri,
    version: '1',
    chainId: issued.chainId,
    nonce: issued.nonce,
    issuedAt: new Date(),
  });
  return { message, signature: await account.signMessage({ message }) };
}

/** The intruder's wallet receives a credential offered with `bearer` (the standard client). */
async function receiveCredential(gw: string, bearer: string, key: DidJwkKey): Promise<string> {
  const offered = await post(
    `${gw}/v2/did/credential-offer`,
    {},
    {
      authorization: `Bearer ${bearer}`,
    },
  );
  expect(offered.status).toBe(200);
  const { credentialOfferUri, txCode } = offered.body as Json;
  const wallet = oid4vciWallet(key, { allowInsecureUrls: true });
  const credentialOffer = await wallet.resolveCredentialOffer(credentialOfferUri);
  const issuerMetadata = await wallet.resolveIssuerMetadata(credentialOffer.credential_issuer);
  const { accessTokenResponse } = await wallet.retrievePreAuthorizedCodeAccessTokenFromOffer({
    credentialOffer,
    issuerMetadata,
    ...(txCode ? { txCode } : {}),
  });
  const { c_nonce } = await wallet.requestNonce({ issuerMetadata });
  const { jwt } = await wallet.createCredentialRequestJwtProof({
    issuerMetadata,
    credentialConfigurationId: CONFIGURATION_ID,
    signer: { method: 'did', didUrl: key.kid, alg: 'ES256' },
    nonce: c_nonce,
  });
  const { credentialResponse } = await wallet.retrieveCredentials({
    issuerMetadata,
    accessToken: accessTokenResponse.access_token,
    credentialConfigurationId: CONFIGURATION_ID,
    proofs: { jwt: [jwt] },
  });
  const [received] = (credentialResponse.credentials ?? []) as Array<{ credential: string }>;
  return received!.credential;
}

/** A site's OpenID4VP login answered by the wallet with `vcJwt`: the site's poll after it. */
async function walletLogin(stack: GatewayStack, key: DidJwkKey, vcJwt: string, path: string) {
  const vpWallet = new Oid4vpWallet({
    resolver: thirdPartyResolver(stack),
    holder: { did: key.did, kid: key.kid, privateKey: key.privateKey },
    allowInsecureUrls: true,
  });
  const login = await siteLogin(stack.gatewayUrl, path);
  const { answer } = await vpWallet.logIn(login.openid4vpUri, [vcJwt]);
  return { answer, poll: await login.poll() };
}

/**
 * The account's key ring through the gateway: a password reset ends what an intruder added (his
 * JWT, his linked address, the credential in his wallet); the new password logs in.
 */
export const accountSuite: Suite = ({ stack }) => {
  describe('the account key ring through the gateway', () => {
    it('a password reset ends the intruder’s JWT, his linked address and the credential in his standard wallet; the new password logs in', async () => {
      const gw = stack().gatewayUrl;
      const userId = `reset-${randomUUID().slice(0, 8)}`;
      const operator = { DATABASE_URL: stack().databaseUrl };
      await runAuthCli(
        ['users', 'add', userId, '--name', 'Reset User', '--password-stdin'],
        operator,
        'first-password-1\n',
      );

      // The intruder has a JWT of the user and adds his own ways in.
      const stolen = await passwordLogin(gw, userId, 'first-password-1');
      const intruderKey = generatePrivateKey();
      const linked = await post(`${gw}/v2/auth/link-address`, await siweSigned(gw, intruderKey), {
        authorization: `Bearer ${stolen}`,
        ...FROM,
      });
      expect(linked.status).toBe(200);
      expect(
        (await post(`${gw}/v2/auth/auth-user-with-siwe`, await siweSigned(gw, intruderKey), FROM))
          .status,
      ).toBe(200);
      const walletKey = await newDidJwkKey();
      const vcJwt = await receiveCredential(gw, stolen, walletKey);
      const before = await walletLogin(stack(), walletKey, vcJwt, 'reset-before');
      expect(before.poll.status).toBe(200);
      expect(before.poll.body.userId).toBe(userId);
      const listed = await getWithBearer(`${gw}/v2/did/credentials`, stolen);
      expect(listed.status).toBe(200);
      expect(listed.body).toEqual([
        expect.objectContaining({ holder: walletKey.did, status: 'valid', via: 'openid4vci' }),
      ]);

      // The operator resets the password (the user lost control of the account).
      await runAuthCli(
        ['users', 'reset-password', userId, '--password-stdin'],
        operator,
        'second-password-2\n',
      );

      // From the reset's answer on: the old JWT at auth-service, his address, his credential.
      expect((await getWithBearer(`${gw}/v2/auth/account`, stolen)).status).toBe(401);
      expect(
        (await post(`${gw}/v2/auth/auth-user-with-siwe`, await siweSigned(gw, intruderKey), FROM))
          .status,
      ).toBe(401);
      const after = await walletLogin(stack(), walletKey, vcJwt, 'reset-after');
      expectRefusal(after.answer, 'access_denied');
      expect(after.poll.status).toBe(401);
      // did-service refuses the old JWT within its user-status cache (USER_STATUS_CACHE_MS).
      await waitFor(
        async () => (await getWithBearer(`${gw}/v2/did/credentials`, stolen)).status === 401,
        {
          timeoutMs: 15_000,
          intervalMs: 250,
          what: 'did-service refusing the JWT from before the reset',
        },
      );

      // The user logs in with the new password; the credential is revoked for everyone (its
      // status bit, delivered to did-service by auth-service's outbox).
      const fresh = await passwordLogin(gw, userId, 'second-password-2');
      const account = await getWithBearer(`${gw}/v2/auth/account`, fresh);
      expect(account.body).toMatchObject({ userId, linkedAddresses: [] });
      await waitFor(
        async () => {
          const credentials = await getWithBearer(`${gw}/v2/did/credentials`, fresh);
          return credentials.body[0]?.status === 'revoked';
        },
        {
          timeoutMs: 30_000,
          intervalMs: 250,
          what: 'the credential from before the reset revoked',
        },
      );
    }, 180_000);
  });
};
