/** A credential the holder may present: its compact JWT and what a query matches on. */
export interface HeldCredential {
  jwt: string;
  /** `vc.type` of the JWT (e.g. VerifiableCredential, Profile). */
  types: string[];
  /** `vc.credentialSubject.id` of the JWT, else its `sub`. */
  subject: string | undefined;
  /** The `vc` claim of the JWT (what DCQL claim paths of `jwt_vc_json` address). */
  claims: Record<string, unknown>;
}

/** A compact VC JWT (`jwt_vc_json`) as the wallet holds it; throws when it is no JWT. */
export function heldCredential(jwt: string): HeldCredential {
  const parts = jwt.split('.');
  if (parts.length !== 3) throw new Error('a compact JWT has three parts');
  const payload = JSON.parse(Buffer.from(parts[1] ?? '', 'base64url').toString('utf8')) as unknown;
  if (typeof payload !== 'object' || payload === null) throw new Error('the JWT has no claims');
  const { vc, sub } = payload as { vc?: unknown; sub?: unknown };
  const claims = typeof vc === 'object' && vc !== null ? (vc as Record<string, unknown>) : {};
  const types = Array.isArray(claims['type']) ? claims['type'].map(String) : [];
  const subjectId = (claims['credentialSubject'] as { id?: unknown } | undefined)?.id;
  const subject =
    typeof subjectId === 'string' ? subjectId : typeof sub === 'string' ? sub : undefined;
  return { jwt, types, subject, claims };
}
