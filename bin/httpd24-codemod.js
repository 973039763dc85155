#!/usr/bin/env node
'use strict';
require('../dist/src/cli/main.js')
  .main(process.argv)
  .then((code) => {
    process.exitCode = code;
  })
  .catch((e) => {
    process.stderr.write(`httpd24-codemod: internal error: ${e && e.message ? e.message : e}\n`);
    if (process.argv.includes('--verbose') && e && e.stack) process.stderr.write(e.stack + '\n');
    process.exitCode = 2;
  });
