// The layers (docs/architecture.md, "Layers"), checked by `pnpm layers` in CI. Between the packages:
// the contract stands alone, the SDK builds on it, the agent and the console on the SDK, and nothing
// imports the server. In server/src a folder imports only its own files and folders of a lower rank;
// the composition root (the files directly in server/src: app.ts, serve.ts, cli.ts, main.ts,
// migrations.ts) imports anything and nothing imports it. Type-only imports count too. A new folder
// of server/src must be given a rank here.
const RANKS = [
  { name: 'lib', folders: ['lib'] }, // imports nothing of ours
  { name: 'db', folders: ['db'] },
  { name: 'search', folders: ['search'] }, // keyword search: words, BM25, the FTS5 and tsvector engines
  { name: 'embeddings', folders: ['embeddings'] }, // the embedders, the re-ranking and fusion of hits by meaning
  { name: 'http', folders: ['events', 'http'] },
  { name: 'core', folders: ['core'] }, // the context every area is given, the Area shape
  { name: 'meaning', folders: ['meaning'] }, // recall by meaning's infrastructure: the embedding worker and queue, the vector index
  // The areas, in tiers: an area imports areas of a lower tier only.
  { name: 'owners', folders: ['accounts', 'minds'] }, // who and which mind
  { name: 'content', folders: ['chat', 'computers', 'memories', 'mind-scripts', 'tasks', 'webhooks'] }, // a mind's content, devices, hooks
  { name: 'composed', folders: ['mcp', 'oauth', 'recall', 'system', 'transfer'] }, // composed over other areas
];

const SRC = '^server/src/';
const folders = (list) => `${SRC}(${list.join('|')})/`;

const ranked = folders(RANKS.flatMap((rank) => rank.folders));
const below = (i) => RANKS.slice(0, i).flatMap((rank) => rank.folders);
const layerRules = RANKS.map((rank, i) => ({
  name: `${rank.name}-imports-down`,
  comment: `${rank.folders.join(', ')}: ${i ? `imports only ${below(i).join(', ')}` : 'imports no folder of ours'} (and its own files)`,
  severity: 'error',
  from: { path: folders(rank.folders) },
  to: { path: folders(RANKS.slice(i).flatMap((r) => r.folders)), pathNot: `${SRC}$1/` },
}));

const PACKAGES = ['contract', 'sdk', 'agent', 'console', 'server'];
/** What each package may import of the others (their src/ folders); the server is imported by none. */
const PACKAGE_IMPORTS = { contract: [], sdk: ['contract'], agent: ['sdk', 'contract'], console: ['sdk', 'contract'], server: ['contract'] };
const packageRules = PACKAGES.map((pkg) => {
  const others = PACKAGES.filter((other) => other !== pkg && !PACKAGE_IMPORTS[pkg].includes(other));
  return {
    name: `${pkg}-package-imports`,
    comment: `${pkg}/src imports ${PACKAGE_IMPORTS[pkg].length ? `only ${PACKAGE_IMPORTS[pkg].join(' and ')} of the other packages` : 'no other package'}`,
    severity: 'error',
    from: { path: `^${pkg}/src/` },
    to: { path: `^(${others.join('|')})/src/` },
  };
});

/** Within the SDK, core/ (transport, errors, paging) sits below everything but the contract's re-export. */
const sdkRules = [
  {
    name: 'sdk-core-imports-down',
    comment: 'sdk/src/core imports only core/ and the contract (contract.ts, openapi-shim.ts)',
    severity: 'error',
    from: { path: '^sdk/src/core/' },
    to: { path: '^sdk/src/', pathNot: '^sdk/src/(core/|contract\\.ts$|openapi-shim\\.ts$)' },
  },
  {
    name: 'contract-errors-at-the-bottom',
    comment: 'contract/src/errors imports only its own files and zod.ts',
    severity: 'error',
    from: { path: '^contract/src/errors/' },
    to: { path: '^contract/src/', pathNot: '^contract/src/(errors/|zod\\.ts$)' },
  },
];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...packageRules,
    ...sdkRules,
    ...layerRules,
    {
      name: 'composition-root-on-top',
      comment: 'the files directly in server/src compose the service; no folder imports them (pass what it needs in instead)',
      severity: 'error',
      from: { path: `${SRC}[^/]+/` },
      to: { path: `${SRC}[^/]+$` },
    },
    {
      name: 'folder-has-a-rank',
      comment: 'every folder of server/src has a rank in .dependency-cruiser.cjs',
      severity: 'error',
      from: { path: `${SRC}[^/]+/`, pathNot: ranked },
      to: {},
    },
    {
      name: 'imported-folder-has-a-rank',
      comment: 'every folder of server/src has a rank in .dependency-cruiser.cjs',
      severity: 'error',
      from: {},
      to: { path: `${SRC}[^/]+/`, pathNot: ranked },
    },
    {
      name: 'no-circular',
      comment: 'no import cycle between modules (pnpm cycles checks the other packages)',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    includeOnly: `^(${PACKAGES.join('|')})/src/`,
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
