import type { LinkAddressResponse, LoginResult, SiweNonceResponse } from '@itp/schemas';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { createSiweMessage } from 'viem/siwe';
import type { RestRecorder } from './rest-recorder.js';

const AUTH = '/v2/auth';

export interface SiweFlowOptions {
  rec: RestRecorder;
  /** The demo user's JWT. */
  bearer: string;
  /** Another user's JWT (the one an address linked to the demo user cannot be linked to). */
  otherBearer: string;
  /** Collects the wallet's key: it must reach no recorded body. */
  secrets: string[];
}

/**
 * Sign-In with Ethereum (docs/api.md §11) as a dapp does it: a nonce, an EIP-4361 message built
 * with viem and signed by a fresh key, linked to the demo user, a login with it, the refusals a
 * stack gives on purpose (replay, malformed, taken, not linked), and the unlink.
 */
export async function recordSiweExamples(options: SiweFlowOptions): Promise<void> {
  const { rec, bearer, otherBearer } = options;
  const key = generatePrivateKey();
  options.secrets.push(key, key.slice(2));
  const account = privateKeyToAccount(key);
  let nonceSummary: string | undefined = 'a nonce and what the message must carry';
  const signed = async (statement: string) => {
    const issued = await rec.ok<SiweNonceResponse>('POST', `${AUTH}/siwe/nonce`, {
      json: {},
      ...(nonceSummary ? { summary: nonceSummary } : {}),
    });
    nonceSummary = undefined;
    const message = createSiweMessage({
      domain: issued.domain,
      address: account.address,
      statement,
      uri: issued.uri,
      version: '1',
      chainId: issued.chainId,
      nonce: issued.nonce,
      issuedAt: new Date(),
      expirationTime: new Date(Date.now() + 5 * 60_000),
    });
    return { message, signature: await account.signMessage({ message }) };
  };

  await rec.fails('POST', `${AUTH}/auth-user-with-siwe`, 'siweRefused', {
    json: await signed('Sign in to the example site'),
  });
  const linked = await rec.ok<LinkAddressResponse>('POST', `${AUTH}/link-address`, {
    json: await signed('Link this address to your account'),
    bearer,
    summary: "link a wallet's address to the logged-in user",
  });
  const login = await signed('Sign in to the example site');
  await rec.ok<LoginResult>('POST', `${AUTH}/auth-user-with-siwe`, {
    json: login,
    summary: 'login with a message the linked address signed',
  });
  await rec.fails('POST', `${AUTH}/auth-user-with-siwe`, 'siweRefused', { json: login });
  await rec.fails('POST', `${AUTH}/auth-user-with-siwe`, 'siweMalformed', {
    json: { message: 'example.com wants you to sign in', signature: login.signature },
  });
  await rec.fails('POST', `${AUTH}/link-address`, 'addressTaken', {
    json: await signed('Link this address to your account'),
    bearer: otherBearer,
  });
  await rec.fails('POST', `${AUTH}/link-address`, 'siweRefused', { json: login, bearer });
  await rec.ok('POST', `${AUTH}/unlink-address`, {
    json: { address: linked.address },
    bearer,
    summary: 'the address no longer logs the user in',
  });
  await rec.fails('POST', `${AUTH}/unlink-address`, 'addressNotLinked', {
    json: { address: linked.address },
    bearer,
  });
  await rec.fails('POST', `${AUTH}/unlink-address`, 'badCredentials', {
    json: { address: linked.address },
  });
  await rec.bodyErrors(`${AUTH}/siwe/nonce`);
  await rec.bodyErrors(`${AUTH}/auth-user-with-siwe`);
  await rec.bodyErrors(`${AUTH}/link-address`, { bearer });
  await rec.bodyErrors(`${AUTH}/unlink-address`, { bearer });
}
