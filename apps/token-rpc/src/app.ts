import { Service, type Logger } from '@itp/service-kit';
import { chainReadinessCheck, openChainClient } from '@itp/chain';
import { RpcServer, jsonRpcRouter } from '@itp/jsonrpc';
import {
  createKvStore,
  kvReadinessCheck,
  migrateToLatest,
  openSqlDatabase,
  resolveStoreUrls,
  sqlReadinessCheck,
} from '@itp/stores';
import { TempKeyStore } from './auth/temp-key-store.js';
import type { TokenConfig } from './config.js';
import { resolveSecrets } from './config/secrets.js';
import type { TokenDatabase } from './db/database.js';
import { tokenMigrations } from './db/migrations.js';
import { createDevFunder } from './dev/dev-funder.js';
import { Erc20Service } from './erc20/erc20-service.js';
import { itpTokenInterface } from './erc20/itp-token.js';
import { internalWalletRouter } from './internal/internal-router.js';
import { erc20Methods } from './rpc/erc20-methods.js';
import { reportChainUnavailable } from './rpc/service-errors.js';
import { tokenMethods } from './rpc/token-methods.js';
import { NonceManager } from './transactions/nonce-manager.js';
import { SqlTransactionLog } from './transactions/sql-transaction-log.js';
import { TokenService } from './transactions/token-service.js';
import { TransactionSender } from './transactions/transaction-sender.js';
import { KeyCustody } from './wallet/key-custody.js';
import { SqlWalletRepository } from './wallet/sql-wallet-repository.js';
import { WalletService } from './wallet/wallet-service.js';

export const API_VERSION = '1.0.0';

/**
 * Composition root of token-rpc: the token API (JSON-RPC at /token and /token/erc20), the internal
 * wallet API for did-service (/internal/v1/wallet), over SQL (wallet, transaction record), the
 * KvStore (tempKeys, nonce leases) and the chain.
 */
export async function buildApp(config: TokenConfig, logger: Logger): Promise<Service> {
  const secrets = resolveSecrets(config);
  const urls = resolveStoreUrls(config, 'token-rpc');
  // Refuses to start when CHAIN_ID is set and the node is unreachable or serves another chain.
  const chain = await openChainClient(config);
  const database = openSqlDatabase<TokenDatabase>(urls.databaseUrl, { logger });
  const kv = createKvStore({
    redisUrl: urls.redisUrl,
    keyPrefix: config.REDIS_KEY_PREFIX ?? 'token:',
    logger,
  });
  const closeAll = async () => {
    await kv.close();
    await database.close();
    await chain.close();
  };
  try {
    await migrateToLatest(database, tokenMigrations);
  } catch (err) {
    await closeAll();
    throw err;
  }

  const nonces: NonceManager = new NonceManager({
    kv,
    pendingNonce: (address) => sender.pendingNonce(address),
    logger,
    leaseTtlMs: config.NONCE_LEASE_TTL_MS,
    leaseWaitMs: config.NONCE_LEASE_WAIT_MS,
    nextNonceTtlMs: config.NONCE_CACHE_TTL_MS,
    gapTimeoutMs: config.NONCE_GAP_TIMEOUT_MS,
  });
  const sender: TransactionSender = new TransactionSender({
    chain,
    nonces,
    log: new SqlTransactionLog(database),
    logger,
    errorInterface: itpTokenInterface,
    gasMarginPercent: config.GAS_ESTIMATE_MARGIN_PERCENT,
  });
  const fundNewAddress =
    config.APP_ENV === 'development'
      ? createDevFunder({
          sender,
          chain,
          logger,
          amountWei: BigInt(config.DEV_FUNDING_WEI),
          receiptTimeoutMs: config.DEV_FUNDING_TIMEOUT_MS,
        })
      : undefined;
  const wallets = new WalletService({
    repository: new SqlWalletRepository(database),
    custody: new KeyCustody(secrets.keyring),
    tempKeys: new TempKeyStore(kv, config.TEMP_KEY_TTL_MS),
    logger,
    fundNewAddress,
  });
  const tokens = new TokenService(wallets, sender, chain);
  const erc20 = new Erc20Service(wallets, sender, chain);

  const tokenServer = new RpcServer({
    info: {
      title: 'Token API',
      version: API_VERSION,
      description:
        'Server wallet, temporary keys, signing, native transfers and ERC-20 deployment (JSON-RPC 2.0). ' +
        'Service errors: result.resultCode 400 invalid input, 401 bad hashKey or signature, 402 insufficient ' +
        'funds, 404 unknown address, 409 tempKey used/expired/bound elsewhere, 500 chain refusal or internal ' +
        'failure, 503 chain node unavailable.',
    },
    servers: [{ name: 'gateway', url: '/token' }],
    methods: reportChainUnavailable(tokenMethods(wallets, tokens)),
    logger,
  });
  const erc20Server = new RpcServer({
    info: {
      title: 'Token API: ERC-20',
      version: API_VERSION,
      description:
        'ERC-20 calls against any token contract (`contract`); transfer, approve and transferFrom are ' +
        'authorised like /token transfer with keyType erc20.',
    },
    servers: [{ name: 'gateway', url: '/token/erc20' }],
    methods: reportChainUnavailable(erc20Methods(erc20)),
    logger,
  });

  const service = new Service({ name: 'token-rpc', config, logger });
  service.app.use(
    '/token/erc20',
    jsonRpcRouter(erc20Server, { bodyLimitBytes: config.BODY_LIMIT_BYTES }),
  );
  service.app.use(
    '/token',
    jsonRpcRouter(tokenServer, { bodyLimitBytes: config.BODY_LIMIT_BYTES }),
  );
  service.app.use(
    '/internal/v1/wallet',
    internalWalletRouter(wallets, {
      token: secrets.internalApiToken,
      bodyLimitBytes: config.BODY_LIMIT_BYTES,
    }),
  );
  service
    .addReadinessCheck(kvReadinessCheck(kv))
    .addReadinessCheck(sqlReadinessCheck(database))
    .addReadinessCheck(chainReadinessCheck(chain));
  service.onShutdown(closeAll);
  return service;
}
