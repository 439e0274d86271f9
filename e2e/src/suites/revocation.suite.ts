/**
 * Revocation (W3C Bitstring Status List v1.0) through the gateway, checked as a third party
 * checks it: the status list is fetched with plain fetch, its JWT and the VC's are verified with
 * did-jwt-vc over ethr-did-resolver on the stack's chain, and the list is decoded with the W3C
 * list's own decoder (@digitalbazaar/vc-bitstring-status-list). Nothing of this platform's code
 * reads a list here.
 */
import { describe, expect, it } from '@jest/globals';
import { decodeList } from '@digitalbazaar/vc-bitstring-status-list';
import { ES256KSigner, hexToBytes } from 'did-jwt';
import { createVerifiableCredentialJwt, verifyCredential } from 'did-jwt-vc';
import type { Resolvable } from 'did-resolver';
import { Wallet } from 'ethers';
import { thirdPartyResolver } from '../did-ethr.js';
import { DEMO_SITE, DEMO_USER, bearerOfDemoUser, credentialAndPresentation } from '../flows.js';
import { basicAuth, post, type Json } from '../http.js';
import type { Suite } from './context.js';

const VC_CONTEXT = 'https://www.w3.org/2018/credentials/v1';
const STATUS_CONTEXT = 'https://www.w3.org/ns/credentials/status/v1';
/** The smallest list the W3C Bitstring Status List allows (herd privacy). */
const MIN_LIST_LENGTH = 131_072;
const site = { authorization: basicAuth(DEMO_SITE.id, DEMO_SITE.secret) };

/** `credentialStatus` of a VC (Bitstring Status List §2.1). */
interface StatusEntry {
  id: string;
  type: string;
  statusPurpose: string;
  statusListIndex: string;
  statusListCredential: string;
}

interface ListRead {
  /** the VC's bit: true = revoked */
  revoked: boolean;
  jwt: string;
  etag: string | null;
  cacheControl: string | null;
}

/**
 * Reads the VC's bit as any verifier does: GET the list URL, verify the list credential's JWT
 * (signed by the VC's issuer, about this list and purpose), decode `encodedList`, read the bit at
 * `statusListIndex`.
 */
async function readStatus(
  resolver: Resolvable,
  entry: StatusEntry,
  vcIssuer: string,
): Promise<ListRead> {
  const res = await fetch(entry.statusListCredential);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^application\/vc\+jwt\b/);
  const jwt = (await res.text()).trim();
  const verified = await verifyCredential(jwt, resolver);
  expect(verified.issuer).toBe(vcIssuer);
  const list = verified.verifiableCredential;
  expect(list.type).toEqual(expect.arrayContaining(['BitstringStatusListCredential']));
  expect(list.credentialSubject).toMatchObject({
    id: `${entry.statusListCredential}#list`,
    type: 'BitstringStatusList',
    statusPurpose: entry.statusPurpose,
    encodedList: expect.stringMatching(/^u[A-Za-z0-9_-]+$/),
  });
  const bits = await decodeList({ encodedList: list.credentialSubject['encodedList'] as string });
  expect(bits.length).toBeGreaterThanOrEqual(MIN_LIST_LENGTH);
  return {
    revoked: bits.getStatus(Number(entry.statusListIndex)),
    jwt,
    etag: res.headers.get('etag'),
    cacheControl: res.headers.get('cache-control'),
  };
}

/** A VC JWT signed by a key that is not the platform's, naming `entry` as its status. */
async function foreignCredentialJwt(holder: string, entry: StatusEntry): Promise<string> {
  const key = Wallet.createRandom();
  return createVerifiableCredentialJwt(
    {
      sub: holder,
      vc: {
        '@context': [VC_CONTEXT, STATUS_CONTEXT],
        type: ['VerifiableCredential'],
        credentialSubject: { sub: DEMO_USER.id },
        credentialStatus: entry,
      },
    },
    {
      did: `did:ethr:${key.address}`,
      signer: ES256KSigner(hexToBytes(key.privateKey)),
      alg: 'ES256K',
    },
  );
}

/**
 * /v2/did/revoke-vc and the status lists through the gateway, read with third-party code only: a
 * VC's Bitstring Status List read by a third party; revoking flips the bit and refuses the VC and
 * a login with it.
 */
