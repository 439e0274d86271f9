/**
 * Step-up in itp (RFC 9470, docs/api.md §12). Commands that add a way into the account (address
 * link, vc issue, vc offer, did create with a token) need a token whose login is recent (300 s by
 * default). When the platform answers such a command with the step-up challenge, itp logs in again
 * as the token's user — if it can get the password: from stdin with --password-stdin, or typed at
 * the terminal — and the SDK sends the request once more with the new token (the SDK's
 * `reauthenticate` option). itp keeps no session, so the new token serves this command only; the
 * given one stays valid for everything else. Without a way to get the password the command exits
 * 1 and says what to do.
 */
import type { LoginResult, StepUpRequiredError } from '@itp/client';
import { readSecret, type StdinReader } from './input/read-input.js';
import { canPrompt, readPassword, type TerminalInput } from './input/read-password.js';
import type { ProgressStream } from './output/progress.js';

export interface StepUpDeps {
  /** The token itp was given (--token / ITP_TOKEN): the user to log in again as. */
  token: string | undefined;
  /** --password-stdin: the password comes from stdin. */
  passwordFromStdin: boolean;
  stdin: StdinReader;
  /** The terminal to ask on, when both are one. */
  terminal: { input: TerminalInput; output: ProgressStream };
  login(params: { id: string; password: string }): Promise<LoginResult>;
  notify(line: string): void;
}

/** The `sub` (user id) of a JWT, read without verifying it (only to know whom to log in as). */
export function subjectOf(jwt: string): string | undefined {
  const payload = jwt.split('.')[1];
  if (payload === undefined) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as unknown;
    const sub = (claims as { sub?: unknown } | null)?.sub;
    return typeof sub === 'string' && sub !== '' ? sub : undefined;
  } catch {
    return undefined;
  }
}

/** "this needs a login within the last 300 seconds" (or "a recent login" without max_age). */
export function loginNeeded(challenge: StepUpRequiredError): string {
  return challenge.maxAgeSeconds !== undefined
    ? `this needs a login within the last ${challenge.maxAgeSeconds} seconds`
    : 'this needs a recent login';
}

/**
 * The SDK's `reauthenticate` for itp: the new token, or undefined when there is no password to
 * be had (then the StepUpRequiredError surfaces, see describeStepUp). A wrong password is the
 * login's own error (exit 1).
 */
export function stepUpReauthentication(
  deps: StepUpDeps,
): (challenge: StepUpRequiredError) => Promise<string | undefined> {
  return async (challenge) => {
    const id = deps.token === undefined ? undefined : subjectOf(deps.token);
    if (id === undefined) return undefined;
    const { input, output } = deps.terminal;
    let password: string;
    if (deps.passwordFromStdin) {
      password = (await readSecret('password', undefined, true, deps.stdin)) as string;
    } else if (canPrompt(input, output)) {
      password = await readPassword(
        input,
        output,
        `${loginNeeded(challenge)}: password for ${id}: `,
      );
    } else {
      return undefined;
    }
    const login = await deps.login({ id, password });
    deps.notify(
      `logged in again as ${login.name} (${login.userId}) for this command: ${loginNeeded(challenge)}`,
    );
    return login.token;
  };
}

/** The stderr lines for a step-up refusal itp could not answer itself. */
export function describeStepUp(err: StepUpRequiredError): string {
  const where = err.operation ? ` (${err.operation})` : '';
  return (
    `error [${String(err.code)}]${where}: ${loginNeeded(err)}: run \`itp login\` and retry\n` +
    '(itp logs in again on the way when it can ask for the password: in a terminal, or with ' +
    '--password-stdin)\n'
  );
}
