import type { RequestHandler } from 'express';
import { UnauthorizedError } from '@itp/errors';
import type { Client } from '../clients/client.js';
import type { ClientAuthenticator } from '../clients/client-authenticator.js';
import { clientIp } from './client-ip.js';

/** Runs the relying-party authentication and keeps the client in `res.locals.client`. */
export function requireClient(authenticator: ClientAuthenticator): RequestHandler {
  return async (req, res, next) => {
    try {
      res.locals.client = await authenticator.authenticate(
        req.headers.authorization,
        clientIp(req),
      );
      next();
    } catch (err) {
      if (err instanceof UnauthorizedError) {
        res.setHeader('WWW-Authenticate', 'Basic realm="itp-auth", charset="UTF-8"');
      }
      next(err);
    }
  };
}

/** The relying party requireClient authenticated. */
export const clientOf = (res: { locals: Record<string, unknown> }): Client =>
  res.locals.client as Client;
