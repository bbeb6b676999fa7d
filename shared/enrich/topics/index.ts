export {
  type DerivedTopics,
  deriveDocumentTopics,
  extractTopicCandidates,
  type TopicDraft,
  type TopicSettings,
} from './derive.ts';
export type { TopicCandidate } from './extract.ts';
export { identifyQuestionTopics, type QuestionTopic } from './identify.ts';
export type { TopicLink } from './link.ts';
export { mergeTopics } from './merge.ts';
export type { OutlineSection, TopicSource } from './outline.ts';
