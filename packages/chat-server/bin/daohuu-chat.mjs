#!/usr/bin/env node
// The package ships TypeScript source; tsx compiles it on the fly, exactly as `npm run chat` does.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli.ts');
