import { BadRequestError } from '@itp/errors';
import { verifiableCredentialSchema, verifiablePresentationSchema } from '@itp/schemas';
import { checkCredential } from './check-credential.js';
import { checkPresentation } from './check-presentation.js';
import type { CredentialContext } from './credential-context.js';
import type { Verification } from './verification.js';

/**
 * verify-vc: a body that is no VC with a JWT proof is a 400; otherwise the verification result
 * (docs/api.md §3.4) — `verified: false` with the reason for a bad signature, a foreign issuer,
 * an expired VC or JSON that differs from the JWT.
 */
export async function verifyCredentialBody(
  ctx: CredentialContext,
  body: unknown,
): Promise<Verification> {
  const parsed = verifiableCredentialSchema.safeParse(body);
  if (!parsed.success)
    throw new BadRequestError(
      `The body is not a verifiable credential: ${firstIssue(parsed.error)}`,
    );
  return checkCredential(ctx, parsed.data.proof.jwt, body);
}

/** verify-vp: as verify-vc, for a VP; every VC inside is verified too. */
export async function verifyPresentationBody(
  ctx: CredentialContext,
  body: unknown,
): Promise<Verification> {
  const parsed = verifiablePresentationSchema.safeParse(body);
  if (!parsed.success)
    throw new BadRequestError(
      `The body is not a verifiable presentation: ${firstIssue(parsed.error)}`,
    );
  const checked = await checkPresentation(ctx, parsed.data.proof.jwt, body);
  return checked.verified ? checked.result : checked;
}

function firstIssue(error: { issues: { path: PropertyKey[]; message: string }[] }): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid';
  const path = issue.path.map(String).join('.');
  return path ? `${path}: ${issue.message}` : issue.message;
}
