/**
 * `itp login approve --oid4vp <uri> --key-file <file> --vc <file> [--vc …]`: the wallet's side of
 * an OpenID4VP login (contract §8), for tests and demos. Resolves the `openid4vp://` request (its
 * request object's did:ethr signature checked through the registry on `--chain-url`), presents
 * the matching `--vc` in a VP JWT signed with the holder key of `--key-file`, posts the response
 * to the verifier and prints the verifier's answer (exit 1 when it refuses).
 */
import { DEV_CHAIN } from '@itp/dev-chain/constants';
import type { HeldCredential } from '@itp/wallet';
import { ConfigError, FailedError, UsageError } from '../errors.js';
import { readText } from '../input/read-input.js';
import { keyValues } from '../output/table.js';
import type { Command, CommandContext } from './command.js';
import { WALLET_KEY_HINT } from './key-file-account.js';
import { optionalString, positionals, requiredString, stringList } from './values.js';

/** A compact JWS, three base64url parts. */
const COMPACT_JWT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/** The chain's id (eth_chainId), which ethr-did-resolver needs beside the URL. */
async function chainIdOf(rpcUrl: string): Promise<number> {
  try {
    const res = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      signal: AbortSignal.timeout(10_000),
    });
    const { result } = (await res.json()) as { result?: unknown };
    if (typeof result !== 'string') throw new Error('no chain id in the answer');
    return Number(BigInt(result));
  } catch (err) {
    throw new ConfigError(
      `the chain at ${rpcUrl} (--chain-url / ITP_CHAIN_URL) does not answer eth_chainId: ` +
        `${(err as Error).message}`,
    );
  }
}

/** A `--vc` file: the VC as `itp vc issue` printed it (JSON with `proof.jwt`) or its compact JWT. */
async function credentialOf(
  ctx: CommandContext,
  source: string,
  held: (jwt: string) => HeldCredential,
): Promise<HeldCredential> {
  const text = (await readText(source, ctx.stdin, ctx.settings.workDir, 'a VC')).trim();
  let jwt = text;
  if (!COMPACT_JWT.test(text)) {
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch {
      throw new UsageError(`--vc ${source} holds neither a VC (JSON) nor its compact JWT`);
    }
    const proofJwt = (doc as { proof?: { jwt?: unknown } } | null)?.proof?.jwt;
    if (typeof proofJwt !== 'string' || !COMPACT_JWT.test(proofJwt)) {
      throw new UsageError(`--vc ${source} is not a JWT VC (no proof.jwt)`);
    }
    jwt = proofJwt;
  }
  try {
    return held(jwt);
  } catch {
    throw new UsageError(`--vc ${source}: its JWT cannot be decoded`);
  }
}

/** The address of a did:ethr DID (`did:ethr:[network:]0x…`), else undefined. */
const ethrAddress = (did: string | undefined) =>
  /^did:ethr:(?:[^:]+:)?(0x[0-9a-fA-F]{40})$/.exec(did ?? '')?.[1];

/**
 * Only a credential issued to the key's DID can be presented (the verifier checks that the VP's
 * signer is the VC's subject): a key of another address — a wallet's secretKey read as a key, for
 * one — is refused here (exit 1, no_matching_credential), naming both addresses, before the
 * request is fetched.
 */
function checkHolder(
  keyFile: string,
  holder: string,
  sources: string[],
  credentials: HeldCredential[],
): void {
  if (credentials.some((vc) => vc.subject?.toLowerCase() === holder.toLowerCase())) return;
  const issuedTo = credentials.map((vc, i) => {
    const address = ethrAddress(vc.subject);
    const subject = vc.subject ?? 'no subject';
    return `--vc ${sources[i]} is issued to ${address ? `${address} (${subject})` : subject}`;
  });
  throw new FailedError(
    `--key-file ${keyFile} is the key of ${ethrAddress(holder) ?? holder} (${holder}), the ` +
      `holder of none of the credentials: ${issuedTo.join('; ')} (${WALLET_KEY_HINT})`,
    'no_matching_credential',
  );
}

export const loginApproveCommand: Command = {
  words: ['login', 'approve'],
  options: {
    oid4vp: { type: 'string' },
    'key-file': { type: 'string' },
    vc: { type: 'string', multiple: true },
    'chain-url': { type: 'string' },
    registry: { type: 'string' },
  },
  async run(ctx) {
    positionals(ctx, []);
    const uri = requiredString(ctx.values, 'oid4vp');
    if (!uri.startsWith('openid4vp://')) {
      throw new UsageError('--oid4vp must be an openid4vp:// URI (the login page shows it)');
    }
    const keyFile = requiredString(ctx.values, 'key-file');
    const sources = stringList(ctx.values, 'vc');
    if (sources.length === 0) throw new UsageError('login approve needs at least one --vc <file>');
    const chainUrl = optionalString(ctx.values, 'chain-url') ?? ctx.settings.chainUrl;
    if (chainUrl === undefined) {
      throw new ConfigError(
        'login approve resolves DIDs on the chain: give --chain-url or ITP_CHAIN_URL ' +
          '(npm start prints it as "Dev chain http://127.0.0.1:<port>")',
      );
    }
    const registry =
      optionalString(ctx.values, 'registry') ??
      ctx.settings.didRegistry ??
      DEV_CHAIN.didRegistryAddress;
    if (!/^0x[0-9a-fA-F]{40}$/.test(registry)) {
      throw new UsageError(`--registry must be a 0x address, got "${registry}"`);
    }

    // Imported here only: the wallet loads ethers, did-jwt and the OpenID4VC packages.
    const wallet = await import('@itp/wallet');
    const privateKey = (
      await readText(keyFile, ctx.stdin, ctx.settings.workDir, 'the holder key')
    ).trim();
    let holder: string;
    try {
      holder = await wallet.holderDid(privateKey);
    } catch (err) {
      throw new UsageError(`--key-file ${keyFile}: ${(err as Error).message}`);
    }
    const credentials: HeldCredential[] = [];
    for (const source of sources) {
      credentials.push(await credentialOf(ctx, source, wallet.heldCredential));
    }
    checkHolder(keyFile, holder, sources, credentials);
    const chainId = await chainIdOf(chainUrl);

    const progress = ctx.progress(`presenting a credential of ${holder}`);
    let outcome: Awaited<ReturnType<typeof wallet.approveWithOpenid4vp>>;
    try {
      outcome = await wallet.approveWithOpenid4vp(uri, {
        privateKey,
        credentials,
        chain: { rpcUrl: chainUrl, registry, chainId },
      });
    } catch (err) {
      if (err instanceof wallet.Openid4vpWalletError) throw new FailedError(err.message, err.code);
      throw err;
    } finally {
      progress.stop();
    }
    const shown = {
      approved: outcome.approved,
      holder: outcome.holder,
      verifier: outcome.clientId,
      responseUri: outcome.responseUri,
      credentialQuery: outcome.credentialQueryId,
      status: outcome.status,
    };
    if (outcome.approved) {
      return {
        json: outcome,
        text: keyValues(shown),
        notice: `approved: ${outcome.clientId} accepted the presentation of ${holder}`,
      };
    }
    return {
      json: outcome,
      text: keyValues({ ...shown, error: outcome.error, description: outcome.errorDescription }),
      failure: new FailedError(
        `the verifier refused the presentation${
          outcome.errorDescription ? `: ${outcome.errorDescription}` : ''
        }`,
        outcome.error,
      ),
    };
  },
};
