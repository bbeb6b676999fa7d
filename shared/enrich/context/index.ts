export { type ContextResult, contextualizeVersion } from './contextualize.ts';
