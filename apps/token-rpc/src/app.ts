import { HttpService, defineApp } from '@itp/service-kit';
import { chainCircuitLog, chainReadinessCheck, openChainClient } from '@itp/chain';
import { RpcServer, jsonRpcRouter, rateLimitedMethods } from '@itp/jsonrpc';
import { TOKEN_SERVICE_ERRORS, summarizeServiceErrors } from '@itp/schemas';
import { RateLimiter, kvReadinessCheck, openAppStores, sqlReadinessCheck } from '@itp/stores';
import { TempKeyStore } from './auth/temp-key-store.js';
import { tokenRpcConfigSchema } from './config.js';
import type { TokenDatabase } from './db/database.js';
import { tokenMigrationSet } from './db/migrations.js';
import { SqlTransactionLog } from './db/sql-transaction-log.js';
import { SqlWalletRepository } from './db/sql-wallet-repository.js';
import { createDevFunder } from './dev/dev-funder.js';
import { Erc20Service } from './erc20/erc20-service.js';
import { itpTokenInterface } from './erc20/itp-token.js';
import { internalWalletRouter } from './http/internal-router.js';
import { erc20RateLimits, tokenRateLimits } from './rate-limit/token-rate-limits.js';
import { erc20Methods } from './rpc/erc20-methods.js';
import { tokenMethods } from './rpc/token-methods.js';
import { NonceManager } from './transactions/nonce-manager.js';
import { TokenService } from './transactions/token-service.js';
import { TransactionReconciler } from './transactions/transaction-reconciler.js';
import { TransactionSender } from './transactions/transaction-sender.js';
import { KeyCustody } from './wallet/key-custody.js';
import { WalletService } from './wallet/wallet-service.js';
import { resolveSecrets } from './secrets.js';

export const API_VERSION = '1.0.0';

/**
 * Composition root of token-rpc: the token API (JSON-RPC at /token and /token/erc20), the internal
 * wallet API for did-service (/internal/v1/wallet), over SQL (wallet, transaction record), the
 * KvStore (tempKeys, nonce leases) and the chain.
 */
export const buildApp = defineApp(
  'token-rpc',
  tokenRpcConfigSchema,
  async (config, logger, scope) => {
    const secrets = resolveSecrets(config);
    // Refuses to start when CHAIN_ID is set and the node is unreachable or serves another chain.
    // Behind a circuit breaker: while the node does not answer, chain calls are 503 at once.
    const chain = await scope.open(
      'chain',
      () => openChainClient(config, chainCircuitLog(logger)),
      (c) => c.close(),
    );
    const { kv, sql: database } = await openAppStores<TokenDatabase>(config, scope, logger, {
      app: 'token-rpc',
      keyPrefix: 'token:',
      migrations: tokenMigrationSet((message) => logger.warn(message)),
    });

    const nonces: NonceManager = new NonceManager({
      kv,
      pendingNonce: (address) => sender.pendingNonce(address),
      logger,
      leaseTtlMs: config.NONCE_LEASE_TTL_MS,
      leaseWaitMs: config.NONCE_LEASE_WAIT_MS,
      nextNonceTtlMs: config.NONCE_CACHE_TTL_MS,
      gapTimeoutMs: config.NONCE_GAP_TIMEOUT_MS,
    });
    const transactionLog = new SqlTransactionLog(database);
    const sender: TransactionSender = new TransactionSender({
      chain,
      nonces,
      log: transactionLog,
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
      tempKeys: new TempKeyStore(kv, config.TEMP_KEY_TTL_MS, {
        retryTtlMs: config.TEMP_KEY_RETRY_TTL_MS,
      }),
      logger,
      fundNewAddress,
      retryWaitMs: config.TEMP_KEY_RETRY_WAIT_MS,
      sentTransactions: transactionLog,
    });
    // Settles records left sending / sent / unknown against the chain: right after start, then on a
    // timer that shutdown stops (before the database and the chain client close: the scope closes
    // newest first).
    const reconciler = new TransactionReconciler({
      log: transactionLog,
      chain,
      logger: logger.child({ component: 'reconciler' }),
      intervalMs: config.TX_RECONCILE_INTERVAL_MS,
      graceMs: config.TX_RECONCILE_GRACE_MS,
    });
    const tokens = new TokenService(wallets, sender, chain, transactionLog, (entry) =>
      reconciler.settleIfMined(entry),
    );
    const erc20 = new Erc20Service(wallets, sender, chain);

    // One counter store for every limit of both endpoints (the read limit is shared by them).
    const rateLimiter = new RateLimiter(kv);
    const tokenServer = new RpcServer({
      info: {
        title: 'Token API',
        version: API_VERSION,
        description:
          'Server wallet, temporary keys, signing, native transfers and ERC-20 deployment (JSON-RPC 2.0). ' +
          `Service errors (result.resultCode): ${summarizeServiceErrors(TOKEN_SERVICE_ERRORS)}.`,
      },
      servers: [{ name: 'gateway', url: '/token' }],
      publicUrl: config.PUBLIC_URL,
      methods: rateLimitedMethods(
        tokenMethods(wallets, tokens),
        rateLimiter,
        tokenRateLimits(config),
      ),
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
      publicUrl: config.PUBLIC_URL,
      methods: rateLimitedMethods(erc20Methods(erc20), rateLimiter, erc20RateLimits(config)),
      logger,
    });

    const service = new HttpService({ name: 'token-rpc', config, logger });
    // req.ip (the client address the rate limits count for): X-Forwarded-For only from TRUST_PROXY.
    service.app.set('trust proxy', config.TRUST_PROXY);
    service.app.use(
      '/token/erc20',
      jsonRpcRouter(erc20Server, { bodyLimitBytes: config.BODY_LIMIT_BYTES }),
    );
    service.app.use(
      '/token',
      jsonRpcRouter(tokenServer, { bodyLimitBytes: config.BODY_LIMIT_BYTES }),
    );
    // did-service's wallet API: on the internal listener only (INTERNAL_PORT), never the public port.
    service.internal.use(
      '/internal/v1/wallet',
      internalWalletRouter(wallets, {
        token: secrets.acceptedInternalApiTokens,
        bodyLimitBytes: config.BODY_LIMIT_BYTES,
      }),
    );
    service
      .addReadinessCheck(kvReadinessCheck(kv))
      .addReadinessCheck(sqlReadinessCheck(database))
      .addReadinessCheck(chainReadinessCheck(chain));

    scope.onClose('transaction reconciler', () => reconciler.stop());
    reconciler.start();
    return service;
  },
);
