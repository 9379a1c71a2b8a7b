import { rmSync } from 'node:fs';

// The data directory playwright.config.ts made for this run (SQLite files of the product server).
export default function globalTeardown(): void {
  const dataDir = process.env.DAOHUU_E2E_DATA_DIR;
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}
