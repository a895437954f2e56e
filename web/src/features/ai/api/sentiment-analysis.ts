import { postAiTask, useAiTask, type AiAnswer, type AiTaskOptions } from './ai-task';
import type { SentimentResult } from './types';

export type SentimentInput = { companyName: string; industry: string };

/** `422 'Company name and industry are required'`. */
export const analyzeSentiment = (input: SentimentInput): Promise<AiAnswer<SentimentResult>> =>
  postAiTask<SentimentResult>('/api/ai/sentiment-analysis', input);

export const useSentimentAnalysis = (options: AiTaskOptions<SentimentResult>) =>
  useAiTask(analyzeSentiment, options);
