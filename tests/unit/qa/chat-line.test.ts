import { describe, expect, it } from 'vitest';
import { type ChatState, chatLine } from '#shared/cli/commands/chat.ts';

const state: ChatState = { mode: 'auto', version: null, conversationId: 'c1' };

describe('chatLine', () => {
  it('asks a question and ignores an empty line', () => {
    expect(chatLine('  预算是多少？ ', state)).toEqual({ state, ask: '预算是多少？' });
    expect(chatLine('   ', state)).toEqual({ state });
  });

  it('starts a new conversation, keeping the mode and version', () => {
    expect(chatLine('/new', { ...state, mode: 'agent', version: 2 }).state).toEqual({
      mode: 'agent',
      version: 2,
    });
  });

  it('changes the mode and the version, and refuses bad ones with the choices', () => {
    expect(chatLine('/mode two-stage', state).state.mode).toBe('two-stage');
    expect(chatLine('/mode magic', state)).toMatchObject({
      state,
      message: expect.stringMatching(/auto, standard/),
    });
    expect(chatLine('/version 3', state).state.version).toBe(3);
    expect(chatLine('/version current', { ...state, version: 3 }).state.version).toBeNull();
    expect(chatLine('/version zero', state)).toMatchObject({
      state,
      message: expect.stringMatching(/version number/),
    });
  });

  it('exits on /exit and names an unknown command', () => {
    expect(chatLine('/exit', state).exit).toBe(true);
    expect(chatLine('/frobnicate', state).message).toMatch(/Unknown command "\/frobnicate"/);
  });
});
