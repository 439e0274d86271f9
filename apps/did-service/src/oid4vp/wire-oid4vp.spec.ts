import { afterEach, describe, expect, it } from '@jest/globals';
import { getGlobalConfig, setGlobalConfig } from '@openid4vc/utils';
import { wireOid4vp } from './wire-oid4vp.js';

describe('wireOid4vp', () => {
  const before = getGlobalConfig();
  afterEach(() => setGlobalConfig(before));

  it('never allows http response URIs in production, nor turns on the library setting', () => {
    setGlobalConfig({ allowInsecureUrls: false });
    expect(wireOid4vp({ APP_ENV: 'production' })).toEqual({ allowInsecureUrls: false });
    expect(getGlobalConfig().allowInsecureUrls).toBe(false);
  });

  it.each(['development', 'test'] as const)(
    'allows them in %s, and sets the process-wide library setting to match',
    (env) => {
      setGlobalConfig({ allowInsecureUrls: false });
      expect(wireOid4vp({ APP_ENV: env })).toEqual({ allowInsecureUrls: true });
      expect(getGlobalConfig().allowInsecureUrls).toBe(true);
    },
  );
});
