import { http, HttpResponse } from 'msw';

import type { AiAnalytics, AutomationPreview, EmailAutomationStatus, McpStatus } from '@/features/ai/api/types';

import { authed } from './authed';
import { db, makeJob } from './db';

/** Stand-ins for the AI endpoints (docs/voice-and-ai.md): fixed figures and template answers. */


const refuse = (message: string, status = 422) => HttpResponse.json({ message }, { status });

export const ANALYTICS: AiAnalytics = {
  totalAgents: 6,
  totalTrainingData: 1234,
  averageSuccessRate: 0.864,
  agentPerformance: [
    {
      agentId: 'ai_score',
      agentType: 'Lead Scoring',
      taskType: 'ai_score',
      totalTasks: 200,
      successfulTasks: 190,
      successRate: '0.95',
      averageAccuracy: 0.71,
      trainingDataCount: 640,
      lastTrainingUpdate: '2026-01-14T09:00:00Z',
    },
    {
      agentId: 'discovery_scan',
      agentType: 'Discovery',
      taskType: 'discovery_scan',
      totalTasks: 10,
      successfulTasks: 8,
      successRate: '0.8',
      averageAccuracy: null,
      trainingDataCount: 12,
      lastTrainingUpdate: null,
    },
    {
      agentId: 'voice_call',
      agentType: 'Voice',
      taskType: 'voice_call',
      totalTasks: 4,
      successfulTasks: 1,
      successRate: '0.25',
      averageAccuracy: null,
      trainingDataCount: 1,
      lastTrainingUpdate: '2026-01-10T09:00:00Z',
    },
  ],
  recentInsights: [
    {
      id: 'i1',
      agentType: 'Lead Scoring',
      insightType: 'improvement',
      title: 'Scores of 70+ reply 3× as often',
      description: '12% of contacts scoring 70+ replied, against 4% below.',
      confidence: 0.82,
      impactScore: 0.6,
      actionable: true,
      implemented: false,
    },
    {
      id: 'i2',
      agentType: 'Email',
      insightType: 'pattern',
      title: 'Texas replies most',
      description: 'TX contacts reply at 9%.',
      confidence: 0.5,
      impactScore: 0.4,
      actionable: false,
      implemented: true,
    },
    {
      id: 'i3',
      agentType: 'Voice',
      insightType: 'alert',
      title: 'Voice calls fail often',
      description: '3 of 4 voice calls failed this week.',
      confidence: 0.3,
      impactScore: 0.9,
      actionable: true,
      implemented: false,
    },
  ],
  performanceMetrics: { currentCampaigns: 3, openRate: 41.2, clickThroughRate: 7.5, conversionRate: 0 },
  aiOrchestration: { tasksRouted: 321, efficiency: 86.4, costSavings: null },
  modelPerformance: { template: { accuracy: null, speed: '12 ms', usage: 57, specialty: 'Template answers from CRM data' } },
  jobRetentionDays: 7,
  scoreAccuracy: { bands: [], emailed: 0, replied: 0, ratesRiseWithScore: null },
};

export const MCP_STATUS: McpStatus = {
  kojieConnection: { status: 'demo' },
  activeConnections: [
    { name: 'AI model', type: 'ai', status: 'not_configured', detail: 'Set AI_PROVIDER=openai to use a model' },
    { name: 'Email delivery', type: 'email', status: 'operational', detail: 'Outbox folder (demo)' },
    { name: 'Voice API', type: 'voice', status: 'degraded', detail: '2 of 5 calls failed' },
  ],
  automationPotential: { email: 48, voice: 5 },
  protocolHealth: { email: { throughput: 12, failureRate: 0.02, status: 'operational' } },
};

export const EMAIL_AUTOMATION: EmailAutomationStatus = {
  currentCapabilities: { totalCampaigns: 7, openRate: 38.5, contactBase: 1520, automationSequences: 2 },
  automationWorkflows: [
    {
      id: 'seq-1',
      name: 'Trade show follow-up',
      description: 'Three touches after the show',
      components: ['email', 'delay', 'email'],
      status: 'ready',
      potential: '14 enrolled',
    },
    { id: 'seq-2', name: 'Renewal nudges', description: '', components: [], status: 'development', potential: '0 enrolled' },
  ],
  performanceMetrics: { sent: 400, opened: 154, clicked: 30, replied: 12, openRate: 38.5, clickRate: 7.5, replyRate: 3 },
};

export const AUTOMATION_PREVIEW: AutomationPreview = {
  integrationEcosystem: {
    coreIntegrations: 4,
    readyForKOJIE: 2,
    totalPotential: 6,
    categories: [
      { name: 'Email', count: 2, examples: ['SMTP', 'Outbox'] },
      { name: 'Calendar', count: 1, examples: ['Google Calendar'] },
    ],
  },
  kojieAICapabilities: {
    workflowTemplates: [
      { name: 'High-value lead', timeline: 'Same day', triggers: ['Score 85+'], actions: ['Email', 'Voice call'] },
    ],
  },
  roiProjections: { emailsSent: 400, meetingsBooked: 6, revenueCents: 1250000, hoursSaved: 33 },
};

const source = () =>
  db.aiModel
    ? { source: 'llm', fallback: false, model: 'gpt-test' }
    : { source: 'template', fallback: true };
const message = (what: string) =>
  db.aiModel ? `${what} by the AI model` : `${what} with the template fallback from CRM data (no AI model is configured: set AI_PROVIDER=openai)`;

