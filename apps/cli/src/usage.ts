import { DEV_CHAIN } from '@itp/dev-chain/constants';
import { DEFAULT_URL } from './config.js';
import { DEFAULT_WAIT_SECONDS } from './commands/transactions.js';

export const USAGE = `itp: the identity and token platform from the command line

Usage: itp [global options] <command> [options]
   in this repository: npm run itp -- <command> …   from any folder: node <repo>/apps/cli/bin/itp.js …
   or, once installed (npm install -g ./apps/cli in the repository): itp <command> …

Global options (anywhere on the line)
  --url <url>       the gateway's base URL (env ITP_URL; default ${DEFAULT_URL}, npm start's;
                    http://localhost:<PORT> when PORT is set, as for npm start)
  --token <jwt>     a login token, for commands that act for a user (env ITP_TOKEN)
  --json            machine output: the API's answer as JSON on stdout (default: readable text)
  --password-stdin  the password, read from stdin only if a command needs a recent login (below)
  -h, --help        this text

Login
  login --id <id> (--password-stdin | --password <password>)
        prints the token (--json: the login result): TOKEN=$(itp login --id demo --password-stdin)
  login app --client-id <id> (--client-secret-stdin | --client-secret <secret>) --site <requestId prefix>
            [--wait-time <seconds>]
        the web-site side of QR login: prints the requestId on stderr, waits until the phone app
        approves it, prints the token
  login approve --oid4vp <openid4vp:// URI> --key-file <file> --vc <file> [--vc <file> …]
                [--chain-url <url>] [--registry <address>]
        a wallet for tests and demos (OpenID4VP): checks the request object's did:ethr
        signature, presents the --vc the request asks for (a VC as vc issue printed it, or its
        JWT) in a VP signed with the holder key of --key-file (hex secp256k1 private key of the
        VC's did:ethr holder: wallet create --key-file / wallet key write it, a wallet's
        secretKey is no such key), posts it to the verifier, prints its answer (exit 1: refused;
        a key that holds none of the --vc: error [no_matching_credential] naming both addresses).
        --chain-url (env ITP_CHAIN_URL; npm start prints it as "Dev chain"): where DIDs resolve;
        --registry (env ITP_DID_REGISTRY; default ${DEV_CHAIN.didRegistryAddress}, npm start's)
  login siwe --key-file <file>
        Sign-In with Ethereum with the hex secp256k1 private key in <file> (0x optional; - reads
        stdin): its address must be linked to a user (address link); prints the token (--json:
        the login result) and "logged in as <name> (<userId>) with <address>" on stderr

Account (need --token)
  account                          the token's user, linked addresses, sites holding a grant,
                                   and the credentials issued for the user with their status
                                   (valid / revoked); --json: one object
  account revoke-site <clientId>   ends that site's grants (error [404]: it has none)
  logout --everywhere              ends every token of the user (this one too) and every site's
                                   grant; then log in again. itp keeps no login of its own: the
                                   token is --token / ITP_TOKEN
  Recent login (step-up): address link, vc issue, vc offer and did create with a token add a
  way into the account and need a recent login (300 seconds by default). With an older token
  itp logs in again as the token's user when it can ask for the password (typed at the
  terminal, or --password-stdin) and retries once, for this command only; otherwise it exits 1:
  run itp login and retry.

Addresses (Sign-In with Ethereum; need --token)
  address link --key-file <file> [--address <address>]
                                   links the address of the key in <file> to the token's user,
                                   proven by a message that key signs; then login siwe works
                                   with it (exit 1 with error [409]: linked to another user);
                                   --address: the address meant, a key of another is refused (2)
  address unlink <address>         the address no longer signs in (error [404]: not yours)
  Both print the answer as JSON: { address, userId }.

Wallet (the server wallet of the token API)
  wallet create [--key-file <file>]
                              a new address; prints address, mnemonic and secretKey (shown once;
                              the dev stack funds it with 10 ETH); --key-file: writes the
                              address's private key (for --key-file; the secretKey is none)
  wallet key --key-file <file> [--address <address>]
                              writes the private key of the wallet whose mnemonic is on stdin
                              (jq -r .mnemonic wallet.json | itp wallet key --key-file k)
  wallet balance <address>    its balance in wei
  wallet transfer --from <address> (--secret-key-stdin | --secret-key <key>) --to <address>
                  --amount <amount> [--wait [--timeout <seconds>]]
        sends <amount> (wei, or with a unit: 1eth, 1.5eth, 20gwei) signed by the wallet
        (tempKey → hashKey → signData → transfer); --wait: until final (default at most
        ${DEFAULT_WAIT_SECONDS} s), exit 1 when it failed or was dropped
  tx status <transactionId>   a transaction the platform sent: status, block, error

DIDs, credentials and presentations
  did create --alias <alias> --address <address> (--secret-key-stdin | --secret-key <key>)
        the wallet's did:ethr DID; with --token it is bound to that user (needed for vc / vp)
  did issuers | did verifiers        the platform's issuer / verifier DIDs
  vc issue --holder <did> [--issuer <did>] [--claim <name>=<value> …] [--claims <file|->]
        a credential for the token's user (needs --token); default issuer: the first listed
  vc offer [--no-tx-code] [--format jwt_vc_json|dc+sd-jwt] [--claim <name>=<value> …]
           [--claims <file|->]
        an OpenID4VCI offer for the token's user (needs --token): the openid-credential-offer://
        URI (and its QR code) a standard wallet scans, once within 5 minutes, and the tx code the
        user types in; --no-tx-code: none (whoever scans it first gets the credential);
        --format dc+sd-jwt: an SD-JWT VC for EU wallets (default: a jwt_vc_json Profile VC)
  vc verify <file|->                 exit 1 when it does not verify
  vc revoke <file|-> | vc revoke --sd-jwt <sd-jwt|@file|->
        revokes the credential for good (needs the --token of the user it was issued to): the
        VC as vc issue printed it, its compact JWT, or an SD-JWT VC as the wallet received it;
        revoking again answers the same
  vp create --holder <did> [--verifier <did>] --vc <file|-> [--vc <file> …]
        a presentation (needs --token); default verifier: the first listed
  vp verify <file|->                 exit 1 when it does not verify
  A VC or VP is printed as JSON in both modes: save it with > file.json.

Blocks
  block get [<number> | <0x block hash> | <0x hex number> | latest | earliest] [--full]
        default latest; --full lists the transactions' from, to and value

Operators (the services' own operator CLIs, run with this environment: DATABASE_URL, or with
APP_ENV=development the SQLite files in DATA_DIR; DID_KMS_SECRET_KEY for kms and sd-jwt-issuer;
PUBLIC_URL for sd-jwt-issuer)
  users …      auth-service users: add, list, disable, enable, reset-password   (itp users --help)
  clients …    auth-service relying parties: add, list, disable, enable
  kms …        did-service local KMS: status, reencrypt                        (itp kms --help)
  credentials … did-service issued VCs: revoke (any user's)               (itp credentials --help)
  sd-jwt-issuer … did-service SD-JWT VC issuer key: import, renew-certificate, show
  Found in this repository, or in a service image beside itp; ITP_AUTH_ADMIN_CLI /
  ITP_DID_ADMIN_CLI name another cli.js. Their output and exit codes are passed through.

Secrets: prefer the -stdin forms; a --password / --secret-key value is visible to other users of
the machine in the process list. itp never prints a secret except the one wallet create makes.

Exit codes
  0  done
  1  refused or failed: the platform answered with an error (printed with its code, e.g.
     "error [401]: …"), a VC / VP does not verify, a transaction failed, was dropped or was not
     final in time
  2  usage or configuration: unknown command or option, missing or malformed argument,
     unreadable input file, bad --url / ITP_URL, no token where one is needed
  3  service unavailable: the gateway cannot be reached or does not answer in time, or answers
     502 / 503 / 504 (a service or its database, Redis or chain is down)
`;
