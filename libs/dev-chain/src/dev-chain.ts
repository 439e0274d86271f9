/**
 * The embedded dev chain (anvil) as `npm start` runs it. Everything here is PUBLIC, well-known
 * test material (anvil's and hardhat's default accounts): never use it on a real network.
 */
export const DEV_CHAIN = {
  chainId: 31337,
  /** anvil's default mnemonic; its accounts are funded with 10 000 test ETH each. */
  mnemonic: 'test test test test test test test test test test test junk',
  /** Account #0 of that mnemonic (m/44'/60'/0'/0/0): deploys the DID registry. DEV ONLY. */
  devOnlyAccount0: {
    address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
    privateKey: '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
  },
  /** Where account #0's first transaction (nonce 0) deploys the ERC-1056 registry. */
  didRegistryAddress: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
} as const;
