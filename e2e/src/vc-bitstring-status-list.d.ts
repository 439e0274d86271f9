/**
 * The part of @digitalbazaar/vc-bitstring-status-list (ESM, no type declarations of its own) the
 * suites use to read a status list as a third party does. Interfaces and functions only, so that
 * another declaration of the module merges with this one.
 */
declare module '@digitalbazaar/vc-bitstring-status-list' {
  export interface BitstringStatusList {
    readonly length: number;
    getStatus(index: number): boolean;
  }
  export function decodeList(options: { encodedList: string }): Promise<BitstringStatusList>;
}
