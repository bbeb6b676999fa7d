import { describe, expect, it } from 'vitest';
import { entityKind, namedEntities } from '#shared/qa/conversation/entities.ts';
import { isFollowUp, resolveFollowUp } from '#shared/qa/conversation/follow-up.ts';
import { estimateTokens, recentTurns } from '#shared/qa/conversation/turns.ts';

const ZH = [
  { question: '星河计划的负责人是谁？', answer: '离线抽取式回答：\n\n> 星河计划的负责人是李明。 [1]' },
];
const EN = [{ question: 'Who leads Project Orion?', answer: 'Project Orion is led by Maria Chen [1].' }];

describe('isFollowUp', () => {
  it.each([
    '他之前负责的项目结果如何？',
    '那它的预算是多少？',
    '该项目何时开始？',
    '预算呢？',
    'What did she work on before?',
    'And the budget?',
    'What about 2023?',
    'Why?',
  ])('takes "%s" for a follow-up', (question) => {
    expect(isFollowUp(question)).toBe(true);
  });

  it.each([
    '星河计划的预算是多少？',
    'What is the budget of Project Vega?',
    'Who leads the Atlas migration?',
  ])('takes "%s" for a question that stands alone', (question) => {
    expect(isFollowUp(question)).toBe(false);
  });
});

describe('resolveFollowUp', () => {
  it('resolves a person pronoun to the person the last answer named', () => {
    expect(resolveFollowUp('他之前负责的项目结果如何？', ZH)).toEqual({
      standalone_question: '李明之前负责的项目结果如何？',
      from_turns: [1],
      subject: '李明',
    });
    expect(resolveFollowUp('What did she work on before?', EN)).toEqual({
      standalone_question: 'What did Maria Chen work on before?',
      from_turns: [1],
      subject: 'Maria Chen',
    });
  });

  it('resolves "it" to a project, not to the person', () => {
    expect(resolveFollowUp('And its budget?', EN).standalone_question).toBe("And Project Orion's budget?");
  });

  it('gives an elliptical question the subject of the last turn', () => {
    expect(resolveFollowUp('预算呢？', ZH).standalone_question).toBe('星河计划预算呢？');
  });

  it('follows a chain of rewrites: "它" after a question about a person is the project named beside him', () => {
    const turns = [
      ...ZH,
      {
        question: '他之前负责的项目结果如何？',
        standalone_question: '李明之前负责的项目结果如何？',
        answer: '> 天穹项目由王芳负责。 [1]\n> 李明此前负责的北斗项目结果良好。 [2]',
      },
    ];
    expect(resolveFollowUp('那它的预算是多少？', turns)).toEqual({
      standalone_question: '那北斗项目的预算是多少？',
      from_turns: [2],
      subject: '北斗项目',
    });
  });

  it('leaves a question that stands alone, and a first question, unchanged', () => {
    expect(resolveFollowUp('What is the budget of Project Vega?', EN)).toEqual({
      standalone_question: 'What is the budget of Project Vega?',
      from_turns: [],
    });
    expect(resolveFollowUp('And its budget?', [])).toEqual({
      standalone_question: 'And its budget?',
      from_turns: [],
    });
  });

  it('adds nothing the question already names', () => {
    expect(resolveFollowUp('What is its budget, Project Orion?', EN).standalone_question).not.toMatch(
      /\(project orion\)/,
    );
  });
});

