import { digest } from '@sd-jwt/crypto-nodejs';
import { SDJwtVcInstance } from '@sd-jwt/sd-jwt-vc';
import { checkDisclosures } from './check-disclosures.js';
import { checkKeyBinding } from './check-key-binding.js';
import { checkStatus } from './check-status.js';
import { checkValidityWindow } from './check-validity-window.js';
import { decodePresentation } from './decode-presentation.js';
import { fetchStatusList } from './fetch-status-list.js';
import { refuse } from './refuse.js';
import type { VerifiedSdJwtVc, VerifySdJwtVcOptions } from './types.js';
import { verifyX5cJws } from './verify-x5c-jws.js';
import { visibleClaims } from './visible-claims.js';

const DEFAULT_MAX_KEY_BINDING_AGE_SECONDS = 300;
/** The media type of HAIP 1.0 / SD-JWT VC; the legacy `vc+sd-jwt` is refused. */
const SD_JWT_VC_TYP = 'dc+sd-jwt';

/**
 * Verifies an SD-JWT VC presentation (`<issuer JWT>~<disclosures>~<KB-JWT>`) from an EU wallet
 * (HAIP 1.0) and returns what it proves, or throws PresentationRefusedError naming the rule that
 * failed: the issuer by its `x5c` chain, the issuer's signature, `typ`, the disclosures, the
 * validity window, the key binding, the status list entry.
 */
export async function verifySdJwtVcPresentation(
  presentation: string,
  options: VerifySdJwtVcOptions,
): Promise<VerifiedSdJwtVc> {
  const now = options.now ?? new Date();
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const decoded = decodePresentation(presentation);
  const { header, payload } = decoded.issuerJwt;
  if (header.typ !== SD_JWT_VC_TYP)
    throw refuse('typ', `typ is ${String(header.typ)}, not ${SD_JWT_VC_TYP}`);
  const issuer = await verifyX5cJws(
    decoded.issuerJwt,
    options.trustAnchors,
    now,
    undefined,
    options.chains,
  );
  if (!issuer.ok) {
    throw refuse(
      issuer.failed === 'untrusted' ? 'issuer_untrusted' : 'issuer_signature',
      issuer.reason,
    );
  }
  if (typeof payload.vct !== 'string' || typeof payload.iss !== 'string') {
    throw refuse('format', 'the credential has no vct or iss');
  }
  checkDisclosures(payload, decoded.disclosures);
  checkValidityWindow(payload, nowSeconds);
  await checkKeyBinding(decoded, payload, {
    nonce: options.nonce,
    audience: options.audience,
    nowSeconds,
    maxAgeSeconds: options.maxKeyBindingAgeSeconds ?? DEFAULT_MAX_KEY_BINDING_AGE_SECONDS,
  });
  await checkStatus(payload, {
    trustAnchors: options.trustAnchors,
    now,
    issuer,
    fetchStatusList: options.fetchStatusList ?? fetchStatusList,
    ...(options.chains ? { chains: options.chains } : {}),
    ...(options.statusLists ? { statusLists: options.statusLists } : {}),
  });
  const unpacked = await new SDJwtVcInstance({ hasher: digest, hashAlg: 'sha-256' })
    .getClaims(presentation)
    .catch((error: unknown) => {
      throw refuse('format', 'the disclosures could not be unpacked', error);
    });
  return {
    format: 'dc+sd-jwt',
    vct: payload.vct,
    issuer: payload.iss,
    issuerCertificateSubject: issuer.subject,
    claims: visibleClaims(unpacked as Record<string, unknown>),
    status: 'valid',
  };
}
