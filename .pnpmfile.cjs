// better-sqlite3 is compiled by node-gyp, which otherwise downloads Node's headers from nodejs.org
// and fails offline (ENOTFOUND). Every usual Node install (official tarball, Debian and NodeSource
// packages, nvm, Homebrew) ships those headers beside the binary, so point node-gyp at them unless
// `nodedir` is already configured.
const fs = require('node:fs');
const path = require('node:path');

const nodeDir = path.resolve(path.dirname(process.execPath), '..');
const hasHeaders = fs.existsSync(path.join(nodeDir, 'include', 'node', 'common.gypi'));

module.exports = {
  hooks: {
    updateConfig(config) {
      if (hasHeaders && config.rawConfig && !config.rawConfig.nodedir) config.rawConfig.nodedir = nodeDir;
      return config;
    },
  },
};
