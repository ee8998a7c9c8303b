import { Context } from "effect"

/**
 * What produced the answers: the engine's package version and the model set in use
 * (`local-2026.11.1`, `openai:<model>`, ...). Sent as `X-Engine-Version` / `X-Model-Version`.
 */
export class EngineInfo extends Context.Tag("@decorum/core/EngineInfo")<
  EngineInfo,
  {
    readonly engineVersion: string
    /** The model set configured for this engine, whatever provider answers a given request. */
    readonly modelVersion: string
    /**
     * The neural judge behind the local attribute models (issue 27), when the engine has one: its
     * mode, whether it started (`ready`; `unavailable` serves the linear models, with the reason;
     * `off` in linear mode) and its model. Shown by `/readyz`.
     */
    readonly judge?: {
      readonly mode: string
      readonly state: "ready" | "unavailable" | "off"
      readonly model?: string
      readonly reason?: string
      /** Whose model serves: the built-in encoder heads, or the operator's classifier (`DECORUM_JUDGE_MODEL`). */
      readonly backend?: "built-in" | "operator"
      /** Why the operator's classifier is not the one serving. */
      readonly fallback?: string
    }
  }
>() {}
