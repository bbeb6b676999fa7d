/**
 * A deterministic generator of Markdown documents for benchmarks: English and Chinese, nested
 * headings, ~50 paragraphs each, words drawn with a Zipf-like skew so some terms are common and most
 * are rare, as in real text.
 */

const EN =
  `system data platform budget project team cloud network security migration container cluster service
customer revenue quarter report risk plan design review architecture storage database index search query
model latency throughput release deploy pipeline schedule milestone contract vendor license audit policy
compliance incident backup recovery region capacity cost forecast hiring training roadmap feature metric
dashboard alert monitor upgrade kernel compiler runtime library module interface protocol gateway cache
queue stream batch event log trace span tenant account invoice payment refund discount pricing market
product launch campaign brand partner channel support ticket escalation survey feedback analysis strategy
goal objective result owner manager engineer analyst designer writer editor reviewer approver sponsor`.split(
    /\s+/,
  );

const ZH = `系统 数据 平台 预算 项目 团队 云 网络 安全 迁移 容器 集群 服务 客户 收入 季度 报告 风险 计划 设计
评审 架构 存储 数据库 索引 搜索 查询 模型 延迟 吞吐 发布 部署 流水线 进度 里程碑 合同 供应商 许可 审计 政策
合规 事故 备份 恢复 区域 容量 成本 预测 招聘 培训 路线图 功能 指标 看板 告警 监控 升级 内核 编译器 运行时
模块 接口 协议 网关 缓存 队列 事件 日志 租户 账户 发票 支付 退款 折扣 定价 市场 产品 营销 品牌 合作伙伴
渠道 支持 工单 调研 反馈 分析 战略 目标 结果 负责人 经理 工程师 分析师 设计师`.split(/\s+/);

/** mulberry32: a small, fast, seedable PRNG. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function zipfPick<T>(words: T[], random: () => number): T {
  // Inverse-power skew: low indexes are frequent, the tail is long.
  const index = Math.floor(words.length * random() ** 2.2);
  return words[Math.min(index, words.length - 1)] as T;
}

function sentence(lang: 'en' | 'zh', random: () => number): string {
  const n = 8 + Math.floor(random() * 10);
  const words = Array.from({ length: n }, () => zipfPick(lang === 'en' ? EN : ZH, random));
  if (random() < 0.3) words.push(String(2000 + Math.floor(random() * 30)));
  if (lang === 'zh') return `${words.join('')}。`;
  const text = words.join(' ');
  return `${text[0]?.toUpperCase()}${text.slice(1)}.`;
}

function paragraph(lang: 'en' | 'zh', random: () => number): string {
  const n = 2 + Math.floor(random() * 3);
  return Array.from({ length: n }, () => sentence(lang, random)).join(lang === 'en' ? ' ' : '');
}

export interface GeneratedDoc {
  name: string;
  text: string;
  paragraphs: number;
}

/** Document `i` of the corpus: every third one Chinese; ~`paragraphs` paragraphs under H2/H3 headings. */
export function generateDocument(i: number, paragraphs = 50): GeneratedDoc {
  const random = rng(i + 1);
  const lang = i % 3 === 2 ? 'zh' : 'en';
  const words = lang === 'en' ? EN : ZH;
  const title =
    lang === 'en'
      ? `Report ${i}: ${zipfPick(words, random)} ${zipfPick(words, random)}`
      : `报告${i}：${zipfPick(words, random)}${zipfPick(words, random)}`;
  const lines = [`# ${title}`, '', paragraph(lang, random), ''];
  let written = 1;
  let section = 0;
  while (written < paragraphs) {
    section += 1;
    lines.push(`## ${section}. ${zipfPick(words, random)} ${zipfPick(words, random)}`, '');
    for (let sub = 1; sub <= 3 && written < paragraphs; sub++) {
      lines.push(`### ${section}.${sub} ${zipfPick(words, random)}`, '');
      for (let p = 0; p < 4 && written < paragraphs; p++, written++) lines.push(paragraph(lang, random), '');
    }
  }
  return { name: `doc-${String(i).padStart(4, '0')}.md`, text: lines.join('\n'), paragraphs: written };
}

/** Search queries of 1-3 words from the same vocabularies. */
export function generateQueries(count: number, seed = 7): string[] {
  const random = rng(seed);
  return Array.from({ length: count }, (_, i) => {
    const words = i % 3 === 2 ? ZH : EN;
    const n = 1 + Math.floor(random() * 3);
    return Array.from({ length: n }, () => words[Math.floor(random() * words.length)]).join(
      i % 3 === 2 ? '' : ' ',
    );
  });
}
