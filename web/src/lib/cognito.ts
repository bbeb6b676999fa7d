import type { CognitoSettings } from './client-config.ts';

/** A sign-in step's outcome: a token, or Cognito asking for a new password (admin-created users). */
export type SignInResult =
  | { kind: 'signed-in'; idToken: string }
  | { kind: 'new-password'; session: string; username: string };

/** A refused sign-in, with a sentence for the user and Cognito's exception name. */
export class SignInError extends Error {
  override readonly name = 'SignInError';
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

const FRIENDLY: Record<string, string> = {
  NotAuthorizedException: 'Incorrect user name or password.',
  UserNotFoundException: 'Incorrect user name or password.',
  UserNotConfirmedException: 'This account is not confirmed yet. Ask your administrator.',
  PasswordResetRequiredException: 'Your password must be reset. Ask your administrator.',
  TooManyRequestsException: 'Too many attempts. Wait a minute and try again.',
  LimitExceededException: 'Too many attempts. Wait a minute and try again.',
};

interface AuthAnswer {
  AuthenticationResult?: { IdToken?: string };
  ChallengeName?: string;
  Session?: string;
  __type?: string;
  message?: string;
}

async function call(settings: CognitoSettings, action: string, body: unknown): Promise<AuthAnswer> {
  const endpoint = settings.endpoint ?? `https://cognito-idp.${settings.region}.amazonaws.com/`;
  let response: Response;
  try {
    response = await fetch(endpoint, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-amz-json-1.1',
        'X-Amz-Target': `AWSCognitoIdentityProviderService.${action}`,
      },
      body: JSON.stringify(body),
    });
  } catch {
    throw new SignInError('The sign-in service cannot be reached. Check your connection.', 'network');
  }
  const answer = (await response.json().catch(() => ({}))) as AuthAnswer;
  if (!response.ok) {
    // `__type` may carry a namespace prefix: "com.amazonaws...#NotAuthorizedException".
    const code = (answer.__type ?? 'http_error').split('#').pop() ?? 'http_error';
    const message =
      code === 'InvalidPasswordException' || code === 'InvalidParameterException'
        ? (answer.message ?? 'That password is not allowed.')
        : (FRIENDLY[code] ?? answer.message ?? `Sign-in failed (${response.status}).`);
    throw new SignInError(message, code);
  }
  return answer;
}

function resultOf(answer: AuthAnswer, username: string): SignInResult {
  const idToken = answer.AuthenticationResult?.IdToken;
  if (idToken) return { kind: 'signed-in', idToken };
  if (answer.ChallengeName === 'NEW_PASSWORD_REQUIRED' && answer.Session)
    return { kind: 'new-password', session: answer.Session, username };
  throw new SignInError(
    `This account needs a sign-in step the web client does not support (${answer.ChallengeName ?? 'unknown'}).`,
    'unsupported_challenge',
  );
}

/** Signs in with a user name and password (Cognito InitiateAuth, USER_PASSWORD_AUTH). */
export async function initiateAuth(
  settings: CognitoSettings,
  username: string,
  password: string,
): Promise<SignInResult> {
  const answer = await call(settings, 'InitiateAuth', {
    AuthFlow: 'USER_PASSWORD_AUTH',
    ClientId: settings.clientId,
    AuthParameters: { USERNAME: username, PASSWORD: password },
  });
  return resultOf(answer, username);
}

/** Answers NEW_PASSWORD_REQUIRED with the password the user chose (RespondToAuthChallenge). */
export async function setNewPassword(
  settings: CognitoSettings,
  challenge: { session: string; username: string },
  newPassword: string,
): Promise<SignInResult> {
  const answer = await call(settings, 'RespondToAuthChallenge', {
    ChallengeName: 'NEW_PASSWORD_REQUIRED',
    ClientId: settings.clientId,
    Session: challenge.session,
    ChallengeResponses: { USERNAME: challenge.username, NEW_PASSWORD: newPassword },
  });
  return resultOf(answer, challenge.username);
}
