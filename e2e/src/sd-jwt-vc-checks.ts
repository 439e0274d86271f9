/**
 * What a third party checks of an SD-JWT VC with the maintained libraries only: the issuer's
 * `x5c` chain against the CA it trusts (@itp/x509's `verifyCertificateChain`), then
 * `@sd-jwt/sd-jwt-vc`'s `SDJwtVcInstance.verify` with the leaf's key (signature, disclosures,
 * the status list fetched from `status.status_list.uri` and its bit); a status list token read
 * with `@sd-jwt/jwt-status-list`. No jest in here.
 */
import { digest, ES256 } from '@sd-jwt/crypto-nodejs';
import { getListFromStatusListJWT } from '@sd-jwt/jwt-status-list';
import { SDJwtVcInstance, type SdJwtVcPayload } from '@sd-jwt/sd-jwt-vc';
import { compactVerify, decodeProtectedHeader } from 'jose';
import { trustAnchorsFrom, verifyCertificateChain, type VerifiedChain } from '@itp/x509';

/** The JWS's x5c chain (leaf first) checked against `caPem`: the leaf and its key. */
export async function x5cSigner(compactJws: string, caPem: string): Promise<VerifiedChain> {
  const { x5c } = decodeProtectedHeader(compactJws);
  if (!Array.isArray(x5c)) throw new Error('the JWS has no x5c header');
  return verifyCertificateChain(x5c, trustAnchorsFrom([caPem]));
}

export interface VerifiedSdJwtVc {
  /** The issuer-signed JWT's header (typ, alg, x5c, …). */
  header: Record<string, unknown>;
  /** Every claim, the disclosed ones included. */
  payload: SdJwtVcPayload;
  /** The issuer's certificate (the x5c leaf) and key. */
  signer: VerifiedChain;
}

/**
 * `sdJwt` (as issued: `<JWT>~<disclosure>~…~`) verified as its holder's wallet does: the x5c
 * chain to `issuerCaPem`, then `SDJwtVcInstance.verify` (signature by the leaf's key, every
 * disclosure's digest in the JWT, the token status list — fetched, its signature checked with
 * the same key — saying 0). Throws what the libraries throw (e.g. a revoked credential).
 */
export async function verifyIssuedSdJwtVc(
  sdJwt: string,
  issuerCaPem: string,
): Promise<VerifiedSdJwtVc> {
  const issuerJwt = sdJwt.split('~')[0]!;
  const signer = await x5cSigner(issuerJwt, issuerCaPem);
  const verifier = await ES256.getVerifier(signer.publicKeyJwk);
  const sdJwtVc = new SDJwtVcInstance({ hasher: digest, hashAlg: 'sha-256', verifier });
  const { header, payload } = await sdJwtVc.verify(sdJwt);
  return { header: header ?? {}, payload, signer };
}

/**
 * The status of entry `idx` in the token status list at `uri` (draft-ietf-oauth-status-list):
 * fetched as `application/statuslist+jwt`, its signature checked with the credential issuer's
 * key (`issuer`, from verifyIssuedSdJwtVc), `typ` statuslist+jwt, `sub` the uri, then the bit
 * read by `@sd-jwt/jwt-status-list`. 0 valid, 1 revoked.
 */
export async function tokenStatus(
  entry: { idx: number; uri: string },
  issuer: VerifiedChain,
): Promise<number> {
  const res = await fetch(entry.uri, { headers: { accept: 'application/statuslist+jwt' } });
  if (res.status !== 200) throw new Error(`GET ${entry.uri}: HTTP ${res.status}`);
  const type = res.headers.get('content-type') ?? '';
  if (!type.startsWith('application/statuslist+jwt')) {
    throw new Error(`GET ${entry.uri}: content-type ${type}`);
  }
  const jwt = (await res.text()).trim();
  const { protectedHeader, payload } = await compactVerify(jwt, issuer.publicKey);
  if (protectedHeader.typ !== 'statuslist+jwt') {
    throw new Error(`status list typ ${protectedHeader.typ}`);
  }
  const { sub } = JSON.parse(new TextDecoder().decode(payload)) as { sub?: string };
  if (sub !== entry.uri) throw new Error(`status list sub ${sub} is not its uri`);
  return getListFromStatusListJWT(jwt).getStatus(entry.idx);
}
