import { beforeAll, describe, expect, it } from '@jest/globals';
import {
  concat,
  createPublicClient,
  encodeAbiParameters,
  getContractAddress,
  hashMessage,
  http,
  keccak256,
  toHex,
  type Address,
  type Hex,
  type PublicClient,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import {
  SIWE_TEST_ACCOUNT,
  counterfactualSiweTestAccount,
  deploySiweTestAccount,
  deploySiweTestAccountFactory,
  signForSmartAccount,
  wrapErc6492,
} from './smart-account.js';
import { testChainUrl } from './test-infra.js';

const MESSAGE = 'example.com wants you to sign in with your Ethereum account';

/** A fresh owner EOA (private key and address). */
function newOwner(): { key: Hex; address: Address } {
  const key = generatePrivateKey();
  return { key, address: privateKeyToAccount(key).address };
}

describe('@itp/testing/smart-account on the test chain', () => {
  let rpcUrl: string;
  let client: PublicClient;
  let factory: Address;

  beforeAll(async () => {
    rpcUrl = testChainUrl();
    client = createPublicClient({ transport: http(rpcUrl) });
    factory = await deploySiweTestAccountFactory(rpcUrl);
  });

  describe('ERC-1271: a deployed account', () => {
    const owner = newOwner();
    let account: Address;

    beforeAll(async () => {
      account = await deploySiweTestAccount(rpcUrl, factory, owner.address);
    });

    it('accepts its owner signature (viem verifyMessage and verifyHash)', async () => {
      const signature = await signForSmartAccount(owner.key, MESSAGE);
      expect(await client.verifyMessage({ address: account, message: MESSAGE, signature })).toBe(
        true,
      );
      const hash = hashMessage(MESSAGE);
      expect(await client.verifyHash({ address: account, hash, signature })).toBe(true);
      const answer = await client.readContract({
        address: account,
        abi: SIWE_TEST_ACCOUNT.account.abi,
        functionName: 'isValidSignature',
        args: [hash, signature],
      });
      expect(answer).toBe('0x1626ba7e');
    });

    it('refuses another key, another message and a malformed signature', async () => {
      const other = await signForSmartAccount(newOwner().key, MESSAGE);
      expect(
        await client.verifyMessage({ address: account, message: MESSAGE, signature: other }),
      ).toBe(false);
      const signature = await signForSmartAccount(owner.key, MESSAGE);
      expect(
        await client.verifyMessage({ address: account, message: `${MESSAGE}!`, signature }),
      ).toBe(false);
      const isValid = await client.readContract({
        address: account,
        abi: SIWE_TEST_ACCOUNT.account.abi,
        functionName: 'isValidSignature',
        args: [hashMessage(MESSAGE), '0x1234'],
      });
      expect(isValid).toBe('0xffffffff');
    });

    it('is what deploying again with the same owner and salt returns (idempotent)', async () => {
      expect(await deploySiweTestAccount(rpcUrl, factory, owner.address)).toBe(account);
      expect(
        await deploySiweTestAccount(rpcUrl, factory, owner.address, toHex(1, { size: 32 })),
      ).not.toBe(account);
    });
  });

  describe('ERC-6492: a counterfactual account', () => {
    it('has the CREATE2 address of (factory, salt, account init code) and no code', async () => {
      const owner = newOwner();
      const salt = toHex(7, { size: 32 });
      const counterfactual = await counterfactualSiweTestAccount(
        rpcUrl,
        factory,
        owner.address,
        salt,
      );
      const initCode = concat([
        SIWE_TEST_ACCOUNT.account.bytecode,
        encodeAbiParameters([{ type: 'address' }], [owner.address]),
      ]);
      expect(counterfactual.address).toBe(
        getContractAddress({
          opcode: 'CREATE2',
          from: factory,
          salt,
          bytecodeHash: keccak256(initCode),
        }),
      );
      expect(counterfactual.factory).toBe(factory);
      expect(await client.getCode({ address: counterfactual.address })).toBeUndefined();
    });

    it('accepts the wrapped owner signature and stays undeployed', async () => {
      const owner = newOwner();
      const { address, factoryData } = await counterfactualSiweTestAccount(
        rpcUrl,
        factory,
        owner.address,
      );
      const signature = wrapErc6492(
        await signForSmartAccount(owner.key, MESSAGE),
        factory,
        factoryData,
      );
      expect(await client.verifyMessage({ address, message: MESSAGE, signature })).toBe(true);
      const hash = hashMessage(MESSAGE);
      expect(await client.verifyHash({ address, hash, signature })).toBe(true);
      expect(await client.request({ method: 'eth_getCode', params: [address, 'latest'] })).toBe(
        '0x',
      );
    });

    it('refuses the plain (unwrapped) owner signature and a wrapped signature of another key', async () => {
      const owner = newOwner();
      const { address, factoryData } = await counterfactualSiweTestAccount(
        rpcUrl,
        factory,
        owner.address,
      );
      const plain = await signForSmartAccount(owner.key, MESSAGE);
      expect(await client.verifyMessage({ address, message: MESSAGE, signature: plain })).toBe(
        false,
      );
      const other = wrapErc6492(
        await signForSmartAccount(newOwner().key, MESSAGE),
        factory,
        factoryData,
      );
      expect(await client.verifyMessage({ address, message: MESSAGE, signature: other })).toBe(
        false,
      );
      expect(await client.request({ method: 'eth_getCode', params: [address, 'latest'] })).toBe(
        '0x',
      );
    });
  });
});
