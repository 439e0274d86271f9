import { describe, expect, it } from '@jest/globals';
import { DEV_CHAIN } from '@itp/dev-chain/constants';
import { ConfigError } from '@itp/service-kit';
import { registryAddress } from './wire-agent.js';

describe('registryAddress', () => {
  const configured = '0x1234567890123456789012345678901234567890';

  it('is DID_REGISTRY_ADDRESS whenever it is set', () => {
    for (const APP_ENV of ['development', 'test', 'production'] as const) {
      expect(registryAddress({ APP_ENV, DID_REGISTRY_ADDRESS: configured })).toBe(configured);
    }
  });

  it("defaults to the dev chain's registry in development only", () => {
    expect(registryAddress({ APP_ENV: 'development', DID_REGISTRY_ADDRESS: undefined })).toBe(
      DEV_CHAIN.didRegistryAddress,
    );
    for (const APP_ENV of ['test', 'production'] as const) {
      const missing = () => registryAddress({ APP_ENV, DID_REGISTRY_ADDRESS: undefined });
      expect(missing).toThrow(ConfigError);
      expect(missing).toThrow(`DID_REGISTRY_ADDRESS: required when APP_ENV=${APP_ENV}`);
    }
  });
});
