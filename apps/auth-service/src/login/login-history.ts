/**
 * How a user logged in, as RFC 8176 `amr` values name it where one exists: `pwd` (password),
 * `app` (the phone app's approval of a web-site login), `vp` (a verifiable presentation: VP
 * login or OpenID4VP), `siwe` (Sign-In with Ethereum), `hwk` / `swk` (a passkey bound to its
 * device / a synced passkey: a hardware- / software-protected key, docs/api.md §13).
 */
export type Amr = 'pwd' | 'app' | 'vp' | 'siwe' | 'hwk' | 'swk';

export const AMR_VALUES: readonly Amr[] = ['pwd', 'app', 'vp', 'siwe', 'hwk', 'swk'];

/**
 * The id_token's `amr` for a login by `amr` (RFC 8176): a passkey (`hwk` / `swk`) always with
 * user verification here, so also `user` (presence) and `mfa` (the key held and the PIN or
 * biometric that unlocked it); every other method is its own value.
 */
export function amrValues(amr: Amr): string[] {
  return amr === 'hwk' || amr === 'swk' ? [amr, 'user', 'mfa'] : [amr];
}

/** The last login of each user per method (operator `users show`; docs/api.md §12). */
export interface LoginHistory {
  record(userId: string, method: Amr, now: number): Promise<void>;
  /** Epoch ms of the last login per method (methods never used are absent). */
  lastLogins(userId: string): Promise<Partial<Record<Amr, number>>>;
}
