#!/usr/bin/env node
// The installed `vigil` command (package.json "bin"): the TypeScript CLI loaded through tsx.
import { register } from 'tsx/esm/api';

register();
await import('./vigil.ts');
