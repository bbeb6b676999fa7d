import { describe, expect, it } from 'vitest';
import { answerContexts } from '#shared/qa/answer-contexts.ts';
import { extractiveAnswer } from '#shared/qa/direct-answer.ts';
import type { SearchHit } from '#shared/search/types.ts';
import { pickAnswerSentences } from '#shared/text/answer.ts';
import { expectedAnswerType, typedSpans, withoutDateline } from '#shared/text/answer-type.ts';

const texts = (question: string, contexts: Parameters<typeof pickAnswerSentences>[1]) =>
  pickAnswerSentences(question, contexts, { lead: true }).map((s) => s.text);

describe('pickAnswerSentences: the sentence that answers leads, nothing pads', () => {
  it('leads with the sentence stating a date when the question asks when', () => {
    const quoted = texts('When did the Orion project launch?', [
      { content: 'The Orion project launch was discussed by the team in Oslo.', citation: 1 },
      { content: 'Orion went live with its launch on March 3, 2021.', citation: 2 },
    ]);
    expect(quoted[0]).toBe('Orion went live with its launch on March 3, 2021.');
  });

  it('leads with the sentence stating an amount for a Chinese 多少 question', () => {
    const quoted = texts('2021年北京大兴机场旅客吞吐量是多少？', [
      { content: '北京大兴机场2021年旅客吞吐量统计工作于1月1日启动，机场方面高度重视。', citation: 1 },
      { content: '截至2021年12月31日，大兴机场旅客吞吐量突破2500万人次。', citation: 2 },
    ]);
    expect(quoted[0]).toBe('截至2021年12月31日，大兴机场旅客吞吐量突破2500万人次。');
  });

  it("quotes a sheet row's amount line for a how-many question though it repeats no question term", () => {
    const quoted = texts('How many titanium bolts are in the Rotterdam warehouse?', [
      {
        content:
          'Part: Titanium bolt\nWarehouse: Rotterdam\nQuantity: 1450\n\nPart: Copper washer\nWarehouse: Hamburg\nQuantity: 310',
        citation: 1,
      },
    ]);
    expect(quoted).toContain('Quantity: 1450');
    expect(quoted).not.toContain('Quantity: 310');
  });

  it('quotes no further sentence that adds nothing the question asks', () => {
    const quoted = texts('What is the Kestrel budget?', [
      { content: 'The Kestrel budget is 2.4 million euros.', citation: 1 },
      { content: 'The Kestrel budget was discussed at length.', citation: 2 },
      { content: 'Budget meetings happen on Fridays.', citation: 3 },
    ]);
    expect(quoted).toEqual(['The Kestrel budget is 2.4 million euros.']);
  });

  it('quotes no further sentence once the agreed answer is quoted, though it holds other question terms', () => {
    const quoted = texts('Who won the 2021 Tour de France?', [
      { content: 'Tadej Pogacar was the 2021 Tour de France champion.', citation: 1 },
      { content: 'Pogacar won the Tour again, for the second year.', citation: 2 },
    ]);
    expect(quoted).toEqual(['Tadej Pogacar was the 2021 Tour de France champion.']);
  });

  it('reads no amount in the digits of a name such as Q3, so the sentence stating the amount is quoted', () => {
    const quoted = texts("What was Tesla's revenue in Q3 2019?", [
      { content: 'I was asked to create a Q3 2019 revenue chart.', citation: 1 },
      {
        content: 'Tesla reported third-quarter revenue of $6.3 billion and earnings per share.',
        citation: 2,
      },
    ]);
    expect(quoted[0]).toBe('Tesla reported third-quarter revenue of $6.3 billion and earnings per share.');
    expect(typedSpans('Q3 sales of the A320 rose 1,269 units.', 'number').map((s) => s.text)).toEqual([
      '1,269',
    ]);
  });

  it("quotes no other year's value as another answer for the year the question names", () => {
    const quoted = texts('What was the Kestrel budget in 2021?', [
      { content: 'The Kestrel budget in 2021 was 2.4 million euros.', citation: 1 },
      { content: 'The Kestrel budget in 2022 was 3.1 million euros.', citation: 2 },
    ]);
    expect(quoted).toEqual(['The Kestrel budget in 2021 was 2.4 million euros.']);
  });

  it('leaves out a passage about something else that shares a word or two with the question', () => {
    const quoted = texts('Who designed the Kestrel drone battery?', [
      { content: 'Maria Chen designed the Kestrel drone battery.', citation: 1 },
      { content: 'The IBM PC, released in 1981, had a battery-backed clock designed by IBM.', citation: 2 },
    ]);
    expect(quoted).toEqual(['Maria Chen designed the Kestrel drone battery.']);
  });

  it('quotes the body of an e-mail rather than its rendered Subject line', () => {
    const quoted = texts('What activities will the spring fair have?', [
      {
        content: 'From: Ann Lee <ann@school.org>\nTo: parents@school.org\nSubject: Spring fair activities',
        citation: 1,
        document: 'mail',
        rendered: true,
      },
      {
        content: 'The fair will have face painting, a petting zoo and funnel cake.',
        citation: 2,
        document: 'mail',
      },
    ]);
    expect(quoted[0]).toBe('The fair will have face painting, a petting zoo and funnel cake.');
    expect(quoted.join(' ')).not.toContain('Subject:');
  });

  it('quotes each value when the question cannot tell two documents apart', () => {
    const quoted = texts('And its budget?', [
      { content: 'The Atlas migration had a budget of 1.2 million dollars.', citation: 1 },
      { content: 'Project Vega had a budget of 3 million dollars.', citation: 2 },
    ]);
    expect(quoted).toEqual([
      'The Atlas migration had a budget of 1.2 million dollars.',
      'Project Vega had a budget of 3 million dollars.',
    ]);
  });

  it("quotes no other thing's value for the thing the question names", () => {
    const quoted = texts('What was the budget of the Atlas migration?', [
      { content: 'The Atlas migration had a budget of 1.2 million dollars.', citation: 1 },
      { content: 'Project Vega had a budget of 3 million dollars.', citation: 2 },
    ]);
    expect(quoted).toEqual(['The Atlas migration had a budget of 1.2 million dollars.']);
  });

  it('matches the year of a dateline it leaves out of the quote', () => {
    const quoted = texts('Who is the CEO of Lego in 2021?', [
      { content: 'Jørgen Vig Knudstorp was the CEO of Lego until 2017.', citation: 1 },
      { content: 'Apr 26, 2021 ... Lego CEO Niels B. Christiansen spoke to TIME.', citation: 2 },
    ]);
    expect(quoted[0]).toBe('Lego CEO Niels B. Christiansen spoke to TIME.');
  });

  it('quotes no value a single stray sentence offers once the value the passages agree on is quoted', () => {
    const quoted = texts("When was Marvel's Spider-Man released?", [
      {
        content: "Marvel's Spider-Man was released for the PlayStation 4 on September 7, 2018.",
        citation: 1,
      },
      { content: "Insomniac's Marvel's Spider-Man was released on September 7, 2018.", citation: 2 },
      { content: "Marvel's Spider-Man, released September 7, 2018, sold 3.3 million copies.", citation: 3 },
      { content: "Marvel's Spider-Man Remastered was released on November 12, 2020.", citation: 4 },
    ]);
    expect(quoted).toEqual(["Marvel's Spider-Man was released for the PlayStation 4 on September 7, 2018."]);
  });

  it('does not lead with a question a document asks', () => {
    const quoted = texts('Who directed Titanic?', [
      { content: 'Who directed Titanic (the 2023 re-release)?', citation: 1 },
      { content: 'Titanic is a 1997 film directed by James Cameron.', citation: 2 },
    ]);
    expect(quoted[0]).toBe('Titanic is a 1997 film directed by James Cameron.');
  });
});

