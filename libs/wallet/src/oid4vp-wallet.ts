import type { Openid4vpClient } from '@openid4vc/openid4vp';
import type { Resolvable } from 'did-resolver';
import { heldCredential } from './held-credential.js';
import { openid4vpClient } from './openid4vp-client.js';
import { pickCredential } from './pick-credential.js';
import { presentationJwt, type Holder } from './presentation-jwt.js';
import { resolveRequest, type ResolvedLoginRequest } from './resolve-request.js';
import { submitResponse, type SubmitAnswer } from './submit-response.js';

export interface Oid4vpWalletOptions {
  /** A did:ethr resolver of the verifier's chain (`ethrDidResolver`). */
  resolver: Resolvable;
  holder: Holder;
  /**
   * Allow `http://` request and response URIs anywhere (the library refuses them by default;
   * loopback is allowed anyway). This sets the library's process-wide config.
   */
  allowInsecureUrls?: boolean;
}

/**
 * A wallet holding one key and answering OpenID4VP 1.0 requests step by step (resolve, select,
 * presentation, submit; or all at once, `logIn`): built on the OpenWallet Foundation's
 * `Openid4vpClient`, `dcql`, did-jwt and jose only, so what passes with it passes with any
 * wallet built on those libraries.
 */
export class Oid4vpWallet {
  private client: Promise<Openid4vpClient> | undefined;

  constructor(private readonly options: Oid4vpWalletOptions) {}

  /**
   * Takes an `openid4vp://` URI (the QR code's content), fetches the request object from its
   * `request_uri` and verifies it (`resolveRequest`).
   */
  async resolve(openid4vpUri: string): Promise<ResolvedLoginRequest> {
    this.client ??= openid4vpClient({ resolver: this.options.resolver });
    return resolveRequest(await this.client, openid4vpUri, {
      allowInsecureUrls: this.options.allowInsecureUrls ?? false,
    });
  }

  /**
   * The credential query the presentation answers and the credential that satisfies it, chosen
   * by `dcql` among `vcJwts`; throws when none does.
   */
  select(resolved: ResolvedLoginRequest, vcJwts: string[]): { queryId: string; vcJwt: string } {
    const { queryId, credential } = pickCredential(resolved.dcqlQuery, vcJwts.map(heldCredential));
    return { queryId, vcJwt: credential.jwt };
  }

  /**
   * A VP JWT of `vcJwt` signed by the holder's key (`presentationJwt`), bound to this request:
   * `aud` the full client id (OpenID4VP §14.8) unless `aud` says otherwise, `nonce` the request's.
   */
  presentation(
    resolved: ResolvedLoginRequest,
    vcJwt: string,
    overrides: { aud?: string; nonce?: string } = {},
  ): Promise<string> {
    return presentationJwt(this.options.holder, [vcJwt], {
      aud: overrides.aud ?? resolved.clientId,
      nonce: overrides.nonce ?? resolved.nonce,
    });
  }

  /** Posts `vpJwt` as the answer to the credential query `queryId` (`direct_post`). */
  async submit(
    resolved: ResolvedLoginRequest,
    queryId: string,
    vpJwt: string,
  ): Promise<SubmitAnswer> {
    this.client ??= openid4vpClient({ resolver: this.options.resolver });
    return submitResponse(await this.client, resolved.request, { [queryId]: [vpJwt] });
  }

  /** The whole wallet side of a login: resolve the QR code's URI, pick, present, submit. */
  async logIn(
    openid4vpUri: string,
    vcJwts: string[],
  ): Promise<{ resolved: ResolvedLoginRequest; answer: SubmitAnswer }> {
    const resolved = await this.resolve(openid4vpUri);
    const { queryId, vcJwt } = this.select(resolved, vcJwts);
    const answer = await this.submit(resolved, queryId, await this.presentation(resolved, vcJwt));
    return { resolved, answer };
  }
}
