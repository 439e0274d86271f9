/**
 * `itp login approve --oid4vp` against a stand-in verifier: a local HTTP server that serves a
 * request object signed here (`Openid4vpVerifier`, ES256K, a did:ethr key resolved through a
 * registry on the test chain) once, and records what the wallet posts to its response URI.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Openid4vpVerifier } from '@openid4vc/openid4vp';
import type { JwtHeader, JwtPayload, JwtSigner } from '@openid4vc/oauth2';
import { setGlobalConfig } from '@openid4vc/utils';
import { ES256KSigner, decodeJWT, hexToBytes } from 'did-jwt';
import { createVerifiableCredentialJwt, verifyPresentation } from 'did-jwt-vc';
import { Resolver } from 'did-resolver';
import { HDNodeWallet, Wallet } from 'ethers';
import { getResolver } from 'ethr-did-resolver';
import type { ItpClient } from '@itp/client';
import { DEV_CHAIN, deployDidRegistry } from '@itp/dev-chain';
import { testChainUrl, waitFor } from '@itp/testing';
import { runCli } from '../run-cli.js';

const CHAIN_ID = DEV_CHAIN.chainId;

/**
 * The ERC-1056 registry on the shared test chain, deployed by dev account #5 (the CLI's specs'
 * own, so that nobody else's nonces collide); a lost race on the first deployment is retried.
 */
async function ensureRegistry(rpcUrl: string): Promise<string> {
  const deployer = HDNodeWallet.fromPhrase(DEV_CHAIN.mnemonic, undefined, "m/44'/60'/0'/0/5");
  return waitFor(() => deployDidRegistry(rpcUrl, deployer.privateKey), {
    what: 'the DID registry to be deployed on the test chain (dev account #5)',
    timeoutMs: 10_000,
    intervalMs: 200,
  });
}

/** A secp256k1 key and its address (what Wallet.createRandom() makes). */
interface Key {
  address: string;
  privateKey: string;
}

const didOf = (wallet: Key) => `did:ethr:${wallet.address}`;

/** A compact ES256K JWT signed with a did:ethr key (what the verifier's signJwt does). */
async function signCompact(key: Key, header: JwtHeader, payload: JwtPayload): Promise<string> {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const input = `${part(header)}.${part(payload)}`;
  const signature = await ES256KSigner(hexToBytes(key.privateKey.slice(2)))(input);
  return `${input}.${String(signature)}`;
}

interface Posted {
  contentType: string | undefined;
  form: URLSearchParams;
}

/** The stand-in verifier: one request object per id (served once), the posted responses. */
class StandInVerifier {
  readonly key = Wallet.createRandom();
  readonly clientId = `decentralized_identifier:${didOf(this.key)}`;
  readonly posted: Posted[] = [];
  /** The key that signs the request objects (another one than `key` forges them). */
  signWith: Key = this.key;
  answer: { status: number; body: unknown } = { status: 200, body: {} };
  private readonly objects = new Map<string, string>();
  private server: Server | undefined;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        const [, kind, id] = (req.url ?? '').match(/^\/(request|response)\/([\w-]+)$/) ?? [];
        if (req.method === 'GET' && kind === 'request' && this.objects.has(id ?? '')) {
          const jwt = this.objects.get(id ?? '') as string;
          this.objects.delete(id ?? '');
          res.writeHead(200, { 'content-type': 'application/oauth-authz-req+jwt' });
          return void res.end(jwt);
        }
        if (req.method === 'POST' && kind === 'response') {
          this.posted.push({
            contentType: req.headers['content-type'],
            form: new URLSearchParams(body),
          });
          res.writeHead(this.answer.status, { 'content-type': 'application/json' });
          return void res.end(JSON.stringify(this.answer.body));
        }
        res.writeHead(404).end();
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    await new Promise((resolve) => this.server?.close(resolve));
  }

  /** A new signed request (as auth-service makes them, contract §8): its openid4vp:// URI. */
  async request(id: string, nonce: string, state: string): Promise<string> {
    const verifier = new Openid4vpVerifier({
      callbacks: {
        signJwt: async (_signer: JwtSigner, jwt) => ({
          jwt: await signCompact(this.signWith, jwt.header, jwt.payload),
          signerJwk: { kty: 'EC', crv: 'secp256k1' },
        }),
        hash: () => new Uint8Array(),
        verifyJwt: () => ({ verified: false }),
        decryptJwe: () => ({ decrypted: false }),
        encryptJwe: () => {
          throw new Error('no encryption');
        },
      },
    });
    // http URLs on loopback for making the request only: the wallet has to allow them itself.
    setGlobalConfig({ allowInsecureUrls: true });
    const created = await verifier.createOpenId4vpAuthorizationRequest({
      authorizationRequestPayload: {
        response_type: 'vp_token',
        client_id: this.clientId,
        response_mode: 'direct_post',
        response_uri: `${this.url}/response/${id}`,
        nonce,
        state,
        dcql_query: {
          credentials: [
            {
              id: 'profile',
              format: 'jwt_vc_json',
              meta: { type_values: [['VerifiableCredential', 'Profile']] },
            },
          ],
        },
      },
      jar: {
        requestUri: `${this.url}/request/${id}`,
        jwtSigner: { method: 'did', didUrl: `${didOf(this.key)}#controller`, alg: 'ES256K' },
        expiresInSeconds: 300,
        additionalJwtPayload: { aud: 'https://self-issued.me/v2' },
      },
    });
    setGlobalConfig({ allowInsecureUrls: false });
    this.objects.set(id, created.jar?.authorizationRequestJwt ?? '');
    return created.authorizationRequest;
  }
}

