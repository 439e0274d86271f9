export type SecretKind =
  'privateKey' | 'mnemonic' | 'secretKey' | 'hashKey' | 'password' | 'jwt' | 'serviceSecret';

/**
 * Every secret the run handled (returned to or sent by the suite, or configured), so that the
 * scans look for the real values and not only for their shape. A private key is also looked for
 * without its 0x; a mnemonic also with its words joined by any whitespace (see scan-text.ts).
 */
export class SecretLedger {
  private readonly secrets = new Map<string, SecretKind>();

  add(kind: SecretKind, value: string): void {
    if (value.length < 8) return;
    this.secrets.set(kind === 'privateKey' ? value.replace(/^0x/i, '').toLowerCase() : value, kind);
  }

  entries(): Array<[string, SecretKind]> {
    return [...this.secrets.entries()];
  }

  count(kind?: SecretKind): number {
    return kind ? this.entries().filter(([, k]) => k === kind).length : this.secrets.size;
  }
}
