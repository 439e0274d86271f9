/**
 * The server wallet of token-rpc, as did-service needs it. Holder (user) keys never leave the
 * wallet: did-service authenticates the owner once (create-did) and later asks for signatures
 * over digests (docs/adr/0009-did-key-custody.md).
 */
export interface WalletKey {
  /** EIP-55 checksummed address. */
  address: string;
  /** Uncompressed secp256k1 public key, `04…` hex without 0x (Veramo's form). */
  publicKeyHex: string;
}

export interface DigestSignature {
  /** 0x + 64 hex digits each. */
  r: string;
  s: string;
  recoveryParam: 0 | 1;
}

export interface WalletPort {
  /** Checks `secretKey` for `address`; UnauthorizedError when they do not match a wallet key. */
  verifySecret(address: string, secretKey: string): Promise<WalletKey>;
  /** Signs a 32-byte digest (0x + 64 hex) as is with the key of `address`. */
  signDigest(address: string, digest: string): Promise<DigestSignature>;
}
