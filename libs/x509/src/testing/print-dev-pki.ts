// A process of load-or-create-dev-pki.spec.ts: imports only the lib's index (its setup must be
// enough outside Jest), loads or creates the dev PKI in argv[2] and prints what others compare.
import { loadOrCreateDevPki } from '../index.js';

const pki = await loadOrCreateDevPki(process.argv[2] ?? '', { verifierHost: 'localhost' });
process.stdout.write(
  JSON.stringify({ caPem: pki.caPem, verifier: pki.verifier.x5c, issuer: pki.issuer.x5c }),
);
