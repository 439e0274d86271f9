/**
 * Where every setup departs from the development defaults, so that the suites can test what they
 * test (the same settings in each setup):
 * - the gateway trusts the loopback hop: the suites play a proxy and say which client address a
 *   request comes from (X-Forwarded-For), to hit per-address limits on purpose;
 * - three failed logins per address, so that the limit is reached in a few requests;
 * - no poll interval on web-site logins: ten polls at once test the hand-out-once rule (with the
 *   default, the extra polls would be 429 slow_down before the race).
 */
export const SETUP_SETTINGS = { loginFailuresPerIp: 3 } as const;

export const SETUP_ENV: Record<string, Record<string, string>> = {
  gateway: { TRUST_PROXY: 'loopback' },
  'auth-service': {
    LOGIN_MAX_FAILURES_PER_IP: String(SETUP_SETTINGS.loginFailuresPerIp),
    LOGIN_POLL_MIN_INTERVAL_MS: '0',
  },
};
