import { HDNodeWallet } from 'ethers';
import type { LocalChain } from '@itp/harness';
import type { SecretLedger } from '../hygiene/secret-ledger.js';
import { bearer, sha256, type Api, type Json, type RpcAnswer } from './api.js';

export interface Wallet {
  address: string;
  secretKey: string;
  mnemonic?: string;
}

/**
 * The user flows the load, races and faults are made of, through the gateway. Every secret they
 * see (passwords, mnemonics, private keys, secretKeys, hashKeys, JWTs) goes into the ledger the
 * secret scan searches for.
 */
export class Flows {
  constructor(
    readonly api: Api,
    readonly ledger: SecretLedger,
  ) {}

  async login(id: string, password: string): Promise<string> {
    this.ledger.add('password', password);
    const answer = await this.api.login(id, password);
    const token = (answer.body as { token?: string } | undefined)?.token;
    if (answer.status !== 200 || !token)
      throw new Error(`login ${id}: ${answer.status} ${answer.text}`);
    this.ledger.add('jwt', token);
    return token;
  }

  /** Remembers the secrets of a createAddress / importAddress answer. */
  noteWallet(data: Json): Wallet {
    const wallet = {
      address: String(data.address),
      secretKey: String(data.secretKey),
      ...(typeof data.mnemonic === 'string' ? { mnemonic: data.mnemonic } : {}),
    };
    this.ledger.add('secretKey', wallet.secretKey);
    if (wallet.mnemonic) this.noteMnemonic(wallet.mnemonic);
    return wallet;
  }

  noteMnemonic(mnemonic: string): void {
    this.ledger.add('mnemonic', mnemonic);
    this.ledger.add('privateKey', HDNodeWallet.fromPhrase(mnemonic).privateKey);
  }

  async createAddress(): Promise<Wallet> {
    return this.noteWallet(await this.api.ok('/token', 'createAddress', {}));
  }

  async fund(chain: LocalChain, address: string): Promise<void> {
    await chain.call('anvil_setBalance', [address, '0x56BC75E2D63100000']); // 100 ETH
  }

  async tempKey(address: string): Promise<{ tempKey: string }> {
    return this.api.ok('/token', 'net_getTempKey', { address, keyType: 'transfer' });
  }

  /** net_getTempKey → hashKey → signData: the params of a transfer, ready to send. */
  async transferParams(wallet: Wallet, to: string, amount: string): Promise<Json> {
    const { tempKey } = await this.tempKey(wallet.address);
    const hashKey = sha256(`${tempKey}|${wallet.secretKey}`);
    this.ledger.add('hashKey', hashKey);
    const hash = sha256(`${wallet.address}|${to}|${amount}|${tempKey}|${hashKey}`);
    const signed = await this.api.rpc('/token', 'signData', {
      from: wallet.address,
      hash,
      tempKey,
      hashKey,
    });
    // A failed signData answers resultData "" (a string too): only a "200" carries a signature.
    const signature = signed.result?.resultCode === '200' ? signed.result.resultData : undefined;
    if (typeof signature !== 'string') throw new Error(`signData: ${signed.text.slice(0, 300)}`);
    return { from: wallet.address, to, amount, tempKey, hashKey, signature };
  }

  transfer(params: Json): Promise<RpcAnswer> {
    return this.api.rpc('/token', 'transfer', params);
  }

  createDid(wallet: Wallet, alias: string, token?: string) {
    return this.api.rest(
      '/v2/did/create-did',
      { alias, address: wallet.address, secretKey: wallet.secretKey },
      token ? bearer(token) : {},
    );
  }

  async serviceDid(kind: 'issuers' | 'verifiers'): Promise<string> {
    const answer = await this.api.rest(`/v2/did/${kind}`);
    const list = answer.body as Array<{ did: string }> | undefined;
    if (!list?.[0]) throw new Error(`${kind}: ${answer.status} ${answer.text}`);
    return list[0].did;
  }

  /** A fresh login VP for the user of `token`, holder `holderDid` (bound by create-did). */
  async loginVp(token: string, holderDid: string): Promise<Json> {
    return (await this.credentialAndPresentation(token, holderDid)).vp;
  }

  /**
   * A fresh VC of the service's issuer for holder `holderDid` (bound by create-did to the user
   * of `token`), and a VP of it for the service's verifier: what a login sends.
   */
  async credentialAndPresentation(
    token: string,
    holderDid: string,
  ): Promise<{ vc: Json; vp: Json }> {
    const [issuer, verifier] = await Promise.all([
      this.serviceDid('issuers'),
      this.serviceDid('verifiers'),
    ]);
    const vc = await this.api.rest(
      '/v2/did/create-vc',
      { holder: holderDid, issuer, userInfo: {} },
      bearer(token),
    );
    if (vc.status !== 200) throw new Error(`create-vc: ${vc.status} ${vc.text}`);
    const vp = await this.api.rest(
      '/v2/did/create-vp',
      { holder: holderDid, verifier, credentials: [vc.body] },
      bearer(token),
    );
    if (vp.status !== 200) throw new Error(`create-vp: ${vp.status} ${vp.text}`);
    return { vc: vc.body as Json, vp: vp.body as Json };
  }
}
