/**
 * `itp vc issue | offer | verify | revoke` and `itp vp create | verify`. Issued documents (a VC, a VP) are
 * printed as JSON in both output modes, so `> vc.json` saves what `vc verify`, `vc revoke` and
 * `vp create --vc` read. A document that does not verify prints the result and exits 1.
 */
import type {
  CredentialOfferParams,
  SdJwtToRevoke,
  VerifiableCredential,
  VerifiablePresentation,
  VerificationResult,
} from '@itp/client';
import { FailedError, UsageError } from '../errors.js';
import { readJson, readText } from '../input/read-input.js';
import { keyValues } from '../output/table.js';
import type { Command, CommandContext, CommandResult } from './command.js';
import {
  flag,
  optionalString,
  positionals,
  requiredString,
  requireToken,
  stringList,
} from './values.js';

const documentText = (doc: unknown): string => `${JSON.stringify(doc, null, 2)}\n`;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `--claim name=value` (repeatable) over `--claims <file|->` (a JSON object). */
async function userInfoOf(ctx: CommandContext): Promise<Record<string, unknown>> {
  const source = optionalString(ctx.values, 'claims');
  const info: Record<string, unknown> = {};
  if (source !== undefined) {
    const parsed = await readJson(source, ctx.stdin, ctx.settings.workDir);
    if (!isObject(parsed)) throw new UsageError('--claims must hold a JSON object');
    Object.assign(info, parsed);
  }
  for (const claim of stringList(ctx.values, 'claim')) {
    const eq = claim.indexOf('=');
    if (eq < 1) throw new UsageError(`--claim must be name=value, got "${claim}"`);
    info[claim.slice(0, eq)] = claim.slice(eq + 1);
  }
  return info;
}

/** The given DID, or the service's first issuer / verifier (GET /v2/did/issuers|verifiers). */
async function serviceDid(
  ctx: CommandContext,
  given: string | undefined,
  list: 'issuers' | 'verifiers',
): Promise<string> {
  if (given !== undefined) return given;
  const [first] = await ctx.client.did[list]();
  if (!first) throw new FailedError(`the platform lists no ${list}`, 'NO_SERVICE_DID');
  return first.did;
}

function verificationResult(result: VerificationResult, what: 'VC' | 'VP'): CommandResult {
  if (result.verified) {
    return {
      json: result,
      text: keyValues({ verified: true, issuer: result.issuer }),
    };
  }
  return {
    json: result,
    text: keyValues({ verified: false, error: result.error.code, message: result.error.message }),
    failure: new FailedError(
      `the ${what} does not verify: ${result.error.message}`,
      result.error.code,
    ),
  };
}

async function documentArg(ctx: CommandContext, what: string): Promise<Record<string, unknown>> {
  const [source] = positionals(ctx, [`${what} file, or - for stdin`]) as [string];
  const doc = await readJson(source, ctx.stdin, ctx.settings.workDir);
  if (!isObject(doc)) throw new UsageError(`the ${what} must be a JSON object`);
  return doc;
}

export const vcIssueCommand: Command = {
  words: ['vc', 'issue'],
  options: {
    holder: { type: 'string' },
    issuer: { type: 'string' },
    claim: { type: 'string', multiple: true },
    claims: { type: 'string' },
  },
  async run(ctx) {
    positionals(ctx, []);
    requireToken(ctx, 'vc issue');
    const holder = requiredString(ctx.values, 'holder');
    const userInfo = await userInfoOf(ctx);
    const issuer = await serviceDid(ctx, optionalString(ctx.values, 'issuer'), 'issuers');
    const vc = await ctx.client.did.createVc({ holder, issuer, userInfo });
    return { json: vc, text: documentText(vc), notice: `issued by ${issuer} to ${holder}` };
  },
};

type OfferFormat = NonNullable<CredentialOfferParams['format']>;
/** `vc offer --format`: the credential formats the issuer offers (docs/api.md §10, §15). */
const OFFER_FORMATS: readonly OfferFormat[] = ['jwt_vc_json', 'dc+sd-jwt'];

