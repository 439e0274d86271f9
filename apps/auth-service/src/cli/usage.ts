export const USAGE = `auth-service operator CLI

Usage: npm run cli -w @itp/auth-service -- <group> <command> [options]
   or: tsx apps/auth-service/src/cli.ts <group> <command> [options]

Users
  users add <id> --name <name> [--email <email>] [--tel <telNo>]
                 (--password-stdin | --password <password>)
  users list [--json]
  users show <id> [--json]
        the user, linked addresses, passkeys, when tokens were last ended, last login
        per method
  users disable <id>
        ends every token and session of the user (they stay ended after an enable)
  users enable <id>
  users reset-password <id> (--password-stdin | --password <password>) [--keep-keys]
        a clean slate: ends every token, session, pending web-site login and open
        credential offer, unlinks every address, removes every passkey and revokes
        every credential issued for the user; --keep-keys keeps addresses, passkeys
        and credentials (a user who only forgot the password) and prints them for
        review

Relying parties (web sites using QR login or OpenID Connect)
  clients add <id> --prefix <url> [--prefix <url> ...] [--name <name>]
                   [--secret-stdin | --secret <secret>]
                   [--redirect-uri <url> ...] [--post-logout-redirect-uri <url> ...]
                   [--backchannel-logout-uri <url>] [--id-token-signing-alg ES256|RS256]
        without a secret option a random secret is generated and printed once;
        a client with a --redirect-uri may log users in through OpenID Connect;
        the provider posts a logout token to --backchannel-logout-uri when a user
        logs out at the provider (OpenID Connect Back-Channel Logout); its
        id_tokens are signed ES256 unless --id-token-signing-alg RS256 (which needs
        an RSA key in JWT_SIGNING_KEYS)
  clients set-redirect-uris <id> [--redirect-uri <url> ...]
                   [--post-logout-redirect-uri <url> ...] [--backchannel-logout-uri <url>]
        replaces all three (none given: OpenID Connect logins end for the client)
  clients set-id-token-signing-alg <id> --id-token-signing-alg ES256|RS256
        how the client's id_tokens are signed from its next login on
  clients list [--json]
  clients disable <id>
  clients enable <id>

Configuration comes from the environment, as for the service: DATABASE_URL (or, with
APP_ENV=development, the SQLite file in DATA_DIR). Secrets are never printed, except a
generated client secret, once. Prefer --password-stdin: a --password value is visible
to other users of the machine in the process list.

Exit codes: 0 done, 1 refused (e.g. unknown id, already exists), 2 usage or configuration error.
`;
