// Validates a glTF file with the Khronos glTF validator and prints a one-line JSON summary:
// {"errors": N, "warnings": N, "messages": ["SEVERITY CODE pointer: message", ...]}.
// Usage: node validate.js MODULE_DIR FILE   (MODULE_DIR: where npm installed gltf-validator)
'use strict';
const fs = require('fs');
const path = require('path');

const [moduleDir, file] = process.argv.slice(2);
const validator = require(path.resolve(moduleDir, 'node_modules', 'gltf-validator'));
const bytes = new Uint8Array(fs.readFileSync(file));
const severities = ['ERROR', 'WARNING', 'INFO', 'HINT'];

validator.validateBytes(bytes, {
  uri: path.basename(file),
  maxIssues: 200,
  externalResourceFunction: (uri) => new Promise((resolve, reject) => {
    fs.readFile(path.resolve(path.dirname(file), decodeURIComponent(uri)),
                (err, data) => err ? reject(err.toString()) : resolve(new Uint8Array(data)));
  }),
}).then((report) => {
  const messages = report.issues.messages.map(
      (m) => `${severities[m.severity]} ${m.code} ${m.pointer || ''}: ${m.message}`);
  console.log(JSON.stringify({
    errors: report.issues.numErrors,
    warnings: report.issues.numWarnings,
    messages,
  }));
}).catch((error) => {
  console.log(JSON.stringify({errors: -1, warnings: 0, messages: [String(error)]}));
  process.exit(1);
});