/** `--format`, checked; undefined when not given (the service's default, jwt_vc_json). */
function offerFormat(ctx: CommandContext): OfferFormat | undefined {
  const format = optionalString(ctx.values, 'format');
  if (format === undefined) return undefined;
  const known = OFFER_FORMATS.find((f) => f === format);
  if (known === undefined) {
    throw new UsageError(`--format must be one of ${OFFER_FORMATS.join(', ')}, got "${format}"`);
  }
  return known;
}

/**
 * `itp vc offer`: an OpenID4VCI credential offer for the token's user (docs/api.md §10): the
 * `openid-credential-offer://` URI a standard wallet scans (redeemable once, 5 minutes), drawn as a
 * QR code in the terminal (text output), and the tx code the user types into the wallet (asked for
 * by default; `--no-tx-code` opts out, `--tx-code` is accepted and changes nothing).
 * `--format dc+sd-jwt` offers an SD-JWT VC (EU wallets, docs/api.md §15) instead of the default
 * `jwt_vc_json` Profile VC.
 */
export const vcOfferCommand: Command = {
  words: ['vc', 'offer'],
  options: {
    'tx-code': { type: 'boolean' },
    'no-tx-code': { type: 'boolean' },
    claim: { type: 'string', multiple: true },
    claims: { type: 'string' },
    format: { type: 'string' },
  },
  async run(ctx) {
    positionals(ctx, []);
    requireToken(ctx, 'vc offer');
    const noTxCode = flag(ctx.values, 'no-tx-code');
    if (noTxCode && flag(ctx.values, 'tx-code'))
      throw new UsageError('--tx-code and --no-tx-code exclude each other');
    const format = offerFormat(ctx);
    const userInfo = await userInfoOf(ctx);
    const offer = await ctx.client.did.credentialOffer({
      txCode: !noTxCode,
      userInfo: userInfo as Record<string, string | number | boolean>,
      ...(format === undefined ? {} : { format }),
    });
    // Loaded on first use (only this command draws a QR code); plain text blocks, no colours.
    const { default: QRCode } = await import('qrcode');
    const qr = await QRCode.toString(offer.credentialOfferUri, {
      type: 'utf8',
      errorCorrectionLevel: 'M',
    });
    return {
      json: offer,
      text:
        keyValues({
          credentialOfferUri: offer.credentialOfferUri,
          ...(offer.txCode !== undefined ? { txCode: offer.txCode } : {}),
          expiresInSeconds: offer.expiresInSeconds,
        }) + qr,
      notice:
        'open the offer URI in a wallet (or show it as a QR code): it is redeemed once, within ' +
        `${offer.expiresInSeconds} s` +
        (offer.txCode !== undefined ? '; the wallet asks for the tx code' : '') +
        (format === 'dc+sd-jwt' ? '; the wallet receives an SD-JWT VC (dc+sd-jwt)' : ''),
    };
  },
};

export const vcVerifyCommand: Command = {
  words: ['vc', 'verify'],
  options: {},
  async run(ctx) {
    const vc = await documentArg(ctx, 'VC');
    const result = await ctx.client.did.verifyVc(vc as unknown as VerifiableCredential);
    return verificationResult(result, 'VC');
  },
};

/** A compact JWS, three base64url parts: a VC's `proof.jwt`. */
const COMPACT_JWT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;
/** An SD-JWT: the issuer-signed JWT, then `~` and the disclosures, each followed by `~`. */
const SD_JWT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+(~[A-Za-z0-9_.-]*)+$/;

