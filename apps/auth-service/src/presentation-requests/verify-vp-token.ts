import { DcqlPresentationResult, type DcqlCredentialPresentation, type DcqlQuery } from 'dcql';
import { PresentationRefusedError } from '@itp/presentations';
import type { PresentedCredential } from './presentation-request.js';

/** One presentation as the format's verifier found it (signatures, binding, status checked). */
export interface VerifiedPresentation {
  format: PresentedCredential['format'];
  issuer: string;
  /** SD-JWT VC: its vct; mdoc: its docType. */
  type: string;
  /** SD-JWT VC: the disclosed claims; mdoc: `{ namespace: { element: value } }`. */
  claims: Record<string, unknown>;
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

/** The presentation as DCQL's matcher takes it. */
function dcqlPresentation(verified: VerifiedPresentation): DcqlCredentialPresentation {
  return verified.format === 'mso_mdoc'
    ? {
        credential_format: 'mso_mdoc',
        doctype: verified.type,
        namespaces: verified.claims as Record<string, Record<string, never>>,
        cryptographic_holder_binding: true,
      }
    : {
        credential_format: 'dc+sd-jwt',
        vct: verified.type,
        claims: verified.claims as Record<string, never>,
        cryptographic_holder_binding: true,
      };
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
      if (credentialQuery?.format === 'mso_mdoc') {
        list.push(...(await verifiers.mdoc(presentation, context)));
      } else {
        list.push(await verifiers.sdJwtVc(presentation, context));
      }
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
      const claims = asksClaims
        ? ((found.claims.success ? found.claims.valid_claim_sets[0]?.output : undefined) ?? {})
        : presentation.claims;
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
