import { tsImport } from 'tsx/esm/api';

export default async function globalTeardown() {
  const { teardown } = await tsImport('./global-setup.ts', import.meta.url);
  await teardown();
}
