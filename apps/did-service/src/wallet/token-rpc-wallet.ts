import { BadGatewayError, NotFoundError, UnauthorizedError } from '@itp/errors';
import { InternalClient } from '@itp/service-kit';
import { walletSignDigestResponseSchema, walletVerifySecretResponseSchema } from '@itp/schemas';
import type { DigestSignature, WalletKey, WalletPort } from './wallet-port.js';

export interface TokenRpcWalletOptions {
  /** Base URL of token-rpc, e.g. http://token-rpc:8083 */
  baseUrl: string;
  internalApiToken: string;
  timeoutMs?: number;
}

/**
 * WalletPort over token-rpc's internal API (`/internal/v1/wallet/*`, bearer INTERNAL_API_TOKEN).
 * The secretKey is only ever put in the request body of verify-secret; answers are validated
 * before use, so a broken upstream is a 502, never a wrong key.
 */
export class TokenRpcWallet implements WalletPort {
  private readonly client: InternalClient;

  constructor(options: TokenRpcWalletOptions) {
    this.client = new InternalClient({
      baseUrl: options.baseUrl,
      token: options.internalApiToken,
      service: 'token-rpc',
      timeoutMs: options.timeoutMs,
    });
  }

  async verifySecret(address: string, secretKey: string): Promise<WalletKey> {
    let answer: unknown;
    try {
      answer = await this.client.post('/internal/v1/wallet/verify-secret', { address, secretKey });
    } catch (err) {
      // An unknown address gets the same answer as a wrong secret: no address enumeration.
      if (err instanceof UnauthorizedError || err instanceof NotFoundError) {
        throw new UnauthorizedError('address and secretKey do not match a wallet address');
      }
      throw err;
    }
    const parsed = walletVerifySecretResponseSchema.safeParse(answer);
    if (!parsed.success)
      throw new BadGatewayError('token-rpc answered verify-secret with an unexpected body');
    return { address: parsed.data.address, publicKeyHex: parsed.data.publicKeyHex.slice(2) };
  }

  async signDigest(address: string, digest: string): Promise<DigestSignature> {
    const answer = await this.client.post('/internal/v1/wallet/sign-digest', { address, digest });
    const parsed = walletSignDigestResponseSchema.safeParse(answer);
    if (!parsed.success)
      throw new BadGatewayError('token-rpc answered sign-digest with an unexpected body');
    const { r, s, recoveryParam } = parsed.data;
    return { r, s, recoveryParam };
  }
}
