import { APP_ENV } from '@itp/harness';

export interface BannerInfo {
  gatewayUrl: string;
  chainUrl: string;
  chainId: number;
  didRegistryAddress: string;
  dataDir: string;
  seconds: number;
}

export function formatBanner(info: BannerInfo): string {
  const g = info.gatewayUrl;
  return [
    '',
    `  Identity and token platform: dev stack ready in ${info.seconds.toFixed(1)} s (APP_ENV=${APP_ENV})`,
    '',
    `  Gateway      ${g}`,
    `    ${g}/v2/auth      authentication API (REST)`,
    `    ${g}/v2/did       DID, credential and presentation API (REST)`,
    `    ${g}/token        token API (JSON-RPC 2.0)`,
    `    ${g}/token/erc20  ERC-20 API (JSON-RPC 2.0)`,
    `    ${g}/block        block API (JSON-RPC 2.0)`,
    `  Docs         ${g}/docs   (REST: try it out; JSON-RPC: every method with examples)`,
    `  Demo         ${g}/demo   (QR login; user demo / demo-password, site demo-site / demo-site-secret)`,
    `  Dev chain    ${info.chainUrl} (anvil, chain id ${info.chainId}, DID registry ${info.didRegistryAddress})`,
    `  Data folder  ${info.dataDir}`,
    '',
    '  Ctrl-C stops everything.',
    '',
  ].join('\n');
}
