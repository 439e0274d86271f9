import { DcqlPresentationResult, type DcqlCredentialPresentation, type DcqlQuery } from 'dcql';
import { PresentationRefusedError } from '@itp/presentations';
import type { PresentedCredential } from './presentation-request.js';
import { CREDENTIAL_SUBJECT } from './site-dcql-query.js';

/** One presentation as the format's verifier found it (signatures, binding, status checked). */
export interface VerifiedPresentation {
  format: PresentedCredential['format'];
  issuer: string;
  /** SD-JWT VC: its vct; mdoc: its docType; jwt_vc_json: the VC's `type`. */
  type: string | string[];
  /**
   * SD-JWT VC: the disclosed claims; mdoc: `{ namespace: { element: value } }` (issuer-signed
   * only); jwt_vc_json: the VC's credentialSubject.
   */
  claims: Record<string, unknown>;
  /** mdoc: namespace → the elements the wallet sent device-signed only (names, never values). */
  deviceSignedElements?: Record<string, string[]>;
}

/** What the response's checks need besides the presentation (contract §14). */
export interface PresentationContext {
  clientId: string;
  nonce: string;
  responseUri: string;
  /** RFC 7638 thumbprint bytes of the key the response was encrypted to (mdoc transcript). */
  jwkThumbprint: Uint8Array;
}

/** The formats' verifiers (@itp/presentations bound to the trust anchors, in wire-…). */
export interface PresentationVerifiers {
  sdJwtVc(presentation: string, context: PresentationContext): Promise<VerifiedPresentation>;
  /** A DeviceResponse may hold several documents. */
  mdoc(deviceResponse: string, context: PresentationContext): Promise<VerifiedPresentation[]>;
  /** A W3C VP JWT (`jwt_vc_json`) holds one VC or more. */
  jwtVc(vp: string, context: PresentationContext): Promise<VerifiedPresentation[]>;
}

const refuse = (rule: string, message: string) => new PresentationRefusedError(rule, message);

/** The vp_token (OpenID4VP 1.0 §8.1): `{ <credential query id>: [presentation, …] }`. */
function vpTokenEntries(vpToken: unknown, query: DcqlQuery.Output): [string, string[]][] {
  let token = vpToken;
  if (typeof token === 'string') {
    try {
      token = JSON.parse(token) as unknown;
    } catch {
      throw refuse('vp_token_malformed', 'vp_token is not a JSON object');
    }
  }
  if (typeof token !== 'object' || token === null || Array.isArray(token)) {
    throw refuse('vp_token_malformed', 'vp_token is not a JSON object');
  }
  const ids = new Set(query.credentials.map((credential) => credential.id));
  return Object.entries(token).map(([id, presentations]) => {
    if (!ids.has(id))
      throw refuse('vp_token_malformed', `vp_token answers ${id}, which was not asked for`);
    const list: unknown[] = Array.isArray(presentations) ? presentations : [presentations];
    if (list.length === 0 || list.some((p) => typeof p !== 'string' || p.length === 0)) {
      throw refuse('vp_token_malformed', `vp_token ${id}: not a list of presentations`);
    }
    return [id, list as string[]];
  });
}

/**
 * The VCDM 1.1 context's expansion of the base type (OpenID4VP 1.0 Appendix B.1.1: `type_values`
 * are expanded IRIs): a site may name the VC's types as written or expanded.
 */
const EXPANDED_TYPES: Record<string, string> = {
  VerifiableCredential: 'https://www.w3.org/2018/credentials#VerifiableCredential',
};

const typeList = (type: string | string[]): string[] => (Array.isArray(type) ? type : [type]);

/** The presentation as DCQL's matcher takes it. */
function dcqlPresentation(verified: VerifiedPresentation): DcqlCredentialPresentation {
  const type = typeList(verified.type);
  switch (verified.format) {
    case 'mso_mdoc':
      return {
        credential_format: 'mso_mdoc',
        doctype: type.join(' '),
        namespaces: verified.claims as Record<string, Record<string, never>>,
        cryptographic_holder_binding: true,
      };
    case 'jwt_vc_json':
      return {
        credential_format: 'jwt_vc_json',
        type: [...type, ...type.flatMap((t) => EXPANDED_TYPES[t] ?? [])],
        claims: { [CREDENTIAL_SUBJECT]: verified.claims as Record<string, never> },
        cryptographic_holder_binding: true,
      };
    default:
      return {
        credential_format: 'dc+sd-jwt',
        vct: type.join(' '),
        claims: verified.claims as Record<string, never>,
        cryptographic_holder_binding: true,
      };
  }
}

/**
 * ISO 18013-5 DeviceSigned elements are the holder device's own assertions, attested by no
 * issuer: a requested element the wallet sent only device-signed is refused ('device_signed'),
 * never answered (HAIP; docs/security.md §14). Elements not asked for are ignored either way.
 */
