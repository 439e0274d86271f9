import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { globalAgent } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Resolver } from 'did-resolver';
import { getResolver } from 'web-did-resolver';
import { loadOrCreateDevPki } from '@itp/x509';
import type { SdJwtIssuerKeys } from './sd-jwt-issuer/sd-jwt-issuer-key.js';
import {
  startHttpsReverseProxy,
  type HttpsReverseProxy,
} from './sd-jwt-issuer/testing/https-reverse-proxy.js';
import { testIssuerPki, type TestIssuerPki } from './sd-jwt-issuer/testing/test-issuer-pki.js';
import { startDidHarness, type DidHarness } from './testing/did-harness.js';
import { runCliCaptured } from './testing/run-cli-captured.js';

// The SD-JWT VC issuer's public side on a real did-service (PostgreSQL, Redis, dev chain) behind
// an https reverse proxy at PUBLIC_URL https://localhost:<P>: its did:web resolves with the other
// side's resolver (web-did-resolver: https://localhost%3A<P>/.well-known/did.json, document id
// checked) to the key that signs; the dev CA is served in development only until a key is
// imported; auth-service's internal trust-anchors endpoint follows the same key.
describe('SD-JWT VC issuer: did:web, dev CA, trust anchors', () => {
  let tls: TestIssuerPki;
  let proxy: HttpsReverseProxy;
  let h: DidHarness;
  let dataDir: string;
  let publicUrl: string;
  let did: string;
  const kmsKey = randomBytes(32).toString('hex');
  const previousCa = globalAgent.options.ca;
  const resolver = new Resolver(getResolver());

  const keys = (): SdJwtIssuerKeys => {
    const keys = h.app.sdJwtIssuerKeys;
    if (!keys) throw new Error('SD-JWT VC issuance is off');
    return keys;
  };
  const getText = async (path: string) => {
    const res = await fetch(`${h.url}${path}`);
    return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
  };
  const trustAnchors = async (base: string, token = h.internalToken) => {
    const res = await fetch(`${base}/internal/v1/sd-jwt-issuer/trust-anchors`, {
      headers: { authorization: `Bearer ${token}` },
    });
    return { status: res.status, body: (await res.json()) as { certificates?: string[] } };
  };

  beforeAll(async () => {
    // The proxy's TLS certificate from a test CA the resolver's https agent trusts.
    tls = await testIssuerPki('localhost');
    globalAgent.options.ca = tls.caPem;
    proxy = await startHttpsReverseProxy({
      keyPem: tls.keyPem,
      certPem: tls.leafPem,
      target: () => h.url,
    });
    publicUrl = `https://localhost:${proxy.port}`;
    did = `did:web:localhost%3A${proxy.port}`;
    dataDir = mkdtempSync(join(tmpdir(), 'sd-jwt-issuer-app-'));
    h = await startDidHarness({
      APP_ENV: 'development',
      DATA_DIR: dataDir,
      PUBLIC_URL: publicUrl,
      DID_KMS_SECRET_KEY: kmsKey,
    });
  });
  afterAll(async () => {
    await h?.close();
    await proxy?.close();
    globalAgent.options.ca = previousCa;
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('development, nothing imported: the dev PKI issuer leaf signs; its did:web resolves to it', async () => {
    const current = await keys().current();
    const devPki = await loadOrCreateDevPki(join(dataDir, 'secrets'), {
      verifierHost: 'localhost',
    });
    expect(current.did).toBe(did);
    expect(current.x5c).toEqual(devPki.issuer.x5c.slice(0, 1));
    const { x, y } = devPki.issuer.privateKeyJwk;
    expect(current.publicJwk).toEqual({ kty: 'EC', crv: 'P-256', x, y });

    const resolved = await resolver.resolve(did);
    expect(resolved.didResolutionMetadata).toEqual({ contentType: 'application/did+ld+json' });
    expect(resolved.didDocument).toMatchObject({
      id: did,
      assertionMethod: [current.kid],
      verificationMethod: [
        {
          id: current.kid,
          type: 'JsonWebKey2020',
          controller: did,
          publicKeyJwk: current.publicJwk,
        },
      ],
    });
    expect(JSON.stringify(resolved.didDocument)).not.toContain(`"d"`);

    const ca = await getText('/v2/did/oid4vci/issuer-ca.pem');
    expect(ca).toEqual({
      status: 200,
      type: 'application/x-pem-file; charset=utf-8',
      text: devPki.caPem,
    });
    expect(await trustAnchors(h.internalUrl)).toEqual({
      status: 200,
      body: { certificates: [devPki.caPem] },
    });
    // The internal endpoint wants auth-service's token, and is not on the public port.
    expect((await trustAnchors(h.internalUrl, 'x'.repeat(40))).status).toBe(401);
    expect((await fetch(`${h.url}/internal/v1/sd-jwt-issuer/trust-anchors`)).status).toBe(404);
  });

  it('outside development with nothing imported: issuance off, no did:web, no dev CA', async () => {
    const parts = await h.buildWith({ APP_ENV: 'test' });
    try {
      expect(parts.sdJwtIssuerKeys).toBeUndefined();
      const { url, internalUrl = '' } = await parts.service.listen();
      const didJson = await fetch(`${url}/.well-known/did.json`);
      expect(didJson.status).toBe(404);
      expect(await didJson.json()).toEqual({
        error: {
          code: '404',
          message: 'No did:web is published: SD-JWT VC issuance is off (no issuer key imported)',
        },
      });
      const ca = await fetch(`${url}/v2/did/oid4vci/issuer-ca.pem`);
      expect(ca.status).toBe(404);
      expect(((await ca.json()) as { error: { message: string } }).error.message).toMatch(
        /No dev CA is served/,
      );
      expect(await trustAnchors(internalUrl)).toEqual({ status: 200, body: { certificates: [] } });
      expect(h.logs.join('')).toContain('SD-JWT VC issuance is off: no issuer key is imported');
    } finally {
      await parts.service.close();
    }
  });

  it('an imported key replaces the dev leaf: did:web names it, no dev CA, its root trusted', async () => {
    const issuer = await testIssuerPki('localhost');
    writeFileSync(join(dataDir, 'issuer.key'), issuer.keyPem);
    writeFileSync(join(dataDir, 'issuer.pem'), issuer.chainPem);
    const imported = await runCliCaptured(
      [
        'sd-jwt-issuer',
        'import',
        '--key',
        join(dataDir, 'issuer.key'),
        '--chain',
        join(dataDir, 'issuer.pem'),
        '--json',
      ],
      { DATABASE_URL: h.database.url, DID_KMS_SECRET_KEY: kmsKey, PUBLIC_URL: publicUrl },
    );
    expect(imported.code).toBe(0);
    const { thumbprint } = JSON.parse(imported.out).current as { thumbprint: string };
    // A restart reads it at once (a running replica within a minute: stored-sd-jwt-issuer-keys.spec).
    await h.restart();
    const current = await keys().current();
    expect(current.kid).toBe(`${did}#${thumbprint}`);
    expect(current.publicJwk).toEqual({
      kty: 'EC',
      crv: 'P-256',
      x: issuer.privateJwk.x,
      y: issuer.privateJwk.y,
    });
    const resolved = await resolver.resolve(did);
    expect(resolved.didDocument?.verificationMethod?.map((m) => m.publicKeyJwk)).toEqual([
      current.publicJwk,
    ]);
    expect(resolved.didDocument?.assertionMethod).toEqual([current.kid]);
    const ca = await fetch(`${h.url}/v2/did/oid4vci/issuer-ca.pem`);
    expect(ca.status).toBe(404);
    expect(await trustAnchors(h.internalUrl)).toEqual({
      status: 200,
      body: { certificates: [issuer.caPem] },
    });
    for (const line of h.logs) expect(line).not.toContain(issuer.privateJwk.d);
  });
});
