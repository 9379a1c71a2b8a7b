// `npm run backup`: one online backup of the SQLite databases into BACKUP_DIR, using the same configuration
// (environment) as the server, which may keep running meanwhile. Prints the backup's directory.
import { ConfigError, loadConfig } from '../config.ts';
import { backupSources, takeBackup } from './backup.ts';

try {
  const config = loadConfig();
  const sources = backupSources(config);
  if (!sources.some((source) => source.kind === 'sqlite')) {
    console.error(`Nothing to back up: no database in ${config.dataDir}.`);
    process.exit(1);
  }
  const result = await takeBackup(sources, {
    root: config.backup.dir,
    retain: config.backup.retain,
  });
  const megabytes = (result.bytes / 1e6).toLocaleString('en', { maximumFractionDigits: 1 });
  console.info(`Backup written to ${result.dir} (${result.files.join(', ')}; ${megabytes} MB).`);
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : `Backup failed: ${String(error)}`);
  process.exit(1);
}
