import { postAiTask, useAiTask, type AiAnswer, type AiTaskOptions } from './ai-task';
import type { IntelligenceResult } from './types';

export type IntelligenceInput = { companyName: string; query: string };

/** `422 'Company name and query are required'`. */
export const researchMarket = (input: IntelligenceInput): Promise<AiAnswer<IntelligenceResult>> =>
  postAiTask<IntelligenceResult>('/api/ai/market-intelligence', input);

export const useMarketIntelligence = (options: AiTaskOptions<IntelligenceResult>) =>
  useAiTask(researchMarket, options);
