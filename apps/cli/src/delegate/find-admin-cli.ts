/**
 * Where the services' operator CLIs are, for `itp users|clients` (auth-service) and
 * `itp kms|credentials` (did-service). Apps never import apps, so itp runs them as their own node
 * process. In order:
 *
 * 1. the override (ITP_AUTH_ADMIN_CLI / ITP_DID_ADMIN_CLI): a .js file, or a .ts file run through tsx;
 * 2. in this repository (itp run from source or from dist/apps/cli/main.js): the service's
 *    `apps/<service>/src/cli.ts`, run through the repository's tsx;
 * 3. in a service image (tools/build/assemble-app.ts: `<out>/package.json` named
 *    `@itp/<service>-image`, entries in `<out>/dist/`): that image's bundled `dist/cli.js`
 *    beside itp's own bundle.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ConfigError } from '../errors.js';

export type AdminService = 'auth-service' | 'did-service';

export const OVERRIDE_VARIABLE: Record<AdminService, string> = {
  'auth-service': 'ITP_AUTH_ADMIN_CLI',
  'did-service': 'ITP_DID_ADMIN_CLI',
};

/** How to start one operator CLI: `node <nodeArgs…> <its arguments…>`. */
export interface AdminCli {
  nodeArgs: string[];
  /** The file that runs, for messages. */
  file: string;
}

/** The folder of this module (src/delegate in the repository, the bundle's folder in dist). */
const HERE = dirname(fileURLToPath(import.meta.url));

/** `--import <tsx>` for a .ts file: tsx as installed for that file (its node_modules). */
function tsxImport(file: string): string[] {
  let loader: string;
  try {
    loader = createRequire(file).resolve('tsx');
  } catch {
    throw new ConfigError(`${file} is TypeScript, but tsx is not installed where it is`);
  }
  return ['--import', pathToFileURL(loader).href];
}

function launch(file: string): AdminCli {
  return { file, nodeArgs: [...(file.endsWith('.ts') ? tsxImport(file) : []), file] };
}

function inRepository(service: AdminService, from: string): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'apps', service, 'src', 'cli.ts');
    if (existsSync(candidate)) return candidate;
    if (dir === dirname(dir)) return undefined;
  }
}

function inImage(service: AdminService, from: string): string | undefined {
  const candidate = join(from, 'cli.js');
  const manifest = join(from, '..', 'package.json');
  if (!existsSync(candidate) || !existsSync(manifest)) return undefined;
  try {
    const { name } = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown };
    return name === `@itp/${service}-image` ? candidate : undefined;
  } catch {
    return undefined;
  }
}

export function findAdminCli(
  service: AdminService,
  override: string | undefined,
  from: string = HERE,
): AdminCli {
  if (override !== undefined) {
    const file = resolve(override);
    if (!existsSync(file)) {
      throw new ConfigError(`${OVERRIDE_VARIABLE[service]}: no such file: ${file}`);
    }
    return launch(file);
  }
  const file = inRepository(service, from) ?? inImage(service, from);
  if (file === undefined) {
    throw new ConfigError(
      `the ${service} operator CLI was not found (looked for apps/${service}/src/cli.ts above ` +
        `${from} and for the ${service} image's dist/cli.js); set ${OVERRIDE_VARIABLE[service]} ` +
        'to its cli.js',
    );
  }
  return launch(file);
}