export const revocationSuite: Suite = ({ stack }) => {
  describe('revocation through the gateway (W3C Bitstring Status List)', () => {
    it('issues a VC whose status a third party reads; revoking it flips the bit, and the platform refuses the VC and a login with it', async () => {
      const gw = stack().gatewayUrl;
      const resolver = thirdPartyResolver(stack());
      const bearer = await bearerOfDemoUser(gw);
      const { did, credential, presentation } = await credentialAndPresentation(
        gw,
        bearer,
        'revocation-flow',
      );

      // The VC: data model 1.1 with the status context, and its entry in a list of this gateway.
      expect(credential['@context'][0]).toBe(VC_CONTEXT);
      expect(credential['@context']).toContain(STATUS_CONTEXT);
      const entry = credential.credentialStatus as StatusEntry;
      expect(entry).toEqual({
        id: `${entry.statusListCredential}#${entry.statusListIndex}`,
        type: 'BitstringStatusListEntry',
        statusPurpose: 'revocation',
        statusListIndex: expect.stringMatching(/^(0|[1-9][0-9]*)$/),
        statusListCredential: expect.stringMatching(/\/v2\/did\/status-lists\/[^/?#]+$/),
      });
      expect(entry.statusListCredential.startsWith(`${gw}/v2/did/status-lists/`)).toBe(true);

      // A third party verifies the VC's JWT: it carries the same status entry.
      const vc = await verifyCredential(credential.proof.jwt as string, resolver);
      expect(vc.verifiableCredential['@context']).toContain(STATUS_CONTEXT);
      expect(vc.verifiableCredential.credentialStatus).toEqual(entry);
      const issuer = vc.issuer;

      const before = await readStatus(resolver, entry, issuer);
      expect(before.revoked).toBe(false);
      expect(before.cacheControl).toMatch(/\bmax-age=300\b/);
      expect(before.etag).toBeTruthy();
      expect((await post(`${gw}/v2/did/verify-vp`, presentation)).body.verified).toBe(true);

      // Nobody revokes without the holder's user token, nor with a VC the platform did not issue
      // that names this VC's bit (the bit stays 0).
      const anonymous = await post(`${gw}/v2/did/revoke-vc`, { vc: credential });
      expect(anonymous).toMatchObject({ status: 401, body: { error: { code: '401' } } });
      const forged = await post(
        `${gw}/v2/did/revoke-vc`,
        { jwt: await foreignCredentialJwt(did, entry) },
        bearer,
      );
      expect(forged).toMatchObject({ status: 400, body: { error: { code: '400' } } });
      expect((await readStatus(resolver, entry, issuer)).revoked).toBe(false);

      // The holder's user revokes it.
      const revoked = await post(`${gw}/v2/did/revoke-vc`, { vc: credential }, bearer);
      expect(revoked.status).toBe(200);
      const answer = {
        revoked: true,
        statusListCredential: entry.statusListCredential,
        statusListIndex: entry.statusListIndex,
      };
      expect(revoked.body).toEqual(answer);

      // A fresh read of the list: a new JWT whose bit is 1.
      const after = await readStatus(resolver, entry, issuer);
      expect(after.revoked).toBe(true);
      expect(after.jwt).not.toBe(before.jwt);

      // The platform's own verifier sees it at once: verify-vc, verify-vp, VP login.
      const verifyVc = await post(`${gw}/v2/did/verify-vc`, credential);
      expect(verifyVc.status).toBe(200);
      expect(verifyVc.body).toMatchObject({ verified: false, error: { code: 'revoked' } });
      const verifyVp = await post(`${gw}/v2/did/verify-vp`, presentation);
      expect(verifyVp.body).toMatchObject({ verified: false, error: { code: 'revoked' } });

      const request = await post(
        `${gw}/v2/auth/auth-user-by-app`,
        { requestId: `${DEMO_SITE.requestIdPrefix}revoked?`, waitTime: 60 },
        site,
      );
      expect(request.status).toBe(200);
      const { requestId } = request.body as { requestId: string };
      const login = await post(`${gw}/v2/auth/auth-user-with-vp`, { vp: presentation, requestId });
      expect(login).toMatchObject({ status: 401, body: { error: { code: '401' } } });
      expect(login.body.error.message).toMatch(/revoked/);
      // The site's login request was not approved.
      const poll = await post(`${gw}/v2/auth/auth-user-result-by-app`, { requestId }, site);
      expect(poll.status).toBe(401);

      // Revoking again (here by its JWT) answers the same; the bit stays 1.
      const again = await post(`${gw}/v2/did/revoke-vc`, { jwt: credential.proof.jwt }, bearer);
      expect([again.status, again.body]).toEqual([200, answer]);
      expect((await readStatus(resolver, entry, issuer)).revoked).toBe(true);
    }, 120_000);

    it('serves the list with an ETag (304 until it changes) and as the API’s VC JSON', async () => {
      const gw = stack().gatewayUrl;
      const resolver = thirdPartyResolver(stack());
      const bearer = await bearerOfDemoUser(gw);
      const { credential } = await credentialAndPresentation(gw, bearer, 'revocation-etag');
      const entry = credential.credentialStatus as StatusEntry;
      const issuer = (await verifyCredential(credential.proof.jwt as string, resolver)).issuer;
      const url = entry.statusListCredential;

      const before = await readStatus(resolver, entry, issuer);
      const unchanged = await fetch(url, { headers: { 'if-none-match': before.etag ?? '' } });
      expect(unchanged.status).toBe(304);
      expect(await unchanged.text()).toBe('');

      expect((await post(`${gw}/v2/did/revoke-vc`, { vc: credential }, bearer)).status).toBe(200);
      const changed = await fetch(url, { headers: { 'if-none-match': before.etag ?? '' } });
      expect(changed.status).toBe(200);
      expect(changed.headers.get('etag')).not.toBe(before.etag);

      // The same credential as JSON (this API's VC shape, proof.jwt): the bit reads 1 there too.
      const res = await fetch(url, { headers: { accept: 'application/json' } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json\b/);
      expect(res.headers.get('cache-control')).toMatch(/\bmax-age=300\b/);
      const json = (await res.json()) as Json;
      expect(json.type).toEqual(expect.arrayContaining(['BitstringStatusListCredential']));
      expect(json.proof).toMatchObject({ type: 'JwtProof2020', jwt: expect.any(String) });
      const verified = await verifyCredential(json.proof.jwt as string, resolver);
      expect(verified.issuer).toBe(issuer);
      expect(verified.verifiableCredential.credentialSubject['encodedList']).toBe(
        json.credentialSubject.encodedList,
      );
      const bits = await decodeList({ encodedList: json.credentialSubject.encodedList as string });
      expect(bits.getStatus(Number(entry.statusListIndex))).toBe(true);
    }, 120_000);
  });
};
