/**
 * create-vc and verify-vc of several did-service builds in turns, beside the in-process
 * references of scenarios 3 and 4 measured in the same rounds (issue 37): `npx tsx
 * bench/src/did-vc-turns.ts --gateway <url of a running stack> --target before=<url>
 * --target after=<url> [--seconds 8] [--rounds 3] [--create-connections 10]
 * [--verify-connections 20]`. A target is a did-service (or a gateway in front of one) that shares
 * the stack's database and auth-service, so one login, one holder DID and one credential serve
 * every target; the targets' order alternates from round to round. Each figure is printed with
 * the 1-minute load average read right after it. Not part of `npm run bench`.
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { ES256KSigner, createJWT, decodeJWT, verifyJWT } from 'did-jwt';
import type { DIDResolutionResult } from 'did-resolver';
import { Wallet } from 'ethers';
import { httpLoad, loopLoad, type Figure } from './load.js';
import { recoveriesNote } from './scenarios.js';

interface Options {
  gateway: string;
  /** `--target name=url[@pid]`: with the pid of the did-service behind it, its CPU time per request. */
  targets: Array<{ name: string; url: string; pid?: number }>;
  seconds: number;
  rounds: number;
  createConnections: number;
  verifyConnections: number;
  /** What each round measures (default all): create, sign-ref, verify, verify-ref. */
  phases: Set<string>;
}

function parseArgs(argv: string[]): Options {
  const options: Options = {
    gateway: '',
    targets: [],
    seconds: 8,
    rounds: 3,
    createConnections: 10,
    verifyConnections: 20,
    phases: new Set(['create', 'sign-ref', 'verify', 'verify-ref']),
  };
  for (let i = 0; i < argv.length; i++) {
    const value = argv[i + 1] ?? '';
    switch (argv[i]) {
      case '--gateway':
        options.gateway = value.replace(/\/$/, '');
        break;
      case '--target': {
        const eq = value.indexOf('=');
        const [url, pid] = value.slice(eq + 1).split('@');
        options.targets.push({
          name: value.slice(0, eq),
          url: url!,
          ...(pid ? { pid: Number(pid) } : {}),
        });
        break;
      }
      case '--seconds':
        options.seconds = Number(value);
        break;
      case '--rounds':
        options.rounds = Number(value);
        break;
      case '--create-connections':
        options.createConnections = Number(value);
        break;
      case '--verify-connections':
        options.verifyConnections = Number(value);
        break;
      case '--phases':
        options.phases = new Set(value.split(','));
        break;
      default:
        continue;
    }
    i++;
  }
  if (!options.gateway || options.targets.length === 0) {
    throw new Error('usage: did-vc-turns.ts --gateway <url> --target <name>=<url> …');
  }
  return options;
}

