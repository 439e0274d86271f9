// Jest loads global setup outside its module mapper, so this plain-JS shim loads the TypeScript
// harness through tsx (which resolves `.js` specifiers to `.ts` and the workspace packages).
import { tsImport } from 'tsx/esm/api';

export default async function globalSetup() {
  const { setup } = await tsImport('./global-setup.ts', import.meta.url);
  await setup();
}
