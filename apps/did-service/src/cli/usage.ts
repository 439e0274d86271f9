export const USAGE = `did-service operator CLI

Usage: node dist/cli.js <group> <command> [options]          (in the image)
   or: npm run cli -w @itp/did-service -- <group> <command> [options]

Local KMS (the service's issuer / verifier keys, sealed at rest; docs/operations.md)
  kms status [--json]      how many stored keys are sealed under which key id, and whether
                           every one opens with the configured keys (exit 1 when one does not)
  kms reencrypt [--json]   re-seal every stored key under DID_KMS_SECRET_KEY (idempotent; safe
                           while replicas run). Run it only after every running replica has
                           DID_KMS_SECRET_KEY among its keys, then drop DID_KMS_PREVIOUS_SECRET_KEYS

Credentials (revocation: W3C Bitstring Status List)
  credentials revoke [<vc> | -] [--json]
                           revoke a VC for good, whoever it was issued to: <vc> is its compact
                           JWT, or the VC JSON create-vc answered; without it (or with -) it is
                           read from stdin. The JWT must verify (expiry aside) as signed by the
                           issuer of the status list it names, a list of this service (exit 1
                           otherwise). Revoking a revoked VC is fine. Verifications see it at
                           once; the public list shows it from its next signed revision

Configuration comes from the environment, as for the service: DATABASE_URL (or, with
APP_ENV=development, the SQLite file in DATA_DIR), DID_KMS_SECRET_KEY and
DID_KMS_PREVIOUS_SECRET_KEYS (kms); ETH_RPC_URL, CHAIN_ID, DID_REGISTRY_ADDRESS and DID_NETWORK
(credentials: the issuer DIDs are resolved on the chain). Keys are never printed, only their ids.

Exit codes: 0 done, 1 refused or failed, 2 usage or configuration error.
`;
