import { postAiTask, useAiTask, type AiAnswer, type AiTaskOptions } from './ai-task';
import type { ContentResult, ContentType } from './types';

/** Seed 002 §5: the context may not be empty (the api says the same). */
export const CONTEXT_REQUIRED = 'Please provide context for content generation';

/** `contextType` names what the context is, e.g. the campaign template it came from. */
export type ContentInput = { type: ContentType; description: string; contextType?: string };

/** `422 'Please provide context for content generation'`. */
export const generateContent = ({ type, description, contextType }: ContentInput): Promise<AiAnswer<ContentResult>> =>
  postAiTask<ContentResult>('/api/ai/generate-content', { type, context: { description, type: contextType ?? type } });

export const useGenerateContent = (options: AiTaskOptions<ContentResult>) =>
  useAiTask(generateContent, options);