function refuseDeviceSignedOnly(
  credentialQuery: DcqlQuery.Output['credentials'][number],
  verified: VerifiedPresentation,
): void {
  const deviceSigned = verified.deviceSignedElements ?? {};
  for (const claim of credentialQuery.claims ?? []) {
    // mdoc claims: `path: [namespace, element]` (or the draft form, namespace + claim_name).
    const [namespace, element] = 'path' in claim ? claim.path : [claim.namespace, claim.claim_name];
    if (typeof namespace !== 'string' || typeof element !== 'string') continue;
    const issuerSigned = (verified.claims[namespace] ?? {}) as Record<string, unknown>;
    if (!(element in issuerSigned) && deviceSigned[namespace]?.includes(element)) {
      throw refuse(
        'device_signed',
        `${namespace}/${element} was sent device-signed only: the issuer does not attest it`,
      );
    }
  }
}

/** One presentation of a credential query, verified by its format's verifier. */
async function verifyPresentation(
  credentialQuery: DcqlQuery.Output['credentials'][number],
  presentation: string,
  verifiers: PresentationVerifiers,
  context: PresentationContext,
): Promise<VerifiedPresentation[]> {
  switch (credentialQuery.format) {
    case 'mso_mdoc': {
      const documents = await verifiers.mdoc(presentation, context);
      for (const document of documents) refuseDeviceSignedOnly(credentialQuery, document);
      return documents;
    }
    case 'jwt_vc_json': {
      const credentials = await verifiers.jwtVc(presentation, context);
      if (!credentialQuery.multiple && credentials.length > 1) {
        throw refuse('vp_token_malformed', `vp_token ${credentialQuery.id}: one VC was asked for`);
      }
      return credentials;
    }
    default:
      return [await verifiers.sdJwtVc(presentation, context)];
  }
}

/**
 * Each presentation of the vp_token verified by its format's verifier (each entry must be a
 * query's credential, in its format), then the whole matched against the DCQL query (types,
 * claims, values, credential sets). The site gets only the claims its query asked for (all the
 * presented ones when a credential query names no claims). Any failure: PresentationRefusedError
 * naming the rule.
 */
export async function verifyVpToken(
  vpToken: unknown,
  query: DcqlQuery.Output,
  verifiers: PresentationVerifiers,
  context: PresentationContext,
): Promise<Record<string, PresentedCredential[]>> {
  const verified: Record<string, VerifiedPresentation[]> = {};
  for (const [id, presentations] of vpTokenEntries(vpToken, query)) {
    const credentialQuery = query.credentials.find((credential) => credential.id === id);
    if (!credentialQuery?.multiple && presentations.length > 1) {
      throw refuse('vp_token_malformed', `vp_token ${id}: one presentation was asked for`);
    }
    const list: VerifiedPresentation[] = [];
    for (const presentation of presentations) {
      if (!credentialQuery) continue; // vpTokenEntries took only the query's ids
      list.push(...(await verifyPresentation(credentialQuery, presentation, verifiers, context)));
    }
    verified[id] = list;
  }
  const record = Object.fromEntries(
    Object.entries(verified).map(([id, list]) => [id, list.map(dcqlPresentation)]),
  );
  let result: DcqlPresentationResult;
  try {
    result = DcqlPresentationResult.fromDcqlPresentation(record, { dcqlQuery: query });
    DcqlPresentationResult.validate(result);
  } catch {
    throw refuse('dcql_not_satisfied', 'The presentations do not satisfy the DCQL query');
  }
  return keptClaims(verified, query, result);
}

/** Per credential query id, the verified presentations with only the claims asked for. */
function keptClaims(
  verified: Record<string, VerifiedPresentation[]>,
  query: DcqlQuery.Output,
  result: DcqlPresentationResult,
): Record<string, PresentedCredential[]> {
  const kept: Record<string, PresentedCredential[]> = {};
  for (const [id, list] of Object.entries(verified)) {
    const match = result.credential_matches[id];
    const asksClaims = query.credentials.find((c) => c.id === id)?.claims !== undefined;
    const valid = match?.success ? match.valid_credentials : [];
    kept[id] = list.flatMap((presentation, index) => {
      const found = valid.find((credential) => credential.input_credential_index === index);
      if (!found) return [];
      const output = asksClaims
        ? ((found.claims.success ? found.claims.valid_claim_sets[0]?.output : undefined) ?? {})
        : undefined;
      // jwt_vc_json paths start at the VC: the site gets the credentialSubject's claims.
      const claims =
        output === undefined
          ? presentation.claims
          : presentation.format === 'jwt_vc_json'
            ? ((output as Record<string, unknown>)[CREDENTIAL_SUBJECT] ?? {})
            : output;
      return [
        {
          format: presentation.format,
          issuer: presentation.issuer,
          claims: claims as Record<string, unknown>,
          status: 'valid' as const,
        },
      ];
    });
  }
  return kept;
}
