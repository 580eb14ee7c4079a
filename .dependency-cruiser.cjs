// The server's layers (docs/architecture.md, "Layers"), checked by `pnpm layers` in CI: a folder of
// server/src imports only its own files and folders of a lower rank; the composition root (the files
// directly in server/src: app.ts, serve.ts, cli.ts, main.ts, migrations.ts) imports anything and
// nothing imports it. Type-only imports count too. A new folder must be given a rank here.
const RANKS = [
  { name: 'lib', folders: ['lib'] }, // imports nothing of ours
  { name: 'db', folders: ['db'] },
  { name: 'http', folders: ['events', 'http'] },
  { name: 'core', folders: ['core'] }, // the context every area is given, the Area shape
  // The areas, in tiers: an area imports areas of a lower tier only.
  { name: 'owners', folders: ['accounts', 'minds'] }, // who and which mind
  { name: 'content', folders: ['chat', 'computers', 'memories', 'scripts', 'tasks', 'webhooks'] }, // a mind's content, devices, hooks
  { name: 'meaning', folders: ['meaning'] }, // recall by meaning, over the memories
  { name: 'composed', folders: ['mcp', 'oauth', 'system', 'transfer'] }, // composed over other areas
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

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
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
    includeOnly: SRC,
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
