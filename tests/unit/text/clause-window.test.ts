import { describe, expect, it } from 'vitest';
import { clauseWindow } from '#shared/text/clause-window.ts';

const weighing =
  (...words: string[]) =>
  (clause: string) =>
    words.filter((w) => clause.includes(w)).length;

describe('clauseWindow', () => {
  it('quotes a short sentence whole', () => {
    const text = 'Orion went live on March 3, 2021.';
    expect(clauseWindow(text, weighing('Orion'), 80)).toBe(text);
  });

  it('keeps the clause of a web snippet that holds the question terms, marking the cuts', () => {
    const text =
      'Find out each winning team throughout the history of the league ... Super Bowl LV was played in Tampa ... Tickets and hotel packages are on sale now for next season.';
    expect(clauseWindow(text, weighing('Super Bowl', 'Tampa'), 80)).toBe(
      '… Super Bowl LV was played in Tampa …',
    );
  });

  it('cuts at a sentence end the sentence splitter keeps because a number precedes the period', () => {
    const text =
      "Marvel's Spider-Man was released on September 7, 2018. The game received praise for its narrative, characterization and combat.";
    expect(clauseWindow(text, weighing('released', '2018'), 80)).toBe(
      "Marvel's Spider-Man was released on September 7, 2018. …",
    );
  });

  it('never cuts inside a date or between the parts of a place name', () => {
    const text =
      'Super Bowl 2021 will take place at Raymond James Stadium in Tampa, Florida, with three of the four years beyond that also already determined by the league owners.';
    expect(clauseWindow(text, weighing('Super Bowl', 'Tampa'), 80)).toBe(
      'Super Bowl 2021 will take place at Raymond James Stadium in Tampa, Florida, …',
    );
  });

  it("keeps a short opening clause, the sentence's subject, with the clause after it", () => {
    const text =
      'Toy Story 4, the long-awaited next chapter in the saga of Woody and Buzz, won Best Animated Feature at the Academy Awards ceremony on Sunday night in Los Angeles.';
    expect(clauseWindow(text, weighing('won Best Animated Feature'), 80)).toMatch(/^Toy Story 4, /);
  });

  it('quotes the sentence whole when no clause weighs anything', () => {
    const text =
      'A long sentence about nothing in particular, which goes on and on, and on again, well past the limit of the window.';
    expect(clauseWindow(text, () => 0, 40)).toBe(text);
  });
});
