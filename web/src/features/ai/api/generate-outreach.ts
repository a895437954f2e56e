import { postAiTask, useAiTask, type AiAnswer, type AiTaskOptions } from './ai-task';
import type { OutreachResult } from './types';

export type OutreachInput = { contactName: string; companyName: string; industry: string; city: string; state: string };

/** `422 'Contact name and company name are required'`. */
export const generateOutreach = ({ contactName, companyName, industry, city, state }: OutreachInput): Promise<AiAnswer<OutreachResult>> =>
  postAiTask<OutreachResult>('/api/ai/generate-outreach', { contactName, companyName, companyData: { industry, city, state } });

export const useGenerateOutreach = (options: AiTaskOptions<OutreachResult>) =>
  useAiTask(generateOutreach, options);