describe('resolveFollowUp keeps the subject the questions asked about (issue 29)', () => {
  const WENXUEYUAN = [
    {
      question: '中国人民大学文学院前身是什么',
      answer:
        '离线抽取式回答：\n\n> 1939年，陕北公学、鲁迅艺术学院等合并组建华北联合大学文艺学院，这是文学院的前身。 [1]',
    },
  ];
  it.each([
    ['它成立于哪一年', '中国人民大学文学院成立于哪一年'],
    ['有哪些专业', '中国人民大学文学院有哪些专业'],
    ['学院的院长是谁', '中国人民大学文学院的院长是谁'],
    ['保研率是多少', '中国人民大学文学院保研率是多少'],
  ])(
    "writes the first question's college into '%s', not a school the answer named",
    (question, standalone) => {
      expect(resolveFollowUp(question, WENXUEYUAN)).toEqual({
        standalone_question: standalone,
        from_turns: [1],
        subject: '中国人民大学文学院',
      });
    },
  );

  it('keeps the whole college through a chain of follow-ups, each asked after the rewritten one before', () => {
    // As `dropqa chat` asked them over domainrag-dev's pages: every earlier turn stored with its rewrite.
    const turns: Parameters<typeof resolveFollowUp>[1] = [...WENXUEYUAN];
    for (const [question, standalone] of [
      ['它成立于哪一年', '中国人民大学文学院成立于哪一年'],
      ['学院的院长是谁', '中国人民大学文学院的院长是谁'],
      ['保研率是多少', '中国人民大学文学院保研率是多少'],
      ['该学院有哪些专业', '中国人民大学文学院有哪些专业'],
      ['它的学生有多少人', '中国人民大学文学院的学生有多少人'],
    ] as const) {
      const rewrite = resolveFollowUp(question, turns);
      expect(rewrite.standalone_question, `after ${turns.length} turns`).toBe(standalone);
      turns.push({
        question,
        standalone_question: rewrite.standalone_question,
        subject: rewrite.subject,
        answer:
          '离线抽取式回答：\n\n> 中国人民大学社会与人口学院成立于 2003 年 4 月，由原社会学系、人口学系合并而成。 [1]',
      });
    }
  });

  it('keeps the college after a question naming only a place a preposition governs ("在北京")', () => {
    const where = resolveFollowUp('在北京有几个校区', WENXUEYUAN);
    expect(where.standalone_question).toBe('中国人民大学文学院在北京有几个校区');
    const turns = [
      ...WENXUEYUAN,
      { question: '在北京有几个校区', ...where, answer: '离线抽取式回答：\n\n> 学校在北京有两个校区。 [1]' },
    ];
    expect(resolveFollowUp('保研率是多少', turns).standalone_question).toBe('中国人民大学文学院保研率是多少');
  });

  it('puts the project asked about in place of "it", not a word of the answer', () => {
    const cost = [
      {
        question: 'What was the final cost of Project Borealis?',
        answer:
          'Offline extractive answer:\n\n> According to the audit, the final cost of Project Borealis was 4.2 million euros. [1]\n> Project Borealis was led by Ingrid Solberg. [3]',
      },
    ];
    expect(resolveFollowUp('And who led it?', cost).standalone_question).toBe(
      'And who led Project Borealis?',
    );
    const lead = [
      {
        question: 'Who led Project Borealis?',
        answer:
          'Offline extractive answer:\n\n> Project Borealis was led by Ingrid Solberg from Rotterdam. [1]',
      },
    ];
    expect(resolveFollowUp('What did it cost in the end?', lead).standalone_question).toBe(
      'What did Project Borealis cost in the end?',
    );
  });
});

describe('resolveFollowUp with pronouns of two kinds', () => {
  it('gives "he" the person beside the project asked about, then "its" the project named beside him', () => {
    const answer =
      'Offline extractive answer:\n\n> Zhang San leads project Alpha and previously led project Beta. [1]';
    const first = { question: 'Who leads project Alpha?', answer };
    const he = resolveFollowUp('Which project did he lead before?', [first]);
    expect(he).toEqual({
      standalone_question: 'Which project did Zhang San lead before?',
      from_turns: [1],
      subject: 'Zhang San',
    });
    const second = {
      question: 'Which project did he lead before?',
      standalone_question: he.standalone_question,
      answer,
    };
    expect(
      resolveFollowUp('What does its architecture diagram show?', [first, second]).standalone_question,
    ).toBe("What does Alpha's architecture diagram show?");
  });

  it('gives "it" the project an earlier answer names beside the person', () => {
    const first = {
      question: 'Who leads project Alpha?',
      answer: '> Project Alpha is led by Zhang San. [1]',
    };
    const second = {
      question: 'How long has he been there?',
      standalone_question: 'How long has Zhang San been there?',
      answer: '> Zhang San joined in 2019. [1]',
    };
    expect(resolveFollowUp('What does it cost?', [first, second])).toEqual({
      standalone_question: 'What does Project Alpha cost?',
      from_turns: [1],
      subject: 'Project Alpha',
    });
  });
});

describe('namedEntities and entityKind', () => {
  it('finds Chinese names, names with a head noun, quoted titles and English capitalised runs', () => {
    expect(namedEntities('星河计划的负责人是李明，参见《数据安全法》。')).toEqual([
      '数据安全法',
      '星河计划',
      '李明',
    ]);
    expect(namedEntities('What does Maria Chen say about the Atlas Migration?')).toEqual([
      'maria chen',
      'atlas migration',
    ]);
  });

  it('tells people from projects by their form', () => {
    expect(entityKind('李明')).toBe('person');
    expect(entityKind('北斗项目')).toBe('thing');
    expect(entityKind('maria chen')).toBe('person');
    expect(entityKind('atlas migration')).toBe('thing');
    expect(entityKind('atlas')).toBe('unknown');
  });
});

describe('recentTurns', () => {
  it('keeps the newest whole turns within the token budget, oldest first', () => {
    const turns = [
      { question: 'a'.repeat(40), answer: 'b'.repeat(40) },
      { question: '预算是多少？', answer: '五百万。' },
    ];
    expect(estimateTokens('预算是多少？')).toBe(6);
    expect(recentTurns(turns, 15).map((t) => t.number)).toEqual([2]);
    expect(recentTurns(turns, 100).map((t) => t.number)).toEqual([1, 2]);
    expect(recentTurns(turns, 5)).toEqual([]);
  });
});
