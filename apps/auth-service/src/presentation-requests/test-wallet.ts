// The third-party test wallet lives in @itp/presentations/testing (the e2e suites use it too).
export { testWallet } from '@itp/presentations/testing';
