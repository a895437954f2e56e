/** Deal stages (seed 001 §4) with the probability a new deal gets in each. */
export const DEAL_STAGES = [
  { stage: 'qualification', label: 'Qualification', probability: 25, statusLine: 'High potential' },
  { stage: 'proposal', label: 'Proposal', probability: 45, statusLine: 'Proposal sent' },
  { stage: 'negotiation', label: 'Negotiation', probability: 65, statusLine: 'Contract review' },
  { stage: 'decision', label: 'Decision', probability: 80, statusLine: 'Final approval' },
  { stage: 'closed_won', label: 'Closed Won', probability: 100, statusLine: 'Signed' },
  { stage: 'closed_lost', label: 'Closed Lost', probability: 0, statusLine: 'Lost' },
] as const;

export type DealStage = (typeof DEAL_STAGES)[number]['stage'];

/** The board's columns: closed_lost is not shown. */
export const BOARD_STAGES = DEAL_STAGES.filter((s) => s.stage !== 'closed_lost');

export const stageInfo = (stage: string | null | undefined) =>
  DEAL_STAGES.find((s) => s.stage === (stage ?? 'qualification')) ?? DEAL_STAGES[0];

/** The stage after `stage` on the board, or null at closed_won (and closed_lost). */
export function nextStage(stage: string | null | undefined): DealStage | null {
  const i = BOARD_STAGES.findIndex((s) => s.stage === (stage ?? 'qualification'));
  return i >= 0 ? (BOARD_STAGES[i + 1]?.stage ?? null) : null;
}
