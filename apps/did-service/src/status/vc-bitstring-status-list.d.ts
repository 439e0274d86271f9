/**
 * The part of @digitalbazaar/vc-bitstring-status-list (ESM, no type declarations of its own) this
 * service uses. Interfaces and functions only, so that another declaration of the module merges.
 */
declare module '@digitalbazaar/vc-bitstring-status-list' {
  export interface BitstringStatusList {
    readonly length: number;
    setStatus(index: number, status: boolean): void;
    getStatus(index: number): boolean;
    /** "u" + base64url (no padding) of the GZIP-compressed bitstring, index 0 the left-most bit. */
    encode(): Promise<string>;
  }
  export function createList(options: { length: number }): Promise<BitstringStatusList>;
  export function decodeList(options: { encodedList: string }): Promise<BitstringStatusList>;
}
