/** Shapes of the AI endpoints (docs/voice-and-ai.md, "AI orchestration and management", "AI features"). */

/** Every AI result says where it came from: the configured model or the template fallback. */
export type AiSource = {
  source: 'llm' | 'template';
  fallback: boolean;
  message: string;
  /** The model that answered (with `source: 'llm'`). */
  model?: string;
  jobId?: string;
};

export type SentimentResult = AiSource & {
  sentiment: string;
  /** 0–100. */
  score: number;
  keyFactors: string[];
};

export type IntelligenceResult = AiSource & { timestamp: string; intelligence: string };

export type OutreachResult = AiSource & { subject: string; content: string };

export const CONTENT_TYPES = ['email', 'proposal', 'report'] as const;
export type ContentType = (typeof CONTENT_TYPES)[number];

export type ContentResult = AiSource & { content: string };
export type InsightsResult = AiSource & { insights: string };

export type ExtractedInvoice = {
  invoiceNumber: string | null;
  customerName: string | null;
  totalAmount: number | string | null;
  dueDate: string | null;
  /** 0–100. */
  confidence: number;
  lineItems: { description: string; totalPrice: number | string | null }[];
};
export type ExtractResult = AiSource & { extractedData: ExtractedInvoice };

export type DocumentAnalysis = {
  documentType: string;
  summary: string;
  /** 0–100. */
  confidence: number;
  keyData: Record<string, unknown>;
};
export type AnalyzeResult = AiSource & { analysis: DocumentAnalysis };

/** A 0–1 figure the api may send as a number or a string ("0.87"). */
export type Fraction = number | string | null;

export type AgentPerformance = {
  agentId: string;
  agentType: string;
  taskType: string;
  totalTasks: number;
  successfulTasks: number;
  successRate: Fraction;
  averageAccuracy: Fraction;
  trainingDataCount: number;
  lastTrainingUpdate: string | null;
};

export type AiInsight = {
  id: string;
  agentType: string;
  insightType: string;
  title: string;
  description: string;
  confidence: Fraction;
  impactScore: Fraction;
  actionable: boolean;
  implemented: boolean;
};

export type ModelPerformance = { accuracy: Fraction; speed: string | null; usage: number; specialty: string | null };

export type AiAnalytics = {
  totalAgents: number;
  totalTrainingData: number;
  averageSuccessRate: Fraction;
  agentPerformance: AgentPerformance[];
  recentInsights: AiInsight[];
  /** Percents from real campaigns; null where nothing was sent. */
  performanceMetrics: {
    currentCampaigns: number;
    openRate: number | null;
    clickThroughRate: number | null;
    conversionRate: number | null;
  };
  aiOrchestration: { tasksRouted: number; efficiency: number | null; costSavings: number | null };
  /** Keyed by provider: `template` or the configured model. */
  modelPerformance: Record<string, ModelPerformance>;
  /** How long finished task runs are kept: the task counts cover this window. */
  jobRetentionDays: number;
};

export type McpConnection = { name: string; type: string; status: 'operational' | 'degraded' | 'not_configured'; detail: string | null };

export type McpStatus = {
  kojieConnection: { status: string };
  activeConnections: McpConnection[];
  /** Jobs in the last 24 hours per integration. */
  automationPotential: Record<string, number>;
  protocolHealth: Record<string, { throughput: number; failureRate: Fraction; status: string }>;
};

export type EmailAutomationStatus = {
  currentCapabilities: { totalCampaigns: number; openRate: number | null; contactBase: number; automationSequences: number };
  automationWorkflows: {
    id: string;
    name: string;
    description: string | null;
    components: string[];
    status: 'ready' | 'development';
    potential: string;
  }[];
  performanceMetrics: {
    sent: number;
    opened: number;
    clicked: number;
    replied: number;
    openRate: number | null;
    clickRate: number | null;
    replyRate: number | null;
  };
};

export type AutomationPreview = {
  integrationEcosystem: {
    coreIntegrations: number;
    readyForKOJIE: number;
    totalPotential: number;
    categories: { name: string; count: number; examples: string[] }[];
  };
  kojieAICapabilities: {
    workflowTemplates: { name: string; timeline: string; triggers: string[] | string; actions: string[] | string }[];
  };
  roiProjections: { emailsSent: number; meetingsBooked: number; revenueCents: number; hoursSaved: number };
};
