// @peculiar/x509 (through @itp/x509) needs reflect-metadata first; see wire-presentation-requests.ts.
import 'reflect-metadata';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { CompactEncrypt, decodeJwt, importJWK, type JWK } from 'jose';
import type { Logger } from '@itp/service-kit';
import { MemoryKvStore, type OneTimeMarks } from '@itp/stores';
import { createCa, issueLeaf } from '@itp/x509';
import type { Client } from '../clients/client.js';
import { KeySealer } from './ephemeral-encryption-key.js';
import { PresentationRequestStore } from './presentation-request-store.js';
import { PresentationRequests, UNVERIFIABLE_RULE } from './presentation-requests.js';
import { parseSiteDcqlQuery } from './site-dcql-query.js';
import { verifierIdentity } from './verifier-identity.js';

// A verifier that fails on a presentation other than by refusing it (a library bug, input it
// cannot read): the wallet gets 400 access_denied, the site 'refused' with rule 'unverifiable',
// never a 500; the log holds the error's name and message, not the presentation.
const SECRET_PRESENTATION = 'eyJ-secret-presentation';
const logged: unknown[] = [];
const logger = {
  info: (...args: unknown[]) => logged.push(args),
  warn: (...args: unknown[]) => logged.push(args),
} as unknown as Logger;
const marks = new Set<string>();
const oneTimeMarks: OneTimeMarks = {
  mark: (key) => Promise.resolve(!marks.has(key) && Boolean(marks.add(key))),
  isMarked: (key) => Promise.resolve(marks.has(key)),
};
const site = { id: 'shop' } as Client;
let requests: PresentationRequests;

beforeAll(async () => {
  const ca = await createCa({ subject: 'CN=Verifier CA' });
  const leaf = await issueLeaf(ca, {
    subject: 'CN=api.example.test',
    dnsNames: ['api.example.test'],
  });
  const verifier = await verifierIdentity(leaf.privateKeyJwk as JWK, leaf.x5c, 'api.example.test');
  requests = new PresentationRequests(
    {
      store: new PresentationRequestStore(new MemoryKvStore()),
      marks: oneTimeMarks,
      verifier,
      sealer: new KeySealer('test-sealing-secret'),
      verifiers: {
        sdJwtVc: () => Promise.reject(new TypeError('cannot read this')),
        mdoc: () => Promise.reject(new TypeError('cannot read this')),
        jwtVc: () => Promise.reject(new TypeError('cannot read this')),
      },
      logger,
    },
    { publicUrl: 'https://api.example.test', resultGraceMs: 30_000 },
  );
});

describe('PresentationRequests with a verifier that throws', () => {
  it('refuses the presentation as unverifiable (400 access_denied), tells the site, logs no presentation', async () => {
    const created = await requests.create(site, {
      dcqlQuery: parseSiteDcqlQuery({
        credentials: [{ id: 'pid', format: 'dc+sd-jwt', meta: { vct_values: ['urn:x'] } }],
      }),
      waitTimeSeconds: 60,
    });
    const claims = decodeJwt(await requests.takeRequestObject(created.requestId));
    const [encKey] = (claims.client_metadata as { jwks: { keys: JWK[] } }).jwks.keys;
    const jwe = await new CompactEncrypt(
      new TextEncoder().encode(
        JSON.stringify({ vp_token: { pid: [SECRET_PRESENTATION] }, state: claims.state }),
      ),
    )
      .setProtectedHeader({ alg: 'ECDH-ES', enc: 'A256GCM' })
      .encrypt(await importJWK(encKey as JWK, 'ECDH-ES'));
    const err = await requests
      .answer(created.requestId, { response: jwe })
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 400, error: 'access_denied' });
    await expect(requests.result(site, created.requestId)).resolves.toEqual({
      status: 'refused',
      error: 'access_denied',
      rule: UNVERIFIABLE_RULE,
    });
    expect(JSON.stringify(logged)).toContain('cannot read this');
    expect(JSON.stringify(logged)).not.toContain(SECRET_PRESENTATION);
    // Answered once: the same response again is refused as unknown.
    await expect(requests.answer(created.requestId, { response: jwe })).rejects.toMatchObject({
      status: 400,
      error: 'invalid_request',
    });
  });
});
