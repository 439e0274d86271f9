import { describe, expect, it } from '@jest/globals';
import { DEFAULT_URL, resolveSettings, urlForMessages } from './config.js';
import { ConfigError } from './errors.js';

describe('resolveSettings', () => {
  it('defaults to the dev stack gateway, no token, text output', () => {
    expect(resolveSettings({}, {})).toEqual({
      url: DEFAULT_URL,
      token: undefined,
      json: false,
      authAdminCli: undefined,
      didAdminCli: undefined,
      chainUrl: undefined,
      didRegistry: undefined,
      workDir: '.',
    });
    expect(DEFAULT_URL).toBe('http://localhost:8080');
  });

  it("follows PORT as npm start does: the dev stack's PUBLIC_URL, http://localhost:<PORT>", () => {
    expect(resolveSettings({}, { PORT: '9090' }).url).toBe('http://localhost:9090');
    expect(resolveSettings({}, { PORT: ' ' }).url).toBe(DEFAULT_URL);
    expect(resolveSettings({}, { PORT: '9090', ITP_URL: 'http://gw:1' }).url).toBe('http://gw:1');
    expect(() => resolveSettings({}, { PORT: 'http' })).toThrow(/PORT must be a TCP port/);
  });

  it("reads relative files from the caller's directory: INIT_CWD under npm run, else the cwd", () => {
    expect(resolveSettings({}, {}, '/home/me/work').workDir).toBe('/home/me/work');
    // `npm run itp -- vc verify vc.json` from /home/me/work: npm runs itp in the repository.
    expect(resolveSettings({}, { INIT_CWD: '/home/me/work' }, '/repo').workDir).toBe(
      '/home/me/work',
    );
  });

  it('takes ITP_URL and ITP_TOKEN, and the options over them', () => {
    const env = { ITP_URL: 'http://gw.example:9000/', ITP_TOKEN: 'env-jwt' };
    expect(resolveSettings({}, env)).toMatchObject({
      url: 'http://gw.example:9000',
      token: 'env-jwt',
    });
    expect(
      resolveSettings({ url: 'https://other.example/base/', token: 'flag-jwt', json: true }, env),
    ).toMatchObject({ url: 'https://other.example/base', token: 'flag-jwt', json: true });
  });

  it('treats empty values as not set', () => {
    expect(resolveSettings({ url: ' ', token: '' }, { ITP_URL: '', ITP_TOKEN: ' ' })).toMatchObject(
      {
        url: DEFAULT_URL,
        token: undefined,
      },
    );
  });

  it('refuses a URL that is not http(s), not a URL, or has a query, naming where it came from', () => {
    expect(() => resolveSettings({ url: 'ftp://x' }, {})).toThrow(
      new ConfigError('--url must be an http(s) URL, got "ftp://x"'),
    );
    expect(() => resolveSettings({}, { ITP_URL: 'localhost:8080' })).toThrow(/^ITP_URL/);
    expect(() => resolveSettings({}, { ITP_URL: 'not a url' })).toThrow(/ITP_URL is not a URL/);
    expect(() => resolveSettings({ url: 'http://x/?a=1' }, {})).toThrow(/without \?query/);
  });

  it('passes the operator CLI overrides on', () => {
    expect(
      resolveSettings({}, { ITP_AUTH_ADMIN_CLI: '/a/cli.js', ITP_DID_ADMIN_CLI: '/d/cli.js' }),
    ).toMatchObject({ authAdminCli: '/a/cli.js', didAdminCli: '/d/cli.js' });
  });
});

describe('urlForMessages', () => {
  it('is the configured URL, or the raw ITP_URL when it does not parse', () => {
    expect(urlForMessages({ ITP_URL: 'http://h:1' })).toBe('http://h:1');
    expect(urlForMessages({ ITP_URL: 'nope' })).toBe('nope');
    expect(urlForMessages({})).toBe(DEFAULT_URL);
  });
});
