/** Shapes of the AI endpoints (docs/voice-and-ai.md, "AI orchestration and management", "AI features"). */

import type {
  AiAgentPerformance,
  AiAnalytics as GenAiAnalytics,
  AiContentAnswer,
  AiDocumentAnalysis,
  AiDocumentAnalysisAnswer,
  AiExtractedInvoice,
  AiInsight as GenAiInsight,
  AiInsightsAnswer,
  AiIntelligenceAnswer,
  AiInvoiceAnswer,
  AiModelPerformance,
  AiOutreachAnswer,
  AiProvenance,
  AiSentimentAnswer,
  AutomationPreview as GenAutomationPreview,
  EmailAutomationStatus as GenEmailAutomationStatus,
  McpConnection as GenMcpConnection,
  McpStatus as GenMcpStatus,
} from '@/types/openapi.gen';

/** Every AI result says where it came from: the configured model or the template fallback. */
export type AiSource = AiProvenance & { jobId?: string };

export type SentimentResult = AiSentimentAnswer;
export type IntelligenceResult = AiIntelligenceAnswer;
export type OutreachResult = AiOutreachAnswer;

/** The documents `generate-content` writes (the server checks the same three). */
export const CONTENT_TYPES = ['email', 'proposal', 'report'] as const;
export type ContentType = (typeof CONTENT_TYPES)[number];

export type ContentResult = AiContentAnswer;
export type InsightsResult = AiInsightsAnswer;

export type ExtractedInvoice = AiExtractedInvoice;
export type ExtractResult = AiInvoiceAnswer;

export type DocumentAnalysis = AiDocumentAnalysis;
export type AnalyzeResult = AiDocumentAnalysisAnswer;

export type AgentPerformance = AiAgentPerformance;
export type AiInsight = GenAiInsight;
export type ModelPerformance = AiModelPerformance;
export type AiAnalytics = GenAiAnalytics;

export type McpConnection = GenMcpConnection;
export type McpStatus = GenMcpStatus;
export type EmailAutomationStatus = GenEmailAutomationStatus;
export type AutomationPreview = GenAutomationPreview;
