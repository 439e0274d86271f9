import type { Resolvable } from 'did-resolver';
import { ethrDidResolver, type DidChain } from './ethr-did-resolver.js';
import type { HeldCredential } from './held-credential.js';
import { openid4vpClient } from './openid4vp-client.js';
import { pickCredential } from './pick-credential.js';
import { presentationJwt } from './presentation-jwt.js';
import { resolveRequest } from './resolve-request.js';
import { holderDid } from './secp256k1-keys.js';
import { submitResponse } from './submit-response.js';

export interface ApproveOptions {
  /** The holder's did:ethr key: a hex secp256k1 private key (with or without 0x). */
  privateKey: string;
  credentials: HeldCredential[];
  /** Where the request object's did:ethr signer is resolved. */
  chain: DidChain;
  /** Another resolver of the request object's signer than ethr-did-resolver on `chain`. */
  resolver?: Resolvable;
}

interface OutcomeCommon {
  clientId: string;
  responseUri: string;
  holder: string;
  credentialQueryId: string;
  status: number;
}

export type Openid4vpOutcome =
  | ({ approved: true } & OutcomeCommon)
  | ({ approved: false; error: string; errorDescription: string | undefined } & OutcomeCommon);

/**
 * Answers an `openid4vp://` request as the holder of `privateKey` (`itp login approve`): resolve
 * and verify the request, present the matching credential issued to the holder in a VP JWT, post
 * the response. The verifier's answer decides the outcome (2xx: approved; otherwise its `error`
 * / `error_description`). Throws `Openid4vpWalletError` when it would not answer at all.
 */
export async function approveWithOpenid4vp(
  uri: string,
  options: ApproveOptions,
): Promise<Openid4vpOutcome> {
  const holder = await holderDid(options.privateKey);
  const resolver = options.resolver ?? ethrDidResolver(options.chain);
  const client = await openid4vpClient({ resolver });
  const resolved = await resolveRequest(client, uri);
  const { queryId, credential } = pickCredential(resolved.dcqlQuery, options.credentials, holder);
  const vpJwt = await presentationJwt(
    { did: holder, privateKey: options.privateKey },
    [credential.jwt],
    { aud: resolved.clientId, nonce: resolved.nonce },
  );
  const answer = await submitResponse(client, resolved.request, { [queryId]: [vpJwt] });
  const common: OutcomeCommon = {
    clientId: resolved.clientId,
    responseUri: resolved.responseUri,
    holder,
    credentialQueryId: queryId,
    status: answer.status,
  };
  if (answer.status >= 200 && answer.status < 300) return { approved: true, ...common };
  const body = (typeof answer.body === 'object' && answer.body !== null ? answer.body : {}) as {
    error?: unknown;
    error_description?: unknown;
  };
  return {
    approved: false,
    ...common,
    error: typeof body.error === 'string' ? body.error : `http_${answer.status}`,
    errorDescription:
      typeof body.error_description === 'string' ? body.error_description : undefined,
  };
}
