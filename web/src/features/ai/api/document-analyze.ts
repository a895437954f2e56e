import { postAiDocument, uploadFailure, useAiTask, type AiAnswer, type AiTaskOptions } from './ai-task';
import type { AnalyzeResult } from './types';

/** Multipart, field `document` (JPG, PNG, PDF, DOC, DOCX; at most 15 MB). */
export const analyzeDocument = (file: File): Promise<AiAnswer<AnalyzeResult>> =>
  postAiDocument<AnalyzeResult>('/api/ai/document-analyze', file);

export const useAnalyzeDocument = (options: Omit<AiTaskOptions<AnalyzeResult>, 'describe'>) =>
  useAiTask(analyzeDocument, { ...options, describe: uploadFailure });
