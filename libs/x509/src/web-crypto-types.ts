import type { webcrypto } from 'node:crypto';

// The workspace compiles without the DOM lib: WebCrypto's types come from Node's `webcrypto`.
export type CryptoKey = webcrypto.CryptoKey;
export type CryptoKeyPair = webcrypto.CryptoKeyPair;
export type JsonWebKey = webcrypto.JsonWebKey;
export type EcKeyGenParams = webcrypto.EcKeyGenParams;
export type EcdsaParams = webcrypto.EcdsaParams;
