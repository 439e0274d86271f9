export const USAGE = `did-service operator CLI

Usage: node dist/cli.js <group> <command> [options]          (in the image)
   or: npm run cli -w @itp/did-service -- <group> <command> [options]

Local KMS (the service's issuer / verifier keys and the SD-JWT VC issuer keys, sealed at rest;
docs/operations.md)
  kms status [--json]      how many stored keys are sealed under which key id, and whether
                           every one opens with the configured keys (exit 1 when one does not)
  kms reencrypt [--json]   re-seal every stored key under DID_KMS_SECRET_KEY (idempotent; safe
                           while replicas run). Run it only after every running replica has
                           DID_KMS_SECRET_KEY among its keys, then drop DID_KMS_PREVIOUS_SECRET_KEYS

SD-JWT VC issuer key and certificate (contract §15; docs/operations.md)
  sd-jwt-issuer import --key <file> --chain <file> [--root <file>] [--json]
                           make a P-256 key (PEM PKCS #8 / SEC 1, or a private JWK) with its
                           certificate chain (PEM bundle, leaf first, ending with its self-signed
                           root, or the root given with --root) the current issuer key. Refused
                           (exit 1) unless the chain verifies to its root, the leaf certifies the
                           key and names PUBLIC_URL's host as a SAN dNSName. The key is stored
                           sealed with DID_KMS_SECRET_KEY; running services use it within a minute
  sd-jwt-issuer renew-certificate --chain <file> [--root <file>] [--json]
                           a new chain for the current key (same checks): credentials issued
                           before stay valid, the did:web and kid do not change
  sd-jwt-issuer show [--json]
                           the current key's thumbprint, did, kid, certificate subject and
                           validity, root (never the key); exit 1 when none is imported

Credentials (revocation: W3C Bitstring Status List, IETF Token Status List)
  credentials revoke [<vc> | -] [--json]
                           revoke a VC for good, whoever it was issued to: <vc> is its compact
                           JWT, or the VC JSON create-vc answered; without it (or with -) it is
                           read from stdin. The JWT must verify (expiry aside) as signed by the
                           issuer of the status list it names, a list of this service (exit 1
                           otherwise). Revoking a revoked VC is fine. Verifications see it at
                           once; the public list shows it from its next signed revision.
                           An SD-JWT VC (<jwt>~<disclosures>~, its JWT alone, or {"sdJwt": …})
                           must verify with an SD-JWT issuer key imported here (sd-jwt-issuer
                           import; any of them) and name a token status list of this service

Configuration comes from the environment, as for the service: DATABASE_URL (or, with
APP_ENV=development, the SQLite file in DATA_DIR), DID_KMS_SECRET_KEY and
DID_KMS_PREVIOUS_SECRET_KEYS (kms, sd-jwt-issuer); PUBLIC_URL (sd-jwt-issuer); ETH_RPC_URL, CHAIN_ID, DID_REGISTRY_ADDRESS and DID_NETWORK
(credentials: the issuer DIDs are resolved on the chain). Keys are never printed, only their ids.

Exit codes: 0 done, 1 refused or failed, 2 usage or configuration error.
`;
