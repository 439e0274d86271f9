import { pack } from '@sd-jwt/core';
import { digest, generateSalt } from '@sd-jwt/crypto-nodejs';
import { checkDisclosures } from './check-disclosures.js';

/** A payload and its disclosures packed by `@sd-jwt/core` (the issuer's side). */
async function packed<T extends Record<string, unknown>>(
  claims: T,
  frame: Parameters<typeof pack<T>>[1],
) {
  const { packedClaims, disclosures } = await pack(
    claims,
    frame,
    { hasher: digest, alg: 'sha-256' },
    generateSalt,
  );
  return {
    payload: { ...(packedClaims as Record<string, unknown>), _sd_alg: 'sha-256' },
    disclosures: disclosures.map((d) => d.encode()),
  };
}

function refusal(run: () => void): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}

const encode = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');
const nameOf = (disclosure: string): unknown =>
  (JSON.parse(Buffer.from(disclosure, 'base64url').toString()) as unknown[])[1];

describe('checkDisclosures', () => {
  it('accepts nested disclosures and array elements the issuer hashed in', async () => {
    const { payload, disclosures } = await packed(
      { address: { locality: 'Berlin', country: 'DE' }, nationalities: ['DE', 'FR'] },
      {
        _sd: ['address', 'nationalities'],
        address: { _sd: ['locality'] },
        nationalities: { _sd: [0, 1] },
      },
    );
    expect(() => checkDisclosures(payload, disclosures)).not.toThrow();
    expect(() => checkDisclosures(payload, [])).not.toThrow();
  });

  it('refuses a nested disclosure presented without the disclosure that lists it', async () => {
    const { payload, disclosures } = await packed(
      { address: { locality: 'Berlin' } },
      { _sd: ['address'], address: { _sd: ['locality'] } },
    );
    const onlyChild = disclosures.filter((d) => nameOf(d) === 'locality');
    expect(onlyChild).toHaveLength(1);
    expect(refusal(() => checkDisclosures(payload, onlyChild))).toMatchObject({
      rule: 'disclosure',
    });
  });

  it('refuses the same disclosure presented twice', async () => {
    const { payload, disclosures } = await packed({ given_name: 'Erika' }, { _sd: ['given_name'] });
    const twice = [disclosures[0] ?? '', disclosures[0] ?? ''];
    expect(refusal(() => checkDisclosures(payload, twice))).toMatchObject({ rule: 'disclosure' });
  });

  it('refuses a disclosure naming a reserved claim (_sd, ..., __proto__)', async () => {
    const { payload } = await packed({ given_name: 'Erika' }, { _sd: ['given_name'] });
    for (const name of ['_sd', '...', '__proto__']) {
      expect(refusal(() => checkDisclosures(payload, [encode(['salt', name, 'x'])]))).toMatchObject(
        {
          rule: 'disclosure',
        },
      );
    }
  });

  it('refuses a disclosure that is not [salt, (name,) value]', async () => {
    const { payload } = await packed({ given_name: 'Erika' }, { _sd: ['given_name'] });
    for (const bad of [
      encode({ salt: 's' }),
      encode(['s']),
      encode(['s', 'a', 'b', 'c']),
      'bm90IGpzb24',
    ]) {
      expect(refusal(() => checkDisclosures(payload, [bad]))).toMatchObject({ rule: 'disclosure' });
    }
  });

  it('refuses an _sd_alg other than sha-256', async () => {
    const { payload, disclosures } = await packed({ given_name: 'Erika' }, { _sd: ['given_name'] });
    expect(
      refusal(() => checkDisclosures({ ...payload, _sd_alg: 'sha-512' }, disclosures)),
    ).toMatchObject({
      rule: 'format',
    });
  });
});