/** `--sd-jwt <sd-jwt | @file | ->`: the SD-JWT VC as the wallet received it. */
async function sdJwtToRevoke(ctx: CommandContext, given: string): Promise<SdJwtToRevoke> {
  const fromFile = given === '-' || given.startsWith('@');
  const text = fromFile
    ? await readText(
        given === '-' ? '-' : given.slice(1),
        ctx.stdin,
        ctx.settings.workDir,
        'an SD-JWT',
      )
    : given;
  const sdJwt = text.trim();
  if (!SD_JWT.test(sdJwt)) {
    const where = given === '-' ? 'stdin' : fromFile ? given.slice(1) : '--sd-jwt';
    throw new UsageError(`${where} holds no SD-JWT (<issuer-signed JWT>~<disclosure>~…)`);
  }
  return { sdJwt };
}

/**
 * The VC to revoke: `--sd-jwt`, or from a file or stdin its JSON (as `vc issue` printed it), its
 * compact JWT, or an SD-JWT VC (told apart by its `~`).
 */
async function credentialToRevoke(
  ctx: CommandContext,
): Promise<VerifiableCredential | string | SdJwtToRevoke> {
  const sdJwtOption = optionalString(ctx.values, 'sd-jwt');
  if (sdJwtOption !== undefined) return sdJwtToRevoke(ctx, sdJwtOption);
  const [source] = positionals(ctx, ['VC file, or - for stdin']) as [string];
  const text = (await readText(source, ctx.stdin, ctx.settings.workDir, 'a VC')).trim();
  if (COMPACT_JWT.test(text)) return text;
  if (SD_JWT.test(text)) return { sdJwt: text };
  const where = source === '-' ? 'stdin' : source;
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw new UsageError(`${where} holds neither a VC (JSON) nor its compact JWT`);
  }
  if (!isObject(doc)) throw new UsageError(`${where} must hold a JSON object (a VC)`);
  return doc as unknown as VerifiableCredential;
}

export const vcRevokeCommand: Command = {
  words: ['vc', 'revoke'],
  options: { 'sd-jwt': { type: 'string' } },
  async run(ctx) {
    if (ctx.values['sd-jwt'] === undefined) positionals(ctx, ['VC file, or - for stdin']);
    else positionals(ctx, []);
    requireToken(ctx, 'vc revoke');
    const result = await ctx.client.did.revokeVc(await credentialToRevoke(ctx));
    return {
      json: result,
      text: keyValues({
        revoked: result.revoked,
        statusListCredential: result.statusListCredential,
        statusListIndex: result.statusListIndex,
      }),
      notice:
        'revoked for good: the platform refuses it from now on, other verifiers once their copy ' +
        'of the status list expires',
    };
  },
};

export const vpCreateCommand: Command = {
  words: ['vp', 'create'],
  options: {
    holder: { type: 'string' },
    verifier: { type: 'string' },
    vc: { type: 'string', multiple: true },
  },
  async run(ctx) {
    positionals(ctx, []);
    requireToken(ctx, 'vp create');
    const holder = requiredString(ctx.values, 'holder');
    const sources = stringList(ctx.values, 'vc');
    if (sources.length === 0) throw new UsageError('vp create needs at least one --vc <file|->');
    const credentials: VerifiableCredential[] = [];
    for (const source of sources) {
      const vc = await readJson(source, ctx.stdin, ctx.settings.workDir);
      if (!isObject(vc)) throw new UsageError(`--vc ${source} must hold a JSON object (a VC)`);
      credentials.push(vc as unknown as VerifiableCredential);
    }
    const verifier = await serviceDid(ctx, optionalString(ctx.values, 'verifier'), 'verifiers');
    const vp: VerifiablePresentation = await ctx.client.did.createVp({
      holder,
      verifier,
      credentials,
    });
    return { json: vp, text: documentText(vp), notice: `presented by ${holder} to ${verifier}` };
  },
};

export const vpVerifyCommand: Command = {
  words: ['vp', 'verify'],
  options: {},
  async run(ctx) {
    const vp = await documentArg(ctx, 'VP');
    const result = await ctx.client.did.verifyVp(vp as unknown as VerifiablePresentation);
    return verificationResult(result, 'VP');
  },
};