describe('answerContexts', () => {
  it("marks an e-mail's header paragraph as rendered and keeps each passage's document", () => {
    const hit = (content: string, kind?: string) =>
      ({ content, documentId: 'd1', metadata: kind ? { kind } : {} }) as unknown as SearchHit;
    expect(answerContexts([hit('Subject: Fair', 'mail-headers'), hit('Body text.')])).toEqual([
      { content: 'Subject: Fair', citation: 1, document: 'd1', rendered: true },
      { content: 'Body text.', citation: 2, document: 'd1', rendered: false },
    ]);
  });
});

describe('answer types', () => {
  it('reads what a question asks for in English and Chinese', () => {
    expect(expectedAnswerType('When was OpenAI founded?')).toBe('date');
    expect(expectedAnswerType('Which city hosted the games?')).toBe('place');
    expect(expectedAnswerType('How many seats are there?')).toBe('number');
    expect(expectedAnswerType('Who acquired Instagram?')).toBe('name');
    expect(expectedAnswerType('第七届立法会宣誓仪式的时间')).toBe('date');
    expect(expectedAnswerType('印控克什米尔地区寺庙踩踏事故死亡人数')).toBe('number');
    expect(expectedAnswerType('MU5735航班坠毁地点在哪里')).toBe('place');
    expect(expectedAnswerType('2022年冬奥会开幕式总导演是谁')).toBe('name');
    expect(expectedAnswerType('And its budget?')).toBe('number');
    expect(expectedAnswerType('What did Project Vega cost?')).toBe('number');
    expect(expectedAnswerType('What is the main goal?')).toBeUndefined();
  });

  it('reads a Chinese question ending on 时间 and its question mark as asking for a date', () => {
    expect(expectedAnswerType('C919商业首飞时间？')).toBe('date');
    expect(expectedAnswerType('C919商业首飞时间?')).toBe('date');
    expect(expectedAnswerType('C919商业首飞时间')).toBe('date');
  });

  it('finds amounts but not the parts of dates and times', () => {
    expect(
      typedSpans('截至1月27日21时，总票房67.24亿，观影1.28亿人次。', 'number').map((s) => s.text),
    ).toEqual(['67.24亿', '1.28亿']);
    expect(typedSpans('Revenue was $6.3 billion on Oct 23, 2019.', 'number').map((s) => s.text)).toEqual([
      '$6.3 billion',
    ]);
  });

  it('drops a dateline but keeps the rest verbatim', () => {
    expect(withoutDateline('Jul 13, 2019 ... Halep beats Williams.')).toBe('Halep beats Williams.');
    expect(withoutDateline('On Jul 13, 2019 Halep won.')).toBe('On Jul 13, 2019 Halep won.');
  });
});

