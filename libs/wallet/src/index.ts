/**
 * @itp/wallet: the holder side of OpenID4VP 1.0 (see README.md). Its npm packages load on first
 * use (wallet-packages.ts), so a program that links it starts without them.
 */
export {
  approveWithOpenid4vp,
  type ApproveOptions,
  type Openid4vpOutcome,
} from './approve-with-openid4vp.js';
export { ethrDidResolver, type DidChain } from './ethr-did-resolver.js';
export { heldCredential, type HeldCredential } from './held-credential.js';
export { Oid4vpWallet, type Oid4vpWalletOptions } from './oid4vp-wallet.js';
export { openid4vpClient } from './openid4vp-client.js';
export { pickCredential } from './pick-credential.js';
export {
  presentationJwt,
  type EthrHolder,
  type Holder,
  type JwkHolder,
} from './presentation-jwt.js';
export { resolveRequest, type ResolvedLoginRequest } from './resolve-request.js';
export {
  holderDid,
  privateKeyHex,
  recoverSignerJwk,
  secp256k1JwkOfPrivateKey,
  secp256k1PublicJwk,
} from './secp256k1-keys.js';
export { submitResponse, type SubmitAnswer } from './submit-response.js';
export { verifyDidSignedJwt } from './verify-did-signed-jwt.js';
export { Openid4vpWalletError } from './wallet-error.js';
export { walletPackages } from './wallet-packages.js';