async function run(argv: string[], env: Record<string, string> = {}) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(
    argv,
    {
      env,
      stdin: Readable.from([]),
      stdout: { write: (chunk: string) => ((stdout += chunk), true) },
      stderr: { write: (chunk: string) => ((stderr += chunk), true) },
    },
    {
      createClient: () => ({}) as unknown as ItpClient,
      findAdminCli: () => {
        throw new Error('no operator CLI in this test');
      },
      runAdminCli: async () => 0,
    },
  );
  return { code, stdout, stderr };
}

describe('itp login approve --oid4vp (a stand-in verifier)', () => {
  const verifier = new StandInVerifier();
  const holder = Wallet.createRandom();
  const issuer = Wallet.createRandom();
  const dir = mkdtempSync(join(tmpdir(), 'itp-oid4vp-'));
  let chainUrl: string;
  let registry: string;
  let resolver: Resolver;
  let vcJwt: string;

  beforeAll(async () => {
    chainUrl = testChainUrl();
    registry = await ensureRegistry(chainUrl);
    resolver = new Resolver(
      getResolver({
        networks: [{ name: 'mainnet', chainId: CHAIN_ID, rpcUrl: chainUrl, registry }],
      }),
    );
    await verifier.start();
    vcJwt = await createVerifiableCredentialJwt(
      {
        sub: didOf(holder),
        vc: {
          '@context': ['https://www.w3.org/2018/credentials/v1'],
          type: ['VerifiableCredential', 'Profile'],
          credentialSubject: { id: didOf(holder), sub: 'demo', name: 'Demo User' },
        },
      },
      {
        did: didOf(issuer),
        signer: ES256KSigner(hexToBytes(issuer.privateKey.slice(2))),
        alg: 'ES256K',
      },
    );
    // As `itp vc issue` prints it (the JSON with proof.jwt), and a compact JWT file.
    writeFileSync(
      join(dir, 'vc.json'),
      JSON.stringify({
        credentialSubject: { id: didOf(holder) },
        proof: { type: 'JwtProof2020', jwt: vcJwt },
      }),
    );
    writeFileSync(join(dir, 'holder.key'), `${holder.privateKey}\n`);
  }, 60_000);

  afterAll(async () => {
    await verifier.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const approve = (uri: string, extra: string[] = []) =>
    run([
      'login',
      'approve',
      '--oid4vp',
      uri,
      '--key-file',
      join(dir, 'holder.key'),
      '--vc',
      join(dir, 'vc.json'),
      '--chain-url',
      chainUrl,
      '--registry',
      registry,
      ...extra,
    ]);

  it("posts a VP JWT of the holder with the request's nonce, the full client id as aud, and the state", async () => {
    verifier.answer = { status: 200, body: {} };
    const uri = await verifier.request('r1', 'nonce-r1', 'state-r1');
    expect(uri).toMatch(/^openid4vp:\/\/\?client_id=decentralized_identifier%3Adid%3Aethr%3A/);
    const result = await approve(uri, ['--json']);
    expect(result.stderr).toContain(`approved: ${verifier.clientId}`);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      approved: true,
      clientId: verifier.clientId,
      responseUri: `${verifier.url}/response/r1`,
      holder: didOf(holder),
      credentialQueryId: 'profile',
      status: 200,
    });

    const posted = verifier.posted.at(-1) as Posted;
    expect(posted.contentType).toMatch(/^application\/x-www-form-urlencoded/);
    expect(posted.form.get('state')).toBe('state-r1');
    const vpToken = JSON.parse(posted.form.get('vp_token') ?? '') as Record<string, string[]>;
    expect(Object.keys(vpToken)).toEqual(['profile']);
    const [vpJwt] = vpToken.profile as [string];
    const { payload, header } = decodeJWT(vpJwt);
    expect(header).toMatchObject({ alg: 'ES256K', kid: `${didOf(holder)}#controller` });
    expect(payload).toMatchObject({
      iss: didOf(holder),
      aud: verifier.clientId,
      nonce: 'nonce-r1',
    });
    expect((payload as { vp: { verifiableCredential: string[] } }).vp.verifiableCredential).toEqual(
      [vcJwt],
    );
    // Signed by the holder's did:ethr key (resolved on the chain), for this verifier and nonce.
    const verified = await verifyPresentation(vpJwt, resolver, {
      domain: verifier.clientId,
      challenge: 'nonce-r1',
    });
    expect(verified.issuer).toBe(didOf(holder));
  }, 60_000);

  it("prints the verifier's refusal and exits 1", async () => {
    verifier.answer = {
      status: 400,
      body: { error: 'access_denied', error_description: 'the credential is revoked' },
    };
    const uri = await verifier.request('r2', 'nonce-r2', 'state-r2');
    const result = await approve(uri);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/approved\s+false/);
    expect(result.stderr).toContain(
      'error [access_denied]: the verifier refused the presentation: the credential is revoked',
    );
  }, 60_000);

  it("posts nothing when the URI's client_id is not the request object's", async () => {
    const before = verifier.posted.length;
    const uri = await verifier.request('r3', 'nonce-r3', 'state-r3');
    const impostor = new StandInVerifier();
    // The same request URI, but a client id of another DID than the one that signed it.
    const forged = uri.replace(
      encodeURIComponent(verifier.clientId),
      encodeURIComponent(impostor.clientId),
    );
    const result = await approve(forged);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^error \[invalid_request\]: the request does not resolve or verify/,
    );
    expect(verifier.posted.length).toBe(before);
  }, 60_000);

  it("posts nothing when another key signed the request object in the client id's name", async () => {
    const before = verifier.posted.length;
    verifier.signWith = Wallet.createRandom();
    try {
      const uri = await verifier.request('r5', 'nonce-r5', 'state-r5');
      const result = await approve(uri);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(
        /^error \[invalid_request\]: the request does not resolve or verify/,
      );
      expect(verifier.posted.length).toBe(before);
    } finally {
      verifier.signWith = verifier.key;
    }
  }, 60_000);

  it('posts nothing with a key of another address than the credential holder: names both addresses', async () => {
    const before = verifier.posted.length;
    // A wallet's secretKey read as a key is the key of some unrelated address, like this one.
    const other = Wallet.createRandom();
    writeFileSync(join(dir, 'other.key'), other.privateKey);
    const uri = await verifier.request('r4', 'nonce-r4', 'state-r4');
    const result = await approve(uri, ['--key-file', join(dir, 'other.key')]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('error [no_matching_credential]');
    expect(result.stderr).toContain(
      `--key-file ${join(dir, 'other.key')} is the key of ${other.address} (did:ethr:${other.address})`,
    );
    expect(result.stderr).toContain(
      `--vc ${join(dir, 'vc.json')} is issued to ${holder.address} (did:ethr:${holder.address})`,
    );
    expect(result.stderr).toContain("a wallet's secretKey is not its Ethereum key");
    expect(verifier.posted.length).toBe(before);
  }, 60_000);

  it('says what is missing: the chain, a VC, an openid4vp:// URI', async () => {
    const base = ['login', 'approve', '--key-file', join(dir, 'holder.key')];
    const noChain = await run([...base, '--oid4vp', 'openid4vp://?x', '--vc', 'vc.json']);
    expect(noChain.code).toBe(2);
    expect(noChain.stderr).toContain('give --chain-url or ITP_CHAIN_URL');
    const noVc = await run([...base, '--oid4vp', 'openid4vp://?x']);
    expect(noVc.stderr).toContain('login approve needs at least one --vc <file>');
    const notOid4vp = await run([...base, '--oid4vp', 'https://x', '--vc', 'v']);
    expect(notOid4vp.stderr).toContain('--oid4vp must be an openid4vp:// URI');
  });
});
