import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { JWK } from 'jose';
import { PresentationRefusedError } from '@itp/presentations';
import type { Logger } from '@itp/service-kit';
import { oneTimeKey, type OneTimeMarks } from '@itp/stores';
import type { DcqlQuery } from 'dcql';
import type { Client } from '../clients/client.js';
import { PresentationRequestPendingError, PresentationRequestUnknownError } from '../errors.js';
import { OAuthError } from '../oid4vp/oauth-error.js';
import { decryptResponse } from './decrypt-response.js';
import {
  jwkThumbprintBytes,
  newEphemeralEncryptionKey,
  type KeySealer,
} from './ephemeral-encryption-key.js';
import type { PresentationOutcome, PresentationRequest } from './presentation-request.js';
import type {
  PresentationRequestStore,
  StoredPresentationRequest,
} from './presentation-request-store.js';
import { signRequestObject } from './request-object.js';
import type { VerifierIdentity } from './verifier-identity.js';
import { verifyVpToken, type PresentationVerifiers } from './verify-vp-token.js';

export interface PresentationRequestsDeps {
  store: PresentationRequestStore;
  /** Where answered requests are marked (SQL): a response is accepted once, also after a Redis rollback. */
  marks: OneTimeMarks;
  verifier: VerifierIdentity;
  sealer: KeySealer;
  verifiers: PresentationVerifiers;
  logger: Logger;
}

export interface PresentationRequestsOptions {
  /** PUBLIC_URL (development: the service's own address), without a trailing slash. */
  publicUrl: string;
  /** How long an outcome stays collectable after the request expired. */
  resultGraceMs: number;
  clock?: () => number;
}

export interface NewPresentationRequest {
  dcqlQuery: DcqlQuery.Output;
  purpose?: string;
  waitTimeSeconds: number;
}

export interface CreatedPresentationRequest {
  requestId: string;
  openid4vpUri: string;
  expiresInSeconds: number;
}

/** The wallet's answer as the response URI's form holds it (OpenID4VP 1.0 §8.2, §8.3). */
export type WalletForm = { response: string } | { error: string; state: string };

/** Compare-and-swap retries before giving up (only reached under absurd contention). */
const MAX_ATTEMPTS = 5;
/** 256 random bits, base64url (43 characters): request ids, `state`, `nonce`. */
const randomToken = (): string => randomBytes(32).toString('base64url');
const REQUEST_ID = /^[A-Za-z0-9_-]{43}$/;
const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();
const sameSecret = (a: string, b: string): boolean => timingSafeEqual(digest(a), digest(b));
const UNKNOWN = 'Unknown, expired or already answered request';
/** The rule of a presentation a verifier failed on other than by refusing it. */
export const UNVERIFIABLE_RULE = 'unverifiable';

/**
 * Presentation requests (contract §14): a site (HTTP Basic) asks for credentials with a DCQL
 * query; a wallet fetches the signed request object once (x509_san_dns client) and posts its
 * encrypted response once (`direct_post.jwt`); each presentation is verified (@itp/presentations
 * against the trusted issuers) and only the claims asked for are kept; the site collects the
 * outcome once: verified, declined (the wallet's error) or refused (the failed rule).
 */
export class PresentationRequests {
  private readonly clock: () => number;

  constructor(
    private readonly deps: PresentationRequestsDeps,
    private readonly options: PresentationRequestsOptions,
  ) {
    this.clock = options.clock ?? Date.now;
  }

  get clientId(): string {
    return this.deps.verifier.clientId;
  }

  requestUri(id: string): string {
    return `${this.options.publicUrl}/v2/auth/presentation-requests/${id}/request`;
  }

  responseUri(id: string): string {
    return `${this.options.publicUrl}/v2/auth/presentation-requests/${id}/response`;
  }

