import { describe, expect, it } from '@jest/globals';
import { ES256KSigner, createJWT } from 'did-jwt';
import { Wallet } from 'ethers';
import { FLOW_STEPS } from './oidc-flow.js';
import { StepTimes, argon2Shares, recoveriesNote } from './scenarios.js';

describe('recoveriesNote (verify-vc)', () => {
  it('names the recovery id of an ES256K signature and the key recoveries did-jwt makes', async () => {
    const seen = new Set<number>();
    for (let i = 0; i < 12 && seen.size < 2; i++) {
      const wallet = Wallet.createRandom();
      const did = `did:ethr:0x7a69:${wallet.address}`;
      const key = Buffer.from(wallet.privateKey.slice(2), 'hex');
      // ES256K-R: the same signature with its recovery id appended, for the expected value.
      const recoverable = await createJWT(
        { n: i },
        { issuer: did, signer: ES256KSigner(key, true) },
        { alg: 'ES256K-R' },
      );
      const [, , sig] = recoverable.split('.');
      const bytes = Buffer.from(sig!, 'base64url');
      const id = bytes[64]!;
      const [h, p] = recoverable.split('.');
      const plain = `${h}.${p}.${bytes.subarray(0, 64).toString('base64url')}`;
      expect(recoveriesNote(plain)).toContain(`recovery id ${id} (${id + 1} key recover`);
      seen.add(id);
    }
    expect([...seen].sort()).toEqual([0, 1]);
  });

  it('says so when the signature belongs to no key of the issuer', async () => {
    const signer = Wallet.createRandom();
    const other = Wallet.createRandom();
    const jwt = await createJWT(
      {},
      {
        issuer: `did:ethr:${other.address}`,
        signer: ES256KSigner(Buffer.from(signer.privateKey.slice(2), 'hex')),
      },
      { alg: 'ES256K' },
    );
    expect(recoveriesNote(jwt)).toBe('the credential signature recovers to no key of its issuer');
  });
});

describe('argon2Shares and StepTimes (oidc-login)', () => {
  it('names argon2’s share of a flow’s time, of its form post and of the machine’s verifies', () => {
    expect(
      argon2Shares({
        flowMeanMs: 40,
        formPostMeanMs: 14,
        verifyMeanMs: 10,
        flows: 600,
        verifies: 2000,
      }),
    ).toEqual({ ofFlowTime: 25, ofFormPost: 71, ofCapacity: 30 });
    expect(
      argon2Shares({
        flowMeanMs: 0,
        formPostMeanMs: 0,
        verifyMeanMs: 10,
        flows: 0,
        verifies: 0,
      }),
    ).toEqual({ ofFlowTime: 0, ofFormPost: 0, ofCapacity: 0 });
  });

  it('sums each step of many flows into its mean and percentiles, in FLOW_STEPS order', () => {
    const steps = new StepTimes();
    for (let i = 1; i <= 100; i++) steps.add([i, 2 * i, 3, 4]);
    const summary = steps.summary();
    expect(summary.map((s) => s.step)).toEqual([...FLOW_STEPS]);
    expect(summary[0]).toMatchObject({ meanMs: 50.5, p50: 51, p99: 100 });
    expect(summary[1]).toMatchObject({ meanMs: 101, p50: 102, p99: 200 });
    expect(summary[3]).toMatchObject({ meanMs: 4, p50: 4, p99: 4 });
    expect(new StepTimes().summary()[0]).toMatchObject({ meanMs: 0, p50: 0, p99: 0 });
  });
});
