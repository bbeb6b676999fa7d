/** How the deployment wants users signed in (`/config.json`, written by the AWS web stack). */
export interface CognitoSettings {
  type: 'cognito';
  region: string;
  userPoolId: string;
  clientId: string;
  /** Overrides `https://cognito-idp.{region}.amazonaws.com/` (a local fake in tests). */
  endpoint?: string;
}

/** What `/config.json` says; empty locally (no file: no sign-in at all). */
export interface ClientConfig {
  auth?: CognitoSettings;
}

const text = (value: unknown): value is string => typeof value === 'string' && value.length > 0;

/** The `auth` part of a parsed `/config.json`, or undefined when it names no usable Cognito pool. */
export function cognitoSettingsOf(raw: unknown): CognitoSettings | undefined {
  const auth = (raw as { auth?: Record<string, unknown> } | null)?.auth;
  if (auth?.type !== 'cognito') return undefined;
  const { region, userPoolId, clientId, endpoint } = auth;
  if (!text(region) || !/^[a-z]{2}(-[a-z]+)+-\d+$/.test(region) || !text(userPoolId) || !text(clientId))
    throw new Error('config.json: auth needs a region, a userPoolId and a clientId');
  return { type: 'cognito', region, userPoolId, clientId, ...(text(endpoint) ? { endpoint } : {}) };
}

/** Loads `/config.json` once at start; a missing file (local mode) means no sign-in. */
export async function loadClientConfig(): Promise<ClientConfig> {
  const response = await fetch('/config.json');
  if (response.status === 404) return {};
  if (!response.ok) throw new Error(`config.json: ${response.status} ${response.statusText}`);
  const auth = cognitoSettingsOf(await response.json());
  return auth ? { auth } : {};
}