  async create(client: Client, input: NewPresentationRequest): Promise<CreatedPresentationRequest> {
    const key = await newEphemeralEncryptionKey(this.deps.sealer);
    const request: PresentationRequest = {
      clientId: client.id,
      dcqlQuery: input.dcqlQuery,
      ...(input.purpose === undefined ? {} : { purpose: input.purpose }),
      state: randomToken(),
      nonce: randomToken(),
      sealedEncryptionKey: key.sealed,
      encryptionJwk: key.publicJwk,
      fetched: false,
      status: 'pending',
      expiresAt: this.clock() + input.waitTimeSeconds * 1000,
    };
    const ttlMs = input.waitTimeSeconds * 1000 + this.options.resultGraceMs;
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      const id = randomToken();
      if (await this.deps.store.create(id, request, ttlMs)) {
        return {
          requestId: id,
          openid4vpUri:
            `openid4vp://?client_id=${encodeURIComponent(this.clientId)}` +
            `&request_uri=${encodeURIComponent(this.requestUri(id))}`,
          expiresInSeconds: input.waitTimeSeconds,
        };
      }
    }
    throw new Error('could not store a new presentation request');
  }

  /** GET <id>/request: the signed request object, once; then (or unknown, expired) 404. */
  async takeRequestObject(id: string): Promise<string> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      const stored = await this.readOpen(id);
      if (!stored || stored.request.fetched) throw this.walletUnknown(404);
      const { request } = stored;
      if (await this.deps.store.replace(id, stored, { ...request, fetched: true })) {
        return signRequestObject(this.deps.verifier, {
          responseUri: this.responseUri(id),
          nonce: request.nonce,
          state: request.state,
          dcqlQuery: request.dcqlQuery,
          encryptionJwk: request.encryptionJwk as JWK,
          now: this.clock(),
          expiresAt: request.expiresAt,
        });
      }
    }
    throw this.walletUnknown(404);
  }

  /**
   * POST <id>/response: the wallet's answer. An encrypted response (`response=<JWE>`) is
   * decrypted with the request's ephemeral key; its `state` (or an unencrypted error response's)
   * must be the request's, else 400 invalid_request and the request stays open. The first answer
   * claims the request (in Redis, and once for good in SQL); an error response declines it;
   * otherwise each presentation is verified: verified, the wallet gets `{}`; refused, 400
   * access_denied — either way the site learns the outcome.
   */
  async answer(id: string, form: WalletForm): Promise<void> {
    const stored = await this.readOpen(id);
    if (!stored || stored.request.status !== 'pending') throw this.walletUnknown(400);
    const payload: Record<string, unknown> =
      'response' in form
        ? await decryptResponse(
            form.response,
            JSON.parse(this.deps.sealer.open(stored.request.sealedEncryptionKey)) as JWK,
          )
        : form;
    const state = payload.state;
    if (typeof state !== 'string' || !sameSecret(state, stored.request.state)) {
      throw new OAuthError(400, 'invalid_request', 'state is missing or not this request’s');
    }
    const claimed = await this.claim(id, stored);
    if (typeof payload.error === 'string') {
      await this.settle(id, claimed, { status: 'declined', error: payload.error.slice(0, 256) });
      return;
    }
    const outcome = await this.verify(id, claimed.request, payload.vp_token);
    await this.settle(id, claimed, outcome);
    if (outcome.status !== 'verified') {
      throw new OAuthError(400, 'access_denied', 'The presentation was not accepted');
    }
  }

  /**
   * The site's result: the outcome once (verified, declined, refused); pending: 401; unknown,
   * another client's, expired unanswered or already collected: 400 (one answer for all).
   */
  async result(client: Client, id: string): Promise<PresentationOutcome> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      const stored = REQUEST_ID.test(id) ? await this.deps.store.read(id) : undefined;
      if (!stored || stored.request.clientId !== client.id)
        throw new PresentationRequestUnknownError();
      const { request } = stored;
      if (request.status === 'pending' || request.status === 'answering') {
        if (this.clock() >= request.expiresAt) throw new PresentationRequestUnknownError();
        throw new PresentationRequestPendingError();
      }
      if (request.status === 'collected' || !request.outcome)
        throw new PresentationRequestUnknownError();
      const { outcome, ...rest } = request;
      if (await this.deps.store.replace(id, stored, { ...rest, status: 'collected' }))
        return outcome;
    }
    throw new PresentationRequestUnknownError();
  }

  /** The request when its id is well-formed, it exists and has not expired. */
  private async readOpen(id: string): Promise<StoredPresentationRequest | undefined> {
    if (!REQUEST_ID.test(id)) return undefined;
    const stored = await this.deps.store.read(id);
    if (!stored || this.clock() >= stored.request.expiresAt) return undefined;
    return stored;
  }

  /**
   * pending → answering (of concurrent answers on any instance exactly one gets here), then the
   * one-time mark in SQL: an answer replayed to a Redis that went back in time is refused.
   */
  private async claim(
    id: string,
    stored: StoredPresentationRequest,
  ): Promise<StoredPresentationRequest> {
    const next: PresentationRequest = { ...stored.request, status: 'answering' };
    if (!(await this.deps.store.replace(id, stored, next))) throw this.walletUnknown(400);
    const now = this.clock();
    const marked = await this.deps.marks.mark(
      oneTimeKey('presentation-response', id),
      stored.request.expiresAt + this.options.resultGraceMs,
      now,
    );
    if (!marked) throw this.walletUnknown(400);
    return { raw: JSON.stringify(next), request: next };
  }

  /** Each presentation checked; a refusal becomes the outcome naming its rule. */
  private async verify(
    id: string,
    request: PresentationRequest,
    vpToken: unknown,
  ): Promise<PresentationOutcome> {
    try {
      const credentials = await verifyVpToken(vpToken, request.dcqlQuery, this.deps.verifiers, {
        clientId: this.clientId,
        nonce: request.nonce,
        responseUri: this.responseUri(id),
        jwkThumbprint: await jwkThumbprintBytes(request.encryptionJwk as JWK),
      });
      return { status: 'verified', credentials };
    } catch (err) {
      if (err instanceof PresentationRefusedError) {
        this.deps.logger.info({ rule: err.rule }, 'presentation request: presentation refused');
        return { status: 'refused', error: 'access_denied', rule: err.rule };
      }
      // A presentation the verifiers could not even read is the wallet's fault, never a 500;
      // only the error's name and message are logged (no presentation, no key).
      const { name, message } = err instanceof Error ? err : new Error(String(err));
      this.deps.logger.warn(
        { err: { name, message } },
        'presentation request: presentation unverifiable',
      );
      return { status: 'refused', error: 'access_denied', rule: UNVERIFIABLE_RULE };
    }
  }

  /** answering → done with its outcome (only this answer holds the claim). */
  private async settle(
    id: string,
    claimed: StoredPresentationRequest,
    outcome: PresentationOutcome,
  ): Promise<void> {
    const done: PresentationRequest = { ...claimed.request, status: 'done', outcome };
    if (!(await this.deps.store.replace(id, claimed, done))) {
      this.deps.logger.warn('presentation request changed while it was answered');
      throw this.walletUnknown(400);
    }
  }

  private walletUnknown(status: 400 | 404): OAuthError {
    return new OAuthError(status, 'invalid_request', UNKNOWN);
  }
}
