#!/usr/bin/env node
import '../dist/src/cli/entry.js';
