import { createHash } from 'node:crypto';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import solc from 'solc';
import type { Abi, Hex } from 'viem';

export interface Artifact {
  contractName: string;
  abi: Abi;
  bytecode: Hex;
}

export type Artifacts = Record<string, Artifact>;

const require = createRequire(import.meta.url);

const settings = {
  optimizer: { enabled: true, runs: 200 },
  // OpenZeppelin 5 uses mcopy, which needs Cancun.
  evmVersion: 'cancun',
  outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
};

async function listSources(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.sol'))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

/** Resolves `@openzeppelin/...` style imports from this package's dependencies. */
function findImport(path: string): { contents: string } | { error: string } {
  try {
    return { contents: require('node:fs').readFileSync(require.resolve(path), 'utf8') };
  } catch {
    return { error: `import not found: ${path}` };
  }
}

/**
 * Compiles every `.sol` file under `sourcesDir` with solc-js (offline), caching the result in
 * `cacheDir` by a hash of the compiler version, settings and sources so that only an edit recompiles.
 * Contract names must be unique across files; artifacts are keyed by contract name.
 */
export async function compileContracts(sourcesDir: string, cacheDir: string): Promise<Artifacts> {
  const files = await listSources(sourcesDir);
  const sources: Record<string, { content: string }> = {};
  for (const file of files) sources[relative(sourcesDir, file)] = { content: await readFile(file, 'utf8') };
  const key = createHash('sha256')
    .update(JSON.stringify({ version: solc.version(), settings, sources }))
    .digest('hex')
    .slice(0, 16);
  const cacheFile = join(cacheDir, `artifacts-${key}.json`);
  try {
    return JSON.parse(await readFile(cacheFile, 'utf8')) as Artifacts;
  } catch {
    // not compiled yet
  }

  const output = JSON.parse(solc.compile(JSON.stringify({ language: 'Solidity', sources, settings }), { import: findImport })) as {
    errors?: { severity: string; formattedMessage: string }[];
    contracts: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>>;
  };
  const errors = (output.errors ?? []).filter((error) => error.severity === 'error');
  if (errors.length > 0) throw new Error(`solc failed:\n${errors.map((error) => error.formattedMessage).join('\n')}`);

  const artifacts: Artifacts = {};
  for (const [file, contracts] of Object.entries(output.contracts)) {
    if (!(file in sources)) continue;
    for (const [contractName, contract] of Object.entries(contracts)) {
      if (artifacts[contractName]) throw new Error(`contract name ${contractName} is declared twice`);
      artifacts[contractName] = { contractName, abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` };
    }
  }
  await mkdir(cacheDir, { recursive: true });
  await writeFile(cacheFile, JSON.stringify(artifacts));
  return artifacts;
}
