import express, { type Router } from 'express';
import {
  walletRegisterDidRequestSchema,
  walletSignJwsRequestSchema,
  type WalletRegisterDidResponse,
  type WalletSignJwsResponse,
} from '@itp/schemas';
import { jsonBody, parseBody, requireInternalToken } from '@itp/service-kit';
import type { WalletService } from '../wallet/wallet-service.js';

export interface InternalRouterOptions {
  /** The accepted bearer tokens: INTERNAL_TOKEN_DID_TO_TOKEN_RPC and INTERNAL_API_ACCEPTED_TOKENS. */
  token: string | readonly string[];
  bodyLimitBytes: number;
}

/**
 * token-rpc's internal API for did-service (mounted at /internal/v1/wallet; bearer
 * INTERNAL_TOKEN_DID_TO_TOKEN_RPC; errors in the REST shape):
 * - POST /register-did {address, secretKey} → {address, publicKeyHex} | 401 (the same answer for
 *   an unknown address and a wrong secretKey) | 400; on success marks the address as registered
 *   for a DID
 * - POST /sign-jws {address, signingInput} → {signature, r, s, recoveryParam} | 400 (not an
 *   ES256K/ES256K-R JWS issued by did:ethr:<address>) | 404 (unknown address) | 403 (address not
 *   registered for a DID)
 * There is no way to sign a raw digest: a holder of the internal token cannot sign transactions.
 */
export function internalWalletRouter(
  wallets: WalletService,
  options: InternalRouterOptions,
): Router {
  const router = express.Router();
  router.use(requireInternalToken(options.token));
  router.use(jsonBody({ limit: options.bodyLimitBytes, type: () => true }));

  router.post('/register-did', async (req, res) => {
    const body = parseBody(walletRegisterDidRequestSchema, req.body);
    const answer: WalletRegisterDidResponse = await wallets.registerDid(
      body.address,
      body.secretKey,
    );
    res.json(answer);
  });

  router.post('/sign-jws', async (req, res) => {
    const body = parseBody(walletSignJwsRequestSchema, req.body);
    const answer: WalletSignJwsResponse = await wallets.signJws(body.address, body.signingInput);
    res.json(answer);
  });

  return router;
}
