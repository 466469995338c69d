import type { ChatMessage, Language } from '@evdra/domain';
import type { EvaluationBasis } from './basis.js';
import type { UserFacts, VehicleFacts } from './facts.js';

/** What the chat remembers between turns (kept with each AI message). */
export type ChatContext = { intent?: string; vehicleIds?: number[]; month?: string };

export type ChatRequest = {
  prompt: string;
  language: Language;
  facts: UserFacts;
  /** The conversation so far, oldest first (the new prompt not included). */
  history: ChatMessage[];
  /** The context of the previous answer, for follow-ups such as "and the other car?". */
  context: ChatContext | undefined;
};

export type ChatAnswer = { text: string; context: ChatContext; intent: string };
/**
 * A score and its reason in the evaluating reader's language and money. `basis`: what the reason is
 * made of, when it can be written again for another reader (the built-in rubric's; absent for a text
 * a language model wrote).
 */
export type Evaluation = { score: number; reason: string; basis?: EvaluationBasis };

/** Writes every AI text of the app. Numbers come only from the facts it is given. */
export interface AiProvider {
  readonly name: 'builtin' | 'llm';
  readonly model: string | null;
  evaluate(facts: VehicleFacts, language: Language): Promise<Evaluation>;
  performance(facts: VehicleFacts, language: Language): Promise<string>;
  fuel(facts: VehicleFacts, language: Language): Promise<string>;
  chat(request: ChatRequest): Promise<ChatAnswer>;
}
