/**
 * Offline follow-up resolution time per question (target < 5 ms): `resolveFollowUp` on the
 * follow-ups of Chinese and English conversations of 1 to 8 earlier turns (offline-style answers
 * of quoted sentences), after one untimed call that loads jieba. Run alone
 * (`node bin/run-ts.js bench/follow-up.ts`) or from bench/run.ts.
 */

import { pathToFileURL } from 'node:url';
import { resolveFollowUp } from '#shared/qa/conversation/follow-up.ts';
import type { Turn } from '#shared/qa/conversation/turns.ts';

type Row = { metric: string; value: string; target: string };

const ITERATIONS = Number(process.env.BENCH_FOLLOW_UP_ITERATIONS ?? 2000);

const ZH: Turn[] = [
  {
    question: '星河计划的负责人是谁？',
    answer:
      '离线抽取式回答（未使用语言模型，以下句子原文摘自您的文档）：\n\n> 星河计划的负责人是李明，统筹整体技术路线。 [1]\n> 星河计划旨在建设新一代遥感卫星数据平台。 [2]',
  },
  {
    question: '他之前负责的项目结果如何？',
    standalone_question: '李明之前负责的项目结果如何？',
    answer:
      '离线抽取式回答：\n\n> 李明此前负责的北斗项目结果良好：2022年按期交付，用户满意度达到92%。 [1]\n> 天穹项目由王芳负责，项目结果是延期三个月交付。 [2]',
  },
];
const EN: Turn[] = [
  {
    question: 'Who leads Project Orion?',
    answer:
      'Offline extractive answer (no language model was used; the sentences below are quoted verbatim from your documents):\n\n> Project Orion is led by Maria Chen, who sets the technical direction. [1]',
  },
  {
    question: 'What was the outcome of the project she ran before?',
    standalone_question: 'What was the outcome of the project Maria Chen ran before?',
    answer:
      'Offline extractive answer:\n\n> Maria Chen previously ran the Atlas migration, which finished two months early. [1]',
  },
];
const FOLLOW_UPS: [string, Turn[]][] = [
  ['那它的预算是多少？', ZH],
  ['他之前负责的项目结果如何？', ZH.slice(0, 1)],
  ['预算呢？', [...ZH, ...ZH, ...ZH, ...ZH]],
  ['And its budget?', EN],
  ['What did she work on before?', EN.slice(0, 1)],
  ['What about the risks?', [...EN, ...EN, ...EN, ...EN]],
  ['What is the budget of Project Vega?', EN],
];

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

/** Times the offline follow-up resolution; returns the table rows. */
export function benchFollowUp(results: Record<string, unknown> = {}): Row[] {
  const loadStart = performance.now();
  resolveFollowUp(FOLLOW_UPS[0]?.[0] ?? '', ZH);
  const firstMs = performance.now() - loadStart;
  const times: number[] = [];
  for (let i = 0; i < ITERATIONS; i += 1) {
    const [question, turns] = FOLLOW_UPS[i % FOLLOW_UPS.length] as [string, Turn[]];
    const start = performance.now();
    resolveFollowUp(question, turns);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const stats = { p50: percentile(times, 50), p95: percentile(times, 95), max: times.at(-1) ?? 0, firstMs };
  results.followUp = stats;
  return [
    {
      metric: `offline follow-up resolution per question, p50 / p95 / max (${ITERATIONS} questions, 1-8 earlier turns)`,
      value: `${stats.p50.toFixed(2)} / ${stats.p95.toFixed(2)} / ${stats.max.toFixed(2)} ms`,
      target: '< 5 ms',
    },
    {
      metric: 'offline follow-up resolution, first question of a process (loads jieba)',
      value: `${firstMs.toFixed(0)} ms`,
      target: '',
    },
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.table(benchFollowUp());
}
