import { BadGatewayError, NotFoundError, UnauthorizedError } from '@itp/errors';
import { InternalClient } from '@itp/service-kit';
import { walletRegisterDidResponseSchema, walletSignJwsResponseSchema } from '@itp/schemas';
import type { JwsSignature, WalletKey, WalletPort } from './wallet-port.js';

export interface TokenRpcWalletOptions {
  /** Base URL of token-rpc, e.g. http://token-rpc:8083 */
  baseUrl: string;
  internalApiToken: string;
  timeoutMs?: number;
}

/**
 * WalletPort over token-rpc's internal API (`/internal/v1/wallet/*`, bearer INTERNAL_TOKEN_DID_TO_TOKEN_RPC, on token-rpc's internal listener).
 * The secretKey is only ever put in the request body of register-did; answers are validated
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

  async registerDid(address: string, secretKey: string): Promise<WalletKey> {
    let answer: unknown;
    try {
      answer = await this.client.post('/internal/v1/wallet/register-did', { address, secretKey });
    } catch (err) {
      // An unknown address gets the same answer as a wrong secret: no address enumeration.
      if (err instanceof UnauthorizedError || err instanceof NotFoundError) {
        throw new UnauthorizedError('address and secretKey do not match a wallet address');
      }
      throw err;
    }
    const parsed = walletRegisterDidResponseSchema.safeParse(answer);
    if (!parsed.success)
      throw new BadGatewayError('token-rpc answered register-did with an unexpected body');
    return { address: parsed.data.address, publicKeyHex: parsed.data.publicKeyHex.slice(2) };
  }

  async signJws(address: string, signingInput: string): Promise<JwsSignature> {
    const answer = await this.client.post('/internal/v1/wallet/sign-jws', {
      address,
      signingInput,
    });
    const parsed = walletSignJwsResponseSchema.safeParse(answer);
    if (!parsed.success)
      throw new BadGatewayError('token-rpc answered sign-jws with an unexpected body');
    const { r, s, recoveryParam } = parsed.data;
    return { r, s, recoveryParam };
  }
}
