import { postAiDocument, uploadFailure, useAiTask, type AiAnswer, type AiTaskOptions } from './ai-task';
import type { ExtractResult } from './types';

/** Multipart, field `document` (JPG, PNG, PDF, DOC, DOCX; at most 15 MB). */
export const extractInvoice = (file: File): Promise<AiAnswer<ExtractResult>> =>
  postAiDocument<ExtractResult>('/api/ai/invoice-extract', file);

export const useExtractInvoice = (options: Omit<AiTaskOptions<ExtractResult>, 'describe'>) =>
  useAiTask(extractInvoice, { ...options, describe: uploadFailure });
