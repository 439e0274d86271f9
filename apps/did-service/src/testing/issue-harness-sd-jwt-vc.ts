import type { SdJwtIssuerKey } from '../sd-jwt-issuer/sd-jwt-issuer-key.js';
import type { TokenStatusEntry } from '../status/token-status-lists.js';
import { HARNESS_PUBLIC_URL, type DidHarness } from './did-harness.js';
import { issueTestSdJwtVc } from './test-sd-jwt-issuer-key.js';

/** The credential issuer (`iss`) of the harness' SD-JWT VCs (OpenID4VCI's, under its PUBLIC_URL). */
export const HARNESS_SD_JWT_ISSUER = `${HARNESS_PUBLIC_URL}/v2/did/oid4vci`;

/**
 * Test helper: an SD-JWT VC about `userId` as OpenID4VCI issues it on the harness: a token status
 * list entry allocated for the user, the credential signed by `signer` (issueTestSdJwtVc).
 */
export async function issueHarnessSdJwtVc(
  h: DidHarness,
  userId: string,
  signer: SdJwtIssuerKey,
): Promise<{ entry: TokenStatusEntry; sdJwt: string }> {
  const entry = await h.app.tokenStatusLists.allocate(userId);
  const sdJwt = await issueTestSdJwtVc(signer, {
    iss: HARNESS_SD_JWT_ISSUER,
    sub: userId,
    status: { status_list: entry },
  });
  return { entry, sdJwt };
}
