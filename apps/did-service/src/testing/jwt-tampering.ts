/* eslint-disable @typescript-eslint/no-explicit-any -- JWT claims are edited field by field in tests */
import { ES256KSigner, createJWT } from 'did-jwt';
import { Wallet } from 'ethers';

/** The JWT with its payload changed by `edit` and the original signature kept. */
export function editJwtPayload(jwt: string, edit: (payload: Record<string, any>) => void): string {
  const [header, payload, signature] = jwt.split('.') as [string, string, string];
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<
    string,
    any
  >;
  edit(claims);
  return [header, Buffer.from(JSON.stringify(claims)).toString('base64url'), signature].join('.');
}

/** The JWT with one byte of its signature flipped (of `s` by default; of `r` with at = 10). */
export function breakSignature(jwt: string, at = 40): string {
  const [header, payload, signature] = jwt.split('.') as [string, string, string];
  const bytes = Buffer.from(signature, 'base64url');
  bytes[at] = (bytes[at] ?? 0) ^ 0xff;
  return [header, payload, bytes.toString('base64url')].join('.');
}

export function decodePayload(jwt: string): Record<string, any> {
  return JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<
    string,
    any
  >;
}

/**
 * A well-signed VC JWT from a DID that is not this service's (a random did:ethr key), and its
 * JSON form as did-jwt-vc normalises it.
 */
export async function foreignCredential(
  holder: string,
  sub: string,
): Promise<{ jwt: string; json: Record<string, unknown> }> {
  const key = Wallet.createRandom();
  const issuer = `did:ethr:${key.address}`;
  const nbf = Math.floor(Date.now() / 1000);
  const vc = {
    '@context': ['https://www.w3.org/2018/credentials/v1'],
    type: ['VerifiableCredential', 'Profile'],
    credentialSubject: { sub, name: 'Mallory' },
  };
  const jwt = await createJWT(
    { vc, sub: holder, nbf, iat: undefined },
    { issuer, signer: ES256KSigner(Buffer.from(key.privateKey.slice(2), 'hex')) },
    { alg: 'ES256K' },
  );
  const json = {
    credentialSubject: { sub, name: 'Mallory', id: holder },
    issuer: { id: issuer },
    type: vc.type,
    '@context': vc['@context'],
    issuanceDate: new Date(nbf * 1000).toISOString(),
    proof: { type: 'JwtProof2020', jwt },
  };
  return { jwt, json };
}
