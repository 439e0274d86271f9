/**
 * The npm packages the wallet runs on, imported when a wallet function first needs them, never
 * when a program that links @itp/wallet starts: the `itp` bundle keeps npm packages external, so
 * a static import here would load ethers, did-jwt and the OpenID4VC packages on every command.
 * Only types are imported statically anywhere in this library.
 */
async function importPackages() {
  // One after the other: jest's ESM loader fails on parallel imports that share a dependency
  // (zod), and the order costs nothing a person would notice.
  const openid4vp = await import('@openid4vc/openid4vp');
  const utils = await import('@openid4vc/utils');
  const dcql = await import('dcql');
  const didJwt = await import('did-jwt');
  const didResolver = await import('did-resolver');
  const ethers = await import('ethers');
  const ethrDidResolver = await import('ethr-did-resolver');
  const jose = await import('jose');
  return { openid4vp, utils, dcql, didJwt, didResolver, ethers, ethrDidResolver, jose };
}

export type WalletPackages = Awaited<ReturnType<typeof importPackages>>;

let loading: Promise<WalletPackages> | undefined;
let loaded: WalletPackages | undefined;

/** The packages, imported once (a failed import is tried again on the next call). */
export function walletPackages(): Promise<WalletPackages> {
  loading ??= importPackages().then(
    (packages) => (loaded = packages),
    (err: unknown) => {
      loading = undefined;
      throw err;
    },
  );
  return loading;
}

/**
 * The packages for synchronous code that only runs on what an awaited wallet function returned
 * (a resolved request): they are loaded by then.
 */
export function loadedWalletPackages(): WalletPackages {
  if (!loaded) throw new Error('the wallet packages are not loaded yet (await walletPackages())');
  return loaded;
}
