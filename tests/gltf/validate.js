// Validates glTF files with the Khronos glTF validator and prints, per file, a one-line JSON
// summary: {"file": F, "errors": N, "warnings": N, "messages": ["SEVERITY CODE pointer: message", ...]}.
// Usage: node validate.js MODULE_DIR FILE...   (MODULE_DIR: where npm installed gltf-validator)
// One node process for many files: starting node costs more than validating a small model.
'use strict';
const fs = require('fs');
const path = require('path');

const [moduleDir, ...files] = process.argv.slice(2);
const validator = require(path.resolve(moduleDir, 'node_modules', 'gltf-validator'));
const severities = ['ERROR', 'WARNING', 'INFO', 'HINT'];

async function validate(file) {
  try {
    const bytes = new Uint8Array(fs.readFileSync(file));
    const report = await validator.validateBytes(bytes, {
      uri: path.basename(file),
      maxIssues: 200,
      externalResourceFunction: (uri) => new Promise((resolve, reject) => {
        fs.readFile(path.resolve(path.dirname(file), decodeURIComponent(uri)),
                    (err, data) => err ? reject(err.toString()) : resolve(new Uint8Array(data)));
      }),
    });
    const messages = report.issues.messages.map(
        (m) => `${severities[m.severity]} ${m.code} ${m.pointer || ''}: ${m.message}`);
    return {file, errors: report.issues.numErrors, warnings: report.issues.numWarnings, messages};
  } catch (error) {
    return {file, errors: -1, warnings: 0, messages: [String(error)]};
  }
}

(async () => {
  let failed = false;
  for (const file of files) {
    const r = await validate(file);
    failed = failed || r.errors !== 0;
    console.log(JSON.stringify(r));
  }
  process.exit(failed ? 1 : 0);
})();