async function postJson<T>(url: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status} ${text.slice(0, 200)}`);
  return JSON.parse(text) as T;
}

/** The demo user's bearer, a holder DID bound to it, the first issuer and one VC of theirs. */
async function identity(gateway: string) {
  const login = await postJson<{ token: string }>(`${gateway}/v2/auth/auth-user`, {
    id: 'demo',
    password: 'demo-password',
  });
  const bearer = `Bearer ${login.token}`;
  const wallet = await postJson<{ result: { resultData: { address: string; secretKey: string } } }>(
    `${gateway}/token`,
    { jsonrpc: '2.0', id: 1, method: 'createAddress', params: {} },
  );
  const { address, secretKey } = wallet.result.resultData;
  const created = await postJson<{ did: string }>(
    `${gateway}/v2/did/create-did`,
    { alias: `turns-${Date.now()}`, address, secretKey },
    { authorization: bearer },
  );
  const issuers = (await (await fetch(`${gateway}/v2/did/issuers`)).json()) as Array<{
    did: string;
  }>;
  const issuer = issuers[0]!.did;
  const createBody = { holder: created.did, issuer, userInfo: { name: 'Bench User' } };
  const vc = await postJson<Record<string, unknown>>(`${gateway}/v2/did/create-vc`, createBody, {
    authorization: bearer,
  });
  return { bearer, createBody, vc };
}

const load1 = () => Math.round(loadavg()[0]! * 100) / 100;

/** CPU time of a process (all its threads), ms: utime + stime of /proc/<pid>/stat. */
function cpuMsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10; // clock ticks of 10 ms
}

function row(
  round: number,
  what: string,
  figure: Figure,
  load: number,
  cpuMsPerOp?: number,
): string {
  const cpu = cpuMsPerOp === undefined ? '' : String(Math.round(cpuMsPerOp * 100) / 100);
  return `| ${round} | ${what} | ${figure.rate} | ${figure.p50} | ${figure.p99} | ${figure.errors} | ${cpu} | ${load} |`;
}

/** An HTTP load of one target, with the CPU time its process spent per request when its pid is known. */
async function measured(
  target: Options['targets'][number],
  load: Parameters<typeof httpLoad>[0],
): Promise<{ figure: Figure; cpuMsPerOp?: number }> {
  await httpLoad({ ...load, seconds: load.warmupSeconds ?? 2, warmupSeconds: 0 });
  const before = target.pid ? cpuMsOf(target.pid) : 0;
  const figure = await httpLoad({ ...load, warmupSeconds: 0 });
  if (!target.pid || figure.total === 0) return { figure };
  return { figure, cpuMsPerOp: (cpuMsOf(target.pid) - before) / figure.total };
}

/** An in-process reference with the CPU time this process spent per operation. */
async function referenceLoad(
  ...args: Parameters<typeof loopLoad>
): Promise<{ figure: Figure; cpuMsPerOp: number }> {
  const before = process.cpuUsage();
  const figure = await loopLoad(...args);
  const used = process.cpuUsage(before);
  return { figure, cpuMsPerOp: (used.user + used.system) / 1000 / Math.max(figure.total, 1) };
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  const { bearer, createBody, vc } = await identity(options.gateway);
  const jwt = String((vc.proof as { jwt: string }).jwt);
  const verified = await postJson<{ verified: boolean; didResolutionResult: DIDResolutionResult }>(
    `${options.gateway}/v2/did/verify-vc`,
    vc,
  );
  if (!verified.verified) throw new Error('the credential does not verify');
  const resolver = { resolve: async () => verified.didResolutionResult };
  const localWallet = Wallet.createRandom();
  const localDid = `did:ethr:0x7a69:${localWallet.address}`;
  const signer = ES256KSigner(Buffer.from(localWallet.privateKey.slice(2), 'hex'));
  const payload = decodeJWT(jwt).payload;
  const { seconds } = options;
  const warmupSeconds = 2;
  console.log(`# ${recoveriesNote(jwt)}`);
  console.log(
    `# ${seconds} s per figure after ${warmupSeconds} s warm-up; create-vc ${options.createConnections} connections, verify-vc ${options.verifyConnections}`,
  );
  console.log(
    '| round | figure | ops/s | p50 ms | p99 ms | errors | CPU ms per op | load avg (1 min) |',
  );
  console.log('| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (let round = 1; round <= options.rounds; round++) {
    const targets = round % 2 === 1 ? options.targets : [...options.targets].reverse();
    for (const target of options.phases.has('create') ? targets : []) {
      const { figure, cpuMsPerOp } = await measured(target, {
        label: `${target.name} create-vc`,
        url: `${target.url}/v2/did/create-vc`,
        seconds,
        warmupSeconds,
        connections: options.createConnections,
        headers: { authorization: bearer },
        body: JSON.stringify(createBody),
      });
      console.log(row(round, `${target.name} create-vc`, figure, load1(), cpuMsPerOp));
    }
    if (options.phases.has('sign-ref')) {
      const signing = await referenceLoad('createJWT', seconds, options.createConnections, () =>
        createJWT({ ...payload, iss: localDid }, { issuer: localDid, signer }, { alg: 'ES256K' }),
      );
      console.log(
        row(
          round,
          'did-jwt createJWT in process (reference)',
          signing.figure,
          load1(),
          signing.cpuMsPerOp,
        ),
      );
    }
    for (const target of options.phases.has('verify') ? targets : []) {
      const { figure, cpuMsPerOp } = await measured(target, {
        label: `${target.name} verify-vc`,
        url: `${target.url}/v2/did/verify-vc`,
        seconds,
        warmupSeconds,
        connections: options.verifyConnections,
        body: JSON.stringify(vc),
      });
      console.log(row(round, `${target.name} verify-vc`, figure, load1(), cpuMsPerOp));
    }
    if (options.phases.has('verify-ref')) {
      const verifying = await referenceLoad('verifyJWT', seconds, options.verifyConnections, () =>
        verifyJWT(jwt, { resolver }),
      );
      console.log(
        row(
          round,
          'did-jwt verifyJWT in process (reference)',
          verifying.figure,
          load1(),
          verifying.cpuMsPerOp,
        ),
      );
    }
  }
}

await main();
