import type { CorpusDocument } from '../../helpers/corpus.ts';
import { doc, para, section } from '../../helpers/corpus.ts';

/**
 * Two small corpora in which a follow-up only finds its answer with the turn before it: the
 * person named in turn 1's answer ran another project (turn 2), whose budget turn 3 asks for;
 * a distractor project has an outcome and a budget too, so "the project's outcome" or "its budget"
 * alone lands on either.
 */
export const ZH_CONVERSATION_CORPUS: CorpusDocument[] = [
  {
    filename: '星河计划.md',
    versions: [
      doc(
        '星河计划',
        section('团队', para('星河计划的负责人是李明，统筹整体技术路线。')),
        section('目标', para('星河计划旨在建设新一代遥感卫星数据平台。')),
      ),
    ],
  },
  {
    filename: '北斗项目复盘.md',
    versions: [
      doc(
        '北斗项目复盘',
        section('结果', para('李明此前负责的北斗项目结果良好：2022年按期交付，用户满意度达到92%。')),
        section('预算', para('北斗项目的总预算为800万元，实际支出760万元。')),
      ),
    ],
  },
  {
    filename: '天穹项目.md',
    versions: [
      doc(
        '天穹项目',
        section('结果', para('天穹项目由王芳负责，项目结果是延期三个月交付。')),
        section('预算', para('天穹项目的预算是300万元。')),
      ),
    ],
  },
];

export const EN_CONVERSATION_CORPUS: CorpusDocument[] = [
  {
    filename: 'orion.md',
    versions: [
      doc(
        'Project Orion',
        section('Team', para('Project Orion is led by Maria Chen, who sets the technical direction.')),
        section('Goals', para('Project Orion builds a satellite imaging pipeline.')),
      ),
    ],
  },
  {
    filename: 'atlas-review.md',
    versions: [
      doc(
        'Atlas Migration Review',
        section(
          'Outcome',
          para('Maria Chen previously ran the Atlas migration, which finished two months early.'),
        ),
        section('Budget', para('The Atlas migration had a budget of 1.2 million dollars.')),
      ),
    ],
  },
  {
    filename: 'vega.md',
    versions: [
      doc(
        'Project Vega',
        section('Outcome', para('Project Vega, run by Tom Baker, finished three months late.')),
        section('Budget', para('Project Vega had a budget of 3 million dollars.')),
      ),
    ],
  },
];