describe('extractiveAnswer with a hop', () => {
  it('quotes the sentence naming the bridge entity in the next document, not only the one that found it', () => {
    const hit = (content: string, documentId: string) =>
      ({ content, documentId, documentName: documentId, metadata: {} }) as unknown as SearchHit;
    const { text } = extractiveAnswer(
      'Which other project did the lead of Atlas run, and what was its result?',
      [
        hit('The project lead of Atlas is Dana Whitfield.', 'atlas'),
        hit('Vega reached its result early: the project met every goal.', 'vega'),
        hit('Dana Whitfield also led Borealis in 2022.', 'borealis'),
      ],
      false,
      ['Dana Whitfield'],
    );
    expect(text).toContain('The project lead of Atlas is Dana Whitfield.');
    expect(text).toContain('Dana Whitfield also led Borealis in 2022.');
  });

  it('quotes of a long sentence only the clauses that answer, and records the whole sentence', () => {
    const sentence =
      'Emma Raducanu won the 2021 US Open title by defeating Leylah Fernandez in the final, while the crowd in Arthur Ashe Stadium cheered for both players long into the evening.';
    const [best] = pickAnswerSentences('Who won the 2021 US Open?', [{ content: sentence, citation: 1 }], {
      lead: true,
    });
    expect(best?.text).toBe(
      'Emma Raducanu won the 2021 US Open title by defeating Leylah Fernandez in the final, …',
    );
    expect(best?.sentence).toBe(sentence);
  });

  it('quotes no further sentence that repeats the answer beside another name, but one that states it more fully', () => {
    const quoted = texts('Who won the 2021 Tour de France?', [
      { content: 'Tadej Pogačar won the 2021 Tour de France.', citation: 1 },
      { content: 'Tadej Pogačar (UAE Team Emirates) won the 2021 Tour de France again.', citation: 2 },
    ]);
    expect(quoted).toEqual(['Tadej Pogačar won the 2021 Tour de France.']);
    const dated = texts('When was OpenAI founded?', [
      { content: 'OpenAI was founded in 2015 by a group of investors.', citation: 1 },
      { content: 'OpenAI Inc was founded in December 2015 as a non-profit research lab.', citation: 2 },
    ]);
    expect(dated.some((t) => t.includes('December 2015'))).toBe(true);
  });

  it('names the disagreeing documents by their markers under sentences it already quotes', () => {
    const hit = (documentId: string, content: string) =>
      ({ documentId, documentName: `${documentId}.md`, content, sectionPath: [] }) as unknown as SearchHit;
    const { text } = extractiveAnswer(
      'What was the Kestrel budget?',
      [
        hit('plan', 'The Kestrel budget was 2.4 million euros.'),
        hit('review', 'The Kestrel budget was 3.1 million euros.'),
      ],
      false,
    );
    expect(text).toContain('The sources disagree');
    expect(text).toContain('"plan.md" [1] vs "review.md" [2]');
    expect(text.match(/2\.4 million euros/g)).toHaveLength(1);
  });
});
