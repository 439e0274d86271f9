import type { Jwk, JwtSigner } from '@openid4vc/oauth2';
import type { Resolvable, VerificationMethod } from 'did-resolver';
import { recoverSignerJwk } from './secp256k1-keys.js';
import { walletPackages, type WalletPackages } from './wallet-packages.js';

/** The address a verification method stands for (did:ethr: `blockchainAccountId`, or its key). */
function addressOf(
  { getAddress, computeAddress }: WalletPackages['ethers'],
  method: VerificationMethod,
): string | undefined {
  if (method.blockchainAccountId) {
    return getAddress(method.blockchainAccountId.split(':').at(-1) ?? '');
  }
  if (method.ethereumAddress) return getAddress(method.ethereumAddress);
  if (method.publicKeyHex) return computeAddress(`0x${method.publicKeyHex.replace(/^0x/, '')}`);
  return undefined;
}

/**
 * The `verifyJwt` callback of the OpenID4VC library for JWTs signed by a DID (`{ method: 'did',
 * didUrl }`): the DID resolved with `resolver`, the signature made by the verification method
 * `didUrl` names (for a bare DID, by any) among those the DID asserts (assertionMethod) or
 * authenticates with; `signerJwk` the secp256k1 public key the signature recovers to.
 */
export function verifyDidSignedJwt(resolver: Resolvable) {
  return async (
    signer: JwtSigner,
    jwt: { compact: string },
  ): Promise<{ verified: true; signerJwk: Jwk } | { verified: false }> => {
    if (signer.method !== 'did') return { verified: false };
    const [did, fragment] = signer.didUrl.split('#') as [string, string | undefined];
    const { didDocument } = await resolver.resolve(did);
    if (!didDocument) return { verified: false };
    const allowed = new Set(
      [...(didDocument.assertionMethod ?? []), ...(didDocument.authentication ?? [])].map(
        (entry) => (typeof entry === 'string' ? entry : entry.id),
      ),
    );
    const methods = (didDocument.verificationMethod ?? []).filter(
      (method) =>
        allowed.has(method.id) && (fragment === undefined || method.id === `${did}#${fragment}`),
    );
    const { didJwt, ethers } = await walletPackages();
    try {
      const method = didJwt.verifyJWS(jwt.compact, methods);
      const address = addressOf(ethers, method);
      const signerJwk =
        address === undefined ? undefined : await recoverSignerJwk(jwt.compact, address);
      return signerJwk ? { verified: true, signerJwk } : { verified: false };
    } catch {
      return { verified: false };
    }
  };
}
