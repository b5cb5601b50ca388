#!/usr/bin/env node
// The outermost entry: the only code that reads process.argv, prints, and sets the exit code.
import { runCli } from './main.js';
import { processIO } from './process-io.js';

process.exitCode = await runCli(process.argv.slice(2), processIO());