/** 200 with the result and its job, or (db.aiQueue) 202 with a running job the test then finishes. */
function answer(kind: string, result: Record<string, unknown>) {
  const job = makeJob({ kind, status: 'running', startedAt: new Date().toISOString() });
  db.jobs.push(job);
  if (db.aiQueue) {
    return HttpResponse.json({ jobId: job.id, status: 'running' }, { status: 202, headers: { Location: `/api/jobs/${job.id}` } });
  }
  Object.assign(job, { status: 'succeeded', result, finishedAt: new Date().toISOString() });
  return HttpResponse.json({ ...result, jobId: job.id });
}

/** Finishes the last queued AI job with `result` (what the worker would store). */
export function finishAiJob(result: Record<string, unknown>) {
  const job = [...db.jobs].reverse().find((j) => j.status === 'running');
  if (!job) throw new Error('no running AI job');
  Object.assign(job, { status: 'succeeded', result, finishedAt: new Date().toISOString() });
}

type Json = Record<string, unknown>;
const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');

/** A multipart upload's fields (jsdom's File bytes do not survive the trip, so only names are checked). */
async function upload(request: Request, path: string): Promise<Response | null> {
  const form = await request.formData();
  db.aiRequests.push({ path, fields: [...form.keys()] });
  return form.get('document') ? null : refuse('Choose a document to upload', 400);
}

export const aiHandlers = [
  http.get('/api/ai/analytics', authed(() => HttpResponse.json(ANALYTICS))),
  http.get(
    '/api/mcp/status',
    authed(() =>
      HttpResponse.json(
        db.aiModel
          ? { ...MCP_STATUS, activeConnections: MCP_STATUS.activeConnections.map((c) => (c.type === 'ai' ? { ...c, status: 'operational', detail: 'gpt-test' } : c)) }
          : MCP_STATUS,
      ),
    ),
  ),
  http.get('/api/email-automation/status', authed(() => HttpResponse.json(EMAIL_AUTOMATION))),
  http.get('/api/automation/preview', authed(() => HttpResponse.json(AUTOMATION_PREVIEW))),

  http.post('/api/ai/sentiment-analysis', authed(async ({ request }) => {
    const body = (await request.json()) as Json;
    db.aiRequests.push({ path: '/api/ai/sentiment-analysis', body });
    if (!text(body.companyName) || !text(body.industry)) return refuse('Company name and industry are required');
    return answer('ai_task', {
      sentiment: 'positive',
      score: 72,
      keyFactors: ['Fit score 70 of 100 in the CRM', `Industry: ${text(body.industry)}`],
      ...source(),
      message: message('Sentiment analysed'),
    });
  })),
  http.post('/api/ai/market-intelligence', authed(async ({ request }) => {
    const body = (await request.json()) as Json;
    db.aiRequests.push({ path: '/api/ai/market-intelligence', body });
    if (!text(body.companyName) || !text(body.query)) return refuse('Company name and query are required');
    return answer('ai_task', {
      intelligence: `${text(body.companyName)}: 3 contacts, 1 open deal.`,
      timestamp: '2026-01-15T10:00:00Z',
      ...source(),
      message: message('Market intelligence gathered'),
    });
  })),
  http.post('/api/ai/generate-outreach', authed(async ({ request }) => {
    const body = (await request.json()) as Json;
    db.aiRequests.push({ path: '/api/ai/generate-outreach', body });
    if (!text(body.contactName) || !text(body.companyName)) return refuse('Contact name and company name are required');
    return answer('ai_task', {
      subject: `A dealer partnership for ${text(body.companyName)}`,
      content: `Hi ${text(body.contactName)},\nWe would like to talk.`,
      ...source(),
      message: message('Outreach drafted'),
    });
  })),
  http.post('/api/ai/generate-content', authed(async ({ request }) => {
    const body = (await request.json()) as { type?: string; context?: { description?: string; type?: string } };
    db.aiRequests.push({ path: '/api/ai/generate-content', body });
    if (!text(body.context?.description)) return refuse('Please provide context for content generation');
    if (!['email', 'proposal', 'report'].includes(body.type ?? '')) return refuse('Type must be one of email, proposal, report');
    const lines = Array.from({ length: 10 }, (_, i) => `Line ${i + 1} of the ${body.type ?? ''}`);
    return answer('ai_task', { content: lines.join('\n'), ...source(), message: message('Content generated') });
  })),
  http.post('/api/ai/generate-insights', authed(async ({ request }) => {
    const body = (await request.json()) as { data?: unknown };
    db.aiRequests.push({ path: '/api/ai/generate-insights', body });
    if (!Array.isArray(body.data)) return refuse('Please provide valid JSON array data');
    return answer('ai_task', { insights: `${body.data.length} rows: leads grow month over month.`, ...source(), message: message('Insights generated') });
  })),
  http.post('/api/ai/invoice-extract', authed(async ({ request }) => {
    const refused = await upload(request, '/api/ai/invoice-extract');
    if (refused) return refused;
    return answer('document_ai', {
      extractedData: {
        invoiceNumber: 'INV-2041',
        customerName: 'Sunrise Bath',
        totalAmount: 1250.5,
        dueDate: null,
        confidence: 64,
        lineItems: [
          { description: 'Grab bar', totalPrice: 250.5 },
          { description: 'Walk-in tub', totalPrice: 1000 },
        ],
      },
      ...source(),
      message: message('Invoice data extracted'),
    });
  })),
  http.post('/api/ai/document-analyze', authed(async ({ request }) => {
    const refused = await upload(request, '/api/ai/document-analyze');
    if (refused) return refused;
    return answer('document_ai', {
      analysis: { documentType: 'contract', summary: 'A dealer agreement for 2026.', confidence: 58, keyData: { party: 'Sunrise Bath', term: '12 months' } },
      ...source(),
      message: message('Document analysed'),
    });
  })),
];
