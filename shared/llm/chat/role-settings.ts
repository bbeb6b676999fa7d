import type { Config, Role } from '#shared/config/index.ts';
import { ConfigError } from '#shared/errors.ts';

export interface RoleSettings {
  model: string;
  temperature: number;
  maxTokens: number;
}

export type RolesConfig = Config['providers']['roles'];

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
