import type { Config, Role } from '#shared/config/index.ts';
import { ConfigError } from '#shared/errors.ts';
import type { ResilientCaller } from '../resilience/caller.ts';
import type { UsageLedger } from '../usage.ts';

export interface RoleSettings {
  model: string;
  temperature: number;
  maxTokens: number;
}

export type RolesConfig = Config['providers']['roles'];

/** What every chat provider takes beside its client. */
export interface ChatProviderOptions {
  /** `providers.chat.model`: the model of roles without their own. */
  defaultModel?: string;
  roles: RolesConfig;
  caller: ResilientCaller;
  ledger?: UsageLedger;
}

/**
 * The model, temperature and token limit for one role: `providers.roles.<role>`, its model falling
 * back to `providers.chat.model`.
 */
export function roleSettings(roles: RolesConfig, defaultModel: string | undefined, role: Role): RoleSettings {
  const settings = roles[role];
  const model = settings.model ?? defaultModel;
  if (!model) {
    throw new ConfigError(`providers.roles.${role}.model or providers.chat.model must name a model`);
  }
  return { model, temperature: settings.temperature, maxTokens: settings.maxTokens };
}
