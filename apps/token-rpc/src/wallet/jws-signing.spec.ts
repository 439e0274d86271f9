import { createHash } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { SigningKey, Wallet, recoverAddress } from 'ethers';
import { JwsRefusedError } from '../errors.js';
import { checkJwsSigningInput, signJwsInput } from './jws-signing.js';

const wallet = Wallet.createRandom();
const key = new SigningKey(wallet.privateKey);
const address = wallet.address;
const b64url = (value: unknown) =>
  Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
const jws = (header: unknown, payload: unknown) => `${b64url(header)}.${b64url(payload)}`;

describe('checkJwsSigningInput', () => {
  it('accepts ES256K and ES256K-R issued by did:ethr:<address>, in any address case', () => {
    expect(
      checkJwsSigningInput(jws({ alg: 'ES256K' }, { iss: `did:ethr:${address}` }), address),
    ).toBe('ES256K');
    expect(
      checkJwsSigningInput(
        jws({ alg: 'ES256K-R', typ: 'JWT' }, { iss: `did:ethr:${address.toLowerCase()}` }),
        address.toLowerCase(),
      ),
    ).toBe('ES256K-R');
  });

  it('accepts did:ethr:<network>:<address> (did-service with DID_NETWORK, ADR 0015)', () => {
    for (const iss of [`did:ethr:0x7a69:${address}`, `did:ethr:sepolia:${address.toLowerCase()}`]) {
      expect(checkJwsSigningInput(jws({ alg: 'ES256K' }, { iss }), address)).toBe('ES256K');
    }
  });

  it.each([
    ['a hex digest', `0x${'ab'.repeat(32)}`],
    ['three parts', `${jws({ alg: 'ES256K' }, { iss: `did:ethr:${address}` })}.sig`],
    ['a header that is not JSON', `${b64url('nope')}.${b64url({ iss: `did:ethr:${address}` })}`],
    ['a header that is an array', jws([{ alg: 'ES256K' }], { iss: `did:ethr:${address}` })],
    ['alg HS256', jws({ alg: 'HS256' }, { iss: `did:ethr:${address}` })],
    ['alg none', jws({ alg: 'none' }, { iss: `did:ethr:${address}` })],
    ['b64 false', jws({ alg: 'ES256K', b64: false }, { iss: `did:ethr:${address}` })],
    ['a payload that is not JSON', `${b64url({ alg: 'ES256K' })}.${b64url('raw bytes')}`],
    ['a payload without iss', jws({ alg: 'ES256K' }, { sub: `did:ethr:${address}` })],
    ['another did', jws({ alg: 'ES256K' }, { iss: `did:ethr:${Wallet.createRandom().address}` })],
    [
      'another did with a network',
      jws({ alg: 'ES256K' }, { iss: `did:ethr:0x7a69:${Wallet.createRandom().address}` }),
    ],
    ['an empty network', jws({ alg: 'ES256K' }, { iss: `did:ethr::${address}` })],
    ['a did with a fragment', jws({ alg: 'ES256K' }, { iss: `did:ethr:${address}#controller` })],
    ['a bare address', jws({ alg: 'ES256K' }, { iss: address })],
  ])('refuses %s (400)', (_what, signingInput) => {
    expect(() => checkJwsSigningInput(signingInput, address)).toThrow(JwsRefusedError);
  });
});

describe('signJwsInput', () => {
  const input = jws({ alg: 'ES256K' }, { iss: `did:ethr:${address}` });
  const digest = `0x${createHash('sha256').update(input).digest('hex')}`;

  it('ES256K: base64url r ‖ s over SHA-256 of the input, recovering the address', () => {
    const sig = signJwsInput(key, input, 'ES256K');
    const bytes = Buffer.from(sig.signature, 'base64url');
    expect(bytes).toHaveLength(64);
    expect(`0x${bytes.toString('hex')}`).toBe(`${sig.r}${sig.s.slice(2)}`);
    expect(recoverAddress(digest, { r: sig.r, s: sig.s, v: 27 + sig.recoveryParam })).toBe(address);
  });

  it('ES256K-R: r ‖ s ‖ recovery id', () => {
    const sig = signJwsInput(key, input, 'ES256K-R');
    const bytes = Buffer.from(sig.signature, 'base64url');
    expect(bytes).toHaveLength(65);
    expect(bytes[64]).toBe(sig.recoveryParam);
  });
});
