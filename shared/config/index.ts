export { envName, loadConfig, parseConfig } from './load.ts';
export { maskSecrets } from './mask.ts';
export { type Config, type ConfigInput, configSchema, type ProviderKind, type Role } from './schema.ts';
