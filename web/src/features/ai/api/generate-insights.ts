import { postAiTask, useAiTask, type AiAnswer, type AiTaskOptions } from './ai-task';
import type { InsightsResult } from './types';

/** `422 'Please provide valid JSON array data'`; at most 5,000 rows. */
export const generateInsights = (data: unknown[]): Promise<AiAnswer<InsightsResult>> =>
  postAiTask<InsightsResult>('/api/ai/generate-insights', { data });

export const useGenerateInsights = (options: AiTaskOptions<InsightsResult>) =>
  useAiTask(generateInsights, options);
