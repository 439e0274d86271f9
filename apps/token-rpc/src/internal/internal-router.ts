import express, { type Router } from 'express';
import type { z } from 'zod';
import { BadRequestError } from '@itp/errors';
import {
  walletSignDigestRequestSchema,
  walletVerifySecretRequestSchema,
  type WalletSignDigestResponse,
  type WalletVerifySecretResponse,
} from '@itp/schemas';
import { requireInternalToken } from '@itp/service-kit';
import type { WalletService } from '../wallet/wallet-service.js';

export interface InternalRouterOptions {
  token: string;
  bodyLimitBytes: number;
}

/** Validates a body; the message names the fields, never their values. */
function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const where = parsed.error.issues
      .map((issue) => `${issue.path.join('.') || 'body'}: ${issue.message}`)
      .join('; ');
    throw new BadRequestError(`Invalid request body: ${where}`);
  }
  return parsed.data;
}

/**
 * token-rpc's internal API for did-service (mounted at /internal/v1/wallet; bearer
 * INTERNAL_API_TOKEN; errors in the REST shape):
 * - POST /verify-secret {address, secretKey} → {address, publicKeyHex} | 401 | 400
 * - POST /sign-digest {address, digest} → {signature, r, s, recoveryParam} | 404 | 400
 */
export function internalWalletRouter(
  wallets: WalletService,
  options: InternalRouterOptions,
): Router {
  const router = express.Router();
  router.use(requireInternalToken(options.token));
  router.use(express.json({ limit: options.bodyLimitBytes, type: () => true }));

  router.post('/verify-secret', async (req, res) => {
    const body = parseBody(walletVerifySecretRequestSchema, req.body);
    const answer: WalletVerifySecretResponse = await wallets.verifySecret(
      body.address,
      body.secretKey,
    );
    res.json(answer);
  });

  router.post('/sign-digest', async (req, res) => {
    const body = parseBody(walletSignDigestRequestSchema, req.body);
    const answer: WalletSignDigestResponse = await wallets.signDigest(body.address, body.digest);
    res.json(answer);
  });

  return router;
}
