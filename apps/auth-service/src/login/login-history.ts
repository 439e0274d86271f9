/**
 * How a user logged in, as RFC 8176 `amr` values name it where one exists: `pwd` (password),
 * `app` (the phone app's approval of a web-site login), `vp` (a verifiable presentation: VP
 * login or OpenID4VP), `siwe` (Sign-In with Ethereum).
 */
export type LoginMethod = 'pwd' | 'app' | 'vp' | 'siwe';

export const LOGIN_METHODS: readonly LoginMethod[] = ['pwd', 'app', 'vp', 'siwe'];

/** The last login of each user per method (operator `users show`; docs/api.md §12). */
export interface LoginHistory {
  record(userId: string, method: LoginMethod, now: number): Promise<void>;
  /** Epoch ms of the last login per method (methods never used are absent). */
  lastLogins(userId: string): Promise<Partial<Record<LoginMethod, number>>>;
}
