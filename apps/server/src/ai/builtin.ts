import type { Language } from '@evdra/domain';
import { builtinChat } from './chat.js';
import { evaluate } from './evaluate.js';
import type { VehicleFacts } from './facts.js';
import type { AiProvider, ChatAnswer, ChatRequest, Evaluation } from './provider.js';
import { fuelText, performanceText } from './summaries.js';

/** Deterministic, explainable, offline: rubric, templates in en/ro/es and the knowledge base. */
export class BuiltinProvider implements AiProvider {
  readonly name = 'builtin' as const;
  readonly model = null;

  async evaluate(facts: VehicleFacts, language: Language): Promise<Evaluation> {
    return evaluate(facts, language);
  }

  async performance(facts: VehicleFacts, language: Language): Promise<string> {
    return this.written(facts, `performance|${language}`, () => performanceText(facts, language));
  }

  async fuel(facts: VehicleFacts, language: Language): Promise<string> {
    return this.written(facts, `fuel|${language}`, () => fuelText(facts, language));
  }

  /**
   * A summary is a function of its facts: kept with the facts object it was written from (the facts
   * repo hands the same object back while nothing changed), and forgotten with it.
   */
  private readonly texts = new WeakMap<VehicleFacts, Map<string, string>>();
  private written(facts: VehicleFacts, key: string, write: () => string): string {
    let texts = this.texts.get(facts);
    if (!texts) {
      texts = new Map<string, string>();
      this.texts.set(facts, texts);
    }
    let text = texts.get(key);
    if (text === undefined) {
      text = write();
      texts.set(key, text);
    }
    return text;
  }

  async chat(request: ChatRequest): Promise<ChatAnswer> {
    return builtinChat(request);
  }
}
