import { verifyJWT } from 'did-jwt';
import { decodeProtectedHeader } from 'jose';
import { createChainClient } from '@itp/chain';
import { createEthersProvider } from '@itp/chain/ethers';
import { openSqlDatabase } from '@itp/stores';
import { ethrNetworkNames } from '../agent/create-did-agent.js';
import { createDidResolver } from '../agent/did-resolvers.js';
import type { DidTables } from '../db/did-tables.js';
import { StatusListStore } from '../db/status-lists.js';
import { NotRevocableError } from '../errors.js';
import { revokeCredential, type VerifyCredentialSigner } from '../status/revoke-credential.js';
import { ANY_BASE_STATUS_LIST_URLS } from '../status/status-list-urls.js';
import { importedIssuerPublicKeys } from '../status/token-status-list-issuer-keys.js';
import { revokeSdJwtCredential } from '../status/token-status-list-revocation.js';
import type { RevokeVcResult } from '@itp/schemas';
import { cliDatabaseUrl, cliRegistryAddress, type CredentialsCliConfig } from './cli-config.js';

/**
 * The VC to revoke as given on the command line or stdin: its compact JWT, or the VC JSON
 * create-vc answered (its proof.jwt), or `{ "jwt": … }` as revoke-vc takes it.
 */
export function credentialJwtOf(input: string): string {
  const text = input.trim();
  if (!text.startsWith('{')) return text;
  let parsed: { jwt?: unknown; proof?: { jwt?: unknown }; vc?: { proof?: { jwt?: unknown } } };
  try {
    parsed = JSON.parse(text) as typeof parsed;
  } catch {
    throw new NotRevocableError('The input is neither a compact JWT nor JSON');
  }
  const jwt = parsed.jwt ?? parsed.proof?.jwt ?? parsed.vc?.proof?.jwt;
  if (typeof jwt !== 'string') throw new NotRevocableError('The JSON holds no VC JWT (proof.jwt)');
  return jwt;
}

/**
 * The SD-JWT VC given on the command line or stdin, when it is one: an SD-JWT (`<JWT>~…`), its
 * issuer-signed JWT alone (`typ` dc+sd-jwt), or `{ "sdJwt": … }` as revoke-vc takes it.
 */
export function sdJwtOf(input: string): string | undefined {
  const text = input.trim();
  if (text.startsWith('{')) {
    try {
      const { sdJwt } = JSON.parse(text) as { sdJwt?: unknown };
      return typeof sdJwt === 'string' ? sdJwt : undefined;
    } catch {
      return undefined;
    }
  }
  if (text.includes('~')) return text;
  try {
    const { typ } = decodeProtectedHeader(text);
    return typ === 'dc+sd-jwt' || typ === 'vc+sd-jwt' ? text : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `credentials revoke` of an SD-JWT VC: its issuer-signed JWT must verify with an SD-JWT issuer
 * key imported into this service (any of them, newest first) and name a token status list entry
 * of this service (the same checks as revoke-vc `{ sdJwt }`, without the user's).
 */
async function revokeSdJwtFromCli(
  config: CredentialsCliConfig,
  sdJwt: string,
): Promise<RevokeVcResult> {
  const database = openSqlDatabase<DidTables>(cliDatabaseUrl(config), { poolSize: 1 });
  try {
    return await revokeSdJwtCredential(
      {
        issuerKeys: () => importedIssuerPublicKeys(database),
        store: new StatusListStore(database),
      },
      sdJwt,
    );
  } finally {
    await database.close();
  }
}

/**
 * `credentials revoke`: revokes a VC for good without asking whose it is (the operator's call).
 * Its signature is checked against the issuer's DID document on the configured chain (did-jwt,
 * ethr-did-resolver; expiry is not checked) and the list it names must be this service's list of
 * that issuer, so a forged JWT cannot revoke somebody else's entry.
 */
export async function revokeFromCli(
  config: CredentialsCliConfig,
  input: string,
): Promise<RevokeVcResult> {
  const sdJwt = sdJwtOf(input);
  if (sdJwt !== undefined) return revokeSdJwtFromCli(config, sdJwt);
  const jwt = credentialJwtOf(input);
  const chain = createChainClient({
    rpcUrl: config.ETH_RPC_URL,
    timeoutMs: config.ETH_RPC_TIMEOUT_MS,
  });
  const database = openSqlDatabase<DidTables>(cliDatabaseUrl(config), { poolSize: 1 });
  let provider: ReturnType<typeof createEthersProvider> | undefined;
  try {
    const chainId = config.CHAIN_ID ?? (await chain.chainId());
    provider = createEthersProvider(config.ETH_RPC_URL, chainId, {
      timeoutMs: config.ETH_RPC_TIMEOUT_MS,
    });
    const registry = cliRegistryAddress(config);
    const networks = ethrNetworkNames(config.DID_NETWORK).map((name) => ({
      name,
      chainId,
      provider,
      registry,
    }));
    const resolver = createDidResolver(networks);
    const verifySigner: VerifyCredentialSigner = async (token) => {
      try {
        const verified = await verifyJWT(token, { resolver, policies: { exp: false } });
        return verified.issuer;
      } catch (err) {
        throw new NotRevocableError(
          `The credential does not verify: ${err instanceof Error ? err.message : String(err)}`,
        );
      }
    };
    return await revokeCredential(
      { verifySigner, store: new StatusListStore(database), urls: ANY_BASE_STATUS_LIST_URLS },
      jwt,
    );
  } finally {
    provider?.destroy();
    await chain.close();
    await database.close();
  }
}
