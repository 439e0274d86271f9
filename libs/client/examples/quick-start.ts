/**
 * The README's quick start, runnable against a running dev stack (`npm start`):
 *
 *   npx tsx libs/client/examples/quick-start.ts            (from the repository root)
 *   ITP_BASE_URL=http://127.0.0.1:9090 npx tsx libs/client/examples/quick-start.ts
 *
 * It logs the demo user in, makes a wallet (dev mode funds it with 10 ETH), sends 1000 wei and
 * waits until mined, then makes a DID, a credential and a presentation, and verifies them.
 */
// What an application writes: the package name, not a path into this project.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { createClient } from '@itp/client';

// eslint-disable-next-line no-restricted-properties -- an example script: its one setting
const baseUrl = process.env.ITP_BASE_URL ?? 'http://127.0.0.1:8080';
const itp = createClient({ baseUrl });

// 1. Log in (the dev stack's demo user).
const login = await itp.auth.login({ id: 'demo', password: 'demo-password' });
const me = itp.withToken(login.token);

// 2. A wallet (dev mode funds it with 10 ETH) and a transfer.
const wallet = await itp.token.createWallet(); // keep wallet.mnemonic and wallet.secretKey safe
const { transactionId } = await wallet.transfer({
  to: '0x000000000000000000000000000000000000dead',
  amount: '1000', // wei, decimal string
});
const status = await itp.token.waitForTransaction(transactionId);
const block = await itp.block.getBlock(status.blockNumber ?? 'latest');

// 3. A DID bound to the user, a credential and a presentation.
const { did } = await me.did.createDid({
  alias: `my-phone-${wallet.address.slice(2, 10)}`,
  address: wallet.address,
  secretKey: wallet.secretKey,
});
const [issuer] = await itp.did.issuers();
const vc = await me.did.createVc({ holder: did, issuer: issuer!.did, userInfo: { name: 'Demo' } });
const [verifier] = await itp.did.verifiers();
const vp = await me.did.createVp({ holder: did, verifier: verifier!.did, credentials: [vc] });

// eslint-disable-next-line no-console -- an example script prints what it did
console.log(
  JSON.stringify({
    user: login.userId,
    transfer: status.status,
    block: block.number,
    did,
    vcVerified: (await itp.did.verifyVc(vc)).verified,
    vpVerified: (await itp.did.verifyVp(vp)).verified,
  }),
);
