#!/usr/bin/env node
'use strict';
// A reader that went away (`| head`) is no error of ours: files are written before the
// report is printed, so stop quietly with the exit code the run has so far.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (e) => {
    if (e && e.code === 'EPIPE') process.exit(process.exitCode === undefined ? 0 : process.exitCode);
    throw e;
  });
}
// exitsAfter: once files are being written, a stop signal stays caught to the end (a death by
// signal says "stopped before writing").
require('../dist/src/cli/main.js')
  .main(process.argv, { stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd(), exitsAfter: true })
  .then((code) => {
    // Leave by process.exit once the output is out: a natural exit first closes the signal
    // handles, and a stop signal in that last moment would kill a finished run.
    process.exitCode = code;
    process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
  })
  .catch((e) => {
    process.stderr.write(`httpd24-codemod: internal error: ${e && e.message ? e.message : e}\n`);
    if (process.argv.includes('--verbose') && e && e.stack) process.stderr.write(e.stack + '\n');
    process.exitCode = 2;
  });
