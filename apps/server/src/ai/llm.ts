import type { Language } from '@evdra/domain';
import type OpenAI from 'openai';
import type { VehicleFacts } from './facts.js';
import type { AiProvider, ChatAnswer, ChatRequest, Evaluation } from './provider.js';

export type LlmConfig = { baseUrl: string; apiKey: string; model: string; timeoutMs: number };
type Log = { warn: (obj: object, msg: string) => void };
type Message = { role: 'system' | 'user' | 'assistant'; content: string };

const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', ro: 'Romanian', es: 'Spanish' };
/** Past chat messages sent along, for context. */
const HISTORY_SENT = 10;

export const systemPrompt = (language: Language) =>
  [
    "You are Evdra's virtual mechanic, the assistant of a vehicle-management app.",
    `Answer in ${LANGUAGE_NAMES[language]} (language code "${language}") only.`,
    "FACTS are computed from the user's own records in the database. Use only numbers that appear in FACTS or in DRAFT;",
    'never invent, estimate or recalculate a number. If a figure is not in FACTS, say it is not recorded.',
    'DRAFT is a correct answer written by the built-in engine: improve its wording, keep its numbers.',
    'For safety problems (brakes, fuel or brake-fluid leaks, red warning lights, overheating, smoke) say to stop driving when it is unsafe.',
    'Be brief. Format only with "- " lists and **bold**; no HTML, no tables.',
  ].join(' ');

/**
 * Resolves when the OpenAI-compatible server answers its model list with the key (GET /api/health);
 * throws with `status` when it answers an error (401: a wrong key), or the network error.
 */
export async function pingLlm(config: LlmConfig, signal?: AbortSignal): Promise<void> {
  const res = await fetch(`${config.baseUrl.replace(/\/$/, '')}/models`, {
    headers: { authorization: `Bearer ${config.apiKey}` },
    signal,
  });
  await res.body?.cancel();
  if (!res.ok) throw Object.assign(new Error(`HTTP ${res.status}`), { status: res.status });
}

/**
 * An OpenAI-compatible chat-completions server (OpenAI, Ollama, llama.cpp, vLLM) writes the text,
 * grounded in the same facts and with the built-in answer as a draft. Scores stay the rubric's.
 * Any failure or timeout answers with the built-in text and logs a warning.
 */
export class LlmProvider implements AiProvider {
  readonly name = 'llm' as const;
  readonly model: string;
  /** Made on the first call: the client library costs start-up time a server without AI never needs. */
  private client?: Promise<OpenAI>;

  constructor(
    private readonly config: LlmConfig,
    private readonly builtin: AiProvider,
    private readonly log: Log,
  ) {
    this.model = config.model;
  }

  private openai(): Promise<OpenAI> {
    this.client ??= import('openai').then(
      ({ default: OpenAI }) =>
        new OpenAI({
          baseURL: this.config.baseUrl,
          apiKey: this.config.apiKey,
          timeout: this.config.timeoutMs,
          maxRetries: 0,
        }),
    );
    return this.client;
  }

  async evaluate(facts: VehicleFacts, language: Language): Promise<Evaluation> {
    const draft = await this.builtin.evaluate(facts, language);
    const reason = await this.write(language, [
      {
        role: 'user',
        content: block(
          `TASK: explain in 2–4 sentences why this vehicle scores ${draft.score}/10, naming the factors that moved the score with their numbers.`,
          facts,
          draft.reason,
        ),
      },
    ]);
    // The model's own words cannot be written again for another reader: no basis. Without them
    // (it failed), the built-in draft stands, with its basis.
    return reason === undefined ? draft : { score: draft.score, reason };
  }

  async performance(facts: VehicleFacts, language: Language): Promise<string> {
    const draft = await this.builtin.performance(facts, language);
    const text = await this.write(language, [
      {
        role: 'user',
        content: block(
          'TASK: summarise the costs of this vehicle: total and cost per km, biggest category and month, the last 3 months against the 12 before, anything unusual, one practical suggestion.',
          facts,
          draft,
        ),
      },
    ]);
    return text ?? draft;
  }

  async fuel(facts: VehicleFacts, language: Language): Promise<string> {
    const draft = await this.builtin.fuel(facts, language);
    const text = await this.write(language, [
      {
        role: 'user',
        content: block(
          'TASK: summarise the fuel use of this vehicle: average consumption from full tank to full tank, the latest against the average, best and worst fill, price per litre trend, and whether a jump hints at a fault (tyres, filters, injectors, driving). For an ELECTRIC car use kWh.',
          facts,
          draft,
        ),
      },
    ]);
    return text ?? draft;
  }

  async chat(request: ChatRequest): Promise<ChatAnswer> {
    const draft = await this.builtin.chat(request);
    const history: Message[] = request.history
      .slice(-HISTORY_SENT)
      .map((m) => ({ role: m.role === 'ai' ? 'assistant' : 'user', content: m.content }));
    const text = await this.write(request.language, [
      ...history,
      {
        role: 'user',
        content: block(`QUESTION: ${request.prompt}`, request.facts, draft.text),
      },
    ]);
    return { ...draft, text: text ?? draft.text };
  }

  /** The model's answer, or undefined (logged) when it fails, times out or says nothing. */
  private async write(language: Language, messages: Message[]): Promise<string | undefined> {
    try {
      const client = await this.openai();
      const res = await client.chat.completions.create({
        model: this.model,
        temperature: 0.2,
        messages: [{ role: 'system', content: systemPrompt(language) }, ...messages],
      });
      const text = res.choices[0]?.message?.content?.trim();
      if (!text) throw new Error('empty answer');
      return text;
    } catch (err) {
      this.log.warn({ err, model: this.model }, 'AI server failed; the built-in provider answered');
      return undefined;
    }
  }
}

function block(task: string, facts: unknown, draft: string): string {
  return `${task}\n\nFACTS (JSON):\n${JSON.stringify(facts)}\n\nDRAFT:\n${draft}`;
}
