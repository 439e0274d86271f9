import type { Json, RestAnswer } from '../client/api.js';
import type { Flows } from '../client/flows.js';
import type { RaceOutcome } from '../races/run-races.js';
import type { Stack } from '../stack/start-stack.js';
import { flowsAs, nested } from './support.js';

const IP = '203.0.113.32';

/** Stands for the nested value in a body's JSON text until nested() replaces it. */
const MARK = '__deeply_nested_claim__';

/** A VC with `claim` as one more member of its credentialSubject (allowed: the object is loose). */
function withClaim(vc: Json, claim: unknown): Json {
  const subject = (vc.credentialSubject ?? {}) as Json;
  return { ...vc, credentialSubject: { ...subject, nested: claim } };
}

/** A VP whose first VC carries `claim` in its credentialSubject. */
function vpWithClaim(vp: Json, claim: unknown): Json {
  const [first, ...rest] = (vp.verifiableCredential ?? []) as Json[];
  if (!first) throw new Error('create-vp answered a VP without verifiableCredential');
  return { ...vp, verifiableCredential: [withClaim(first, claim), ...rest] };
}

/** `value`'s JSON text with MARK replaced by `levels` of nesting. */
const deepText = (value: unknown, levels: number): string =>
  JSON.stringify(value).replace(JSON.stringify(MARK), nested(levels));

/** `verified` and, for a failure, its error code, of a verify-vc / verify-vp answer. */
function verdict(answer: RestAnswer): string {
  const body = answer.body as { verified?: boolean; error?: { code?: string } } | undefined;
  if (answer.status !== 200) return `${answer.status}`;
  return body?.verified ? '200 verified' : `200 ${body?.error?.code ?? 'not verified'}`;
}

/**
 * Review item 4: JSON nested tens of thousands of levels deep INSIDE bodies that are otherwise
 * real and valid — a VC issued by create-vc (verify-vc), the VP of create-vp holding it
 * (verify-vp), and that VP to auth-user-with-vp — each nested in a member of a credentialSubject,
 * which the request schemas leave open. Such a body passes shape validation and, as its JWT
 * verifies, reaches the recursive canonical-JSON comparison with the JWT's claims, whose stack
 * overflowed (500). Expected: 400 for each. The same bodies nested 3 levels are the controls:
 * they must reach that comparison (200, json_mismatch), which shows that the deep ones are
 * refused for their depth and not for their shape.
 */
export async function checkDeepNesting(stack: Stack, flows: Flows): Promise<RaceOutcome> {
  const own = flowsAs(flows, IP);
  const user = stack.accounts.users[2]!;
  const token = await own.login(user.id, user.password);
  const holder = await own.createAddress();
  const did = await own.createDid(holder, 'regression-deep', token);
  const holderDid = (did.body as { did?: string } | undefined)?.did;
  if (!holderDid) throw new Error(`create-did: ${did.status} ${did.text}`);
  const { vc, vp } = await own.credentialAndPresentation(token, holderDid);

  const [shallowVc, shallowVp] = await Promise.all([
    own.api.raw('/v2/did/verify-vc', deepText(withClaim(vc, MARK), 3)),
    own.api.raw('/v2/did/verify-vp', deepText(vpWithClaim(vp, MARK), 3)),
  ]);
  const controls = [verdict(shallowVc), verdict(shallowVp)];
  const deep = await Promise.all([
    own.api.raw('/v2/did/verify-vc', deepText(withClaim(vc, MARK), 20_000)),
    own.api.raw('/v2/did/verify-vp', deepText(vpWithClaim(vp, MARK), 20_000)),
    own.api.raw('/v2/auth/auth-user-with-vp', deepText({ vp: vpWithClaim(vp, MARK) }, 50_000)),
  ]);
  const depths = deep.map((a) => a.status);
  return {
    name: 'JSON nested 20,000 / 50,000 levels in the credentialSubject of a real VC (verify-vc) and of the VC in a real VP (verify-vp, auth-user-with-vp)',
    expected: '400, 400, 400 (controls nested 3 levels: 200 json_mismatch)',
    observed: `${depths.join(', ')} (controls: ${controls.join(', ')})`,
    passed: depths.every((s) => s === 400) && controls.every((c) => c === '200 json_mismatch'),
  };
}
