/**
 * The server wallet of token-rpc, as did-service needs it. Holder (user) keys never leave the
 * wallet: did-service registers an address for its DID once (create-did, with the owner's
 * secretKey) and later asks for JWS signatures, which token-rpc gives only for a JWS whose `iss`
 * is that address's own DID (docs/adr/0009-did-key-custody.md, docs/security.md).
 */
export interface WalletKey {
  /** EIP-55 checksummed address. */
  address: string;
  /** Uncompressed secp256k1 public key, `04…` hex without 0x (Veramo's form). */
  publicKeyHex: string;
}

export interface JwsSignature {
  /** 0x + 64 hex digits each. */
  r: string;
  s: string;
  recoveryParam: 0 | 1;
}

export interface WalletPort {
  /**
   * Checks `secretKey` for `address` and registers the address for its DID (from then on it may
   * sign JWS); UnauthorizedError when they do not match a wallet key.
   */
  registerDid(address: string, secretKey: string): Promise<WalletKey>;
  /**
   * Signs a compact JWS signing input (`base64url(header).base64url(payload)`, ES256K or
   * ES256K-R, payload `iss` = `did:ethr:<address>`) with the key of a registered address; the
   * wallet hashes (SHA-256) the input itself.
   */
  signJws(address: string, signingInput: string): Promise<JwsSignature>;
}
