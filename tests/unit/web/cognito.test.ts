import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CognitoSettings, cognitoSettingsOf } from '../../../web/src/lib/client-config.ts';
import { initiateAuth, SignInError, setNewPassword } from '../../../web/src/lib/cognito.ts';
import { type FakeCognito, startFakeCognito } from '../../e2e/helpers/fake-cognito.ts';

describe('cognitoSettingsOf', () => {
  it('reads a Cognito auth block with an optional endpoint', () => {
    const auth = { type: 'cognito', region: 'eu-west-1', userPoolId: 'eu-west-1_A', clientId: 'c1' };
    expect(cognitoSettingsOf({ auth })).toEqual(auth);
    expect(cognitoSettingsOf({ auth: { ...auth, endpoint: 'http://127.0.0.1:9/' } })?.endpoint).toBe(
      'http://127.0.0.1:9/',
    );
  });

  it('means no sign-in when config.json has no auth block', () => {
    expect(cognitoSettingsOf({})).toBeUndefined();
    expect(cognitoSettingsOf(null)).toBeUndefined();
  });

  it('refuses an auth block without a region, pool or client', () => {
    expect(() =>
      cognitoSettingsOf({ auth: { type: 'cognito', region: 'x/../evil', userPoolId: 'p', clientId: 'c' } }),
    ).toThrow(/region, a userPoolId and a clientId/);
    expect(() => cognitoSettingsOf({ auth: { type: 'cognito', region: 'eu-west-1' } })).toThrow();
  });
});

describe('Cognito sign-in over the wire', () => {
  let cognito: FakeCognito;
  let settings: CognitoSettings;

  beforeAll(async () => {
    cognito = await startFakeCognito({
      bob: { password: 'Secret-pass-1', mustChangePassword: false },
      carol: { password: 'Temporary-1', mustChangePassword: true },
    });
    settings = {
      type: 'cognito',
      region: 'eu-west-1',
      userPoolId: 'eu-west-1_A',
      clientId: 'c1',
      endpoint: cognito.url,
    };
  });
  afterAll(() => cognito?.close());

  it('returns the IdToken when the password is right', async () => {
    const result = await initiateAuth(settings, 'bob', 'Secret-pass-1');
    expect(result.kind).toBe('signed-in');
    expect(result.kind === 'signed-in' && cognito.isValid(result.idToken)).toBe(true);
  });

  it('says "incorrect user name or password" when the password is wrong', async () => {
    const error = await initiateAuth(settings, 'bob', 'nope').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SignInError);
    expect(error).toMatchObject({
      code: 'NotAuthorizedException',
      message: 'Incorrect user name or password.',
    });
  });

  it('asks for a new password first for an admin-created user, then signs in with it', async () => {
    const first = await initiateAuth(settings, 'carol', 'Temporary-1');
    expect(first).toMatchObject({ kind: 'new-password', username: 'carol' });
    if (first.kind !== 'new-password') return;
    const weak = await setNewPassword(settings, first, 'short').catch((e: unknown) => e);
    expect(weak).toMatchObject({
      code: 'InvalidPasswordException',
      message: expect.stringContaining('policy'),
    });
    const done = await setNewPassword(settings, first, 'Chosen-pass-1');
    expect(done.kind).toBe('signed-in');
  });

  it('says the service cannot be reached when nothing answers', async () => {
    const error = await initiateAuth({ ...settings, endpoint: 'http://127.0.0.1:1/' }, 'bob', 'x').catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: 'network' });
  });
});
