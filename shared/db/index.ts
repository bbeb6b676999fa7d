export {
  type Database,
  type Db,
  MIGRATIONS_FOLDER,
  openDatabase,
  openPglite,
  openPgliteWorker,
  openPostgres,
  queryRows,
} from './client.ts';
export type { DocumentStatus, NodeType, VersionStatus } from './schema.ts';
export * as schema from './schema.ts';
