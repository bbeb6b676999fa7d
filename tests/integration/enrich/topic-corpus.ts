/**
 * A generated corpus of twelve short documents on four subjects, two in English and two in Chinese,
 * three documents each, for the offline topics: every document also carries filler sentences made
 * of function words and fragments ("adding", "beneath", "here", "一张", "下面") that must never
 * become topics.
 */
export interface CorpusDocument {
  title: string;
  sections: [string, string][];
}

export interface CorpusSubject {
  /** The topic the subject's documents must meet under. */
  topic: string;
  documents: CorpusDocument[];
}

const FILLER_EN = [
  'Adding to this, the notes beneath carry what was provided here, standing as the record for now.',
  'It carries on from there; anything provided beneath stays standing until someone adds more.',
];
const FILLER_ZH = [
  '下面一张表格补充了上面提到的内容，这里不再重复。',
  '另外，以下几点仅供参考，测试之后再看。',
];

function english(title: string, ...paragraphs: [string, string][]): CorpusDocument {
  return {
    title,
    sections: [...paragraphs, ['Notes', FILLER_EN.join(' ')]],
  };
}

function chinese(title: string, ...paragraphs: [string, string][]): CorpusDocument {
  return { title, sections: [...paragraphs, ['备注', FILLER_ZH.join('')]] };
}

export const SUBJECTS: CorpusSubject[] = [
  {
    topic: 'Project Borealis',
    documents: [
      english(
        'Project Borealis charter',
        [
          'Purpose',
          'Project Borealis replaces the heating controls of the northern sites. Project Borealis reports to the operations board.',
        ],
        ['Scope', 'The charter of Project Borealis covers twelve buildings and their heating controls.'],
      ),
      english(
        'Borealis review 2023',
        [
          'Outcome',
          'Project Borealis cut energy use by 18 percent in 2022. The review found the heating controls reliable.',
        ],
        ['Lessons', 'Project Borealis kept its schedule; the review asks for earlier supplier contracts.'],
      ),
      english(
        'Finance memo on Borealis',
        ['Costs', 'The cost of Project Borealis was 2.4 million euros, under the approved budget.'],
        ['Savings', 'Energy savings from Project Borealis pay back the cost within four years.'],
      ),
    ],
  },
  {
    topic: 'refund policy',
    documents: [
      english(
        'Refund policy',
        [
          'Eligibility',
          'Our refund policy allows a refund within 30 days of purchase. The refund policy covers unused items.',
        ],
        [
          'Process',
          'Customers request a refund through the support portal; refunds reach the original card.',
        ],
      ),
      english(
        'Customer handbook',
        [
          'Returns',
          'The refund policy applies to every store. Staff explain the refund policy before a return.',
        ],
        ['Complaints', 'Customer complaints go to the support portal within two days.'],
      ),
      english(
        'Support team guide',
        [
          'Refund requests',
          'Agents check the refund policy for each request. A refund above 500 euros needs a manager.',
        ],
        ['Escalation', 'Unresolved refund requests go to the support portal queue.'],
      ),
    ],
  },
  {
    topic: '数据平台',
    documents: [
      chinese(
        '数据平台项目章程',
        ['目标', '数据平台统一公司的报表和指标。数据平台由技术部负责建设。'],
        ['范围', '数据平台接入财务系统和销售系统的数据。'],
      ),
      chinese(
        '数据平台上线总结',
        ['结果', '数据平台于2023年6月上线，报表生成时间缩短一半。'],
        ['问题', '数据平台的数据质量仍需改进，部分指标口径不一致。'],
      ),
      chinese(
        '数据平台运维手册',
        ['监控', '数据平台的任务失败时自动告警。运维人员每天检查数据平台的任务日志。'],
        ['备份', '数据平台每天凌晨备份一次。'],
      ),
    ],
  },
  {
    topic: '安全培训',
    documents: [
      chinese(
        '安全培训计划',
        ['安排', '全体员工每季度参加一次安全培训。安全培训包括消防演练和急救知识。'],
        ['考核', '安全培训结束后进行考核，考核不合格需重新参加安全培训。'],
      ),
      chinese(
        '新员工入职指南',
        ['第一周', '新员工入职第一周完成安全培训和系统账号申请。'],
        ['导师', '每位新员工由导师带领熟悉安全培训要求和工作流程。'],
      ),
      chinese(
        '安全培训记录',
        ['第三季度', '第三季度共有120名员工完成安全培训，消防演练合格率为98%。'],
        ['改进', '下季度安全培训增加急救知识的实操环节。'],
      ),
    ],
  },
];
