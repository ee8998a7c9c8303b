import { ConfigProvider, Effect } from "effect"
import { describe, expect, it } from "vitest"
import { Engine } from "../src/index.js"

const read = (env: Record<string, string>) =>
  Effect.runSync(Effect.withConfigProvider(Engine.modelDirectoryConfig, ConfigProvider.fromMap(new Map(Object.entries(env)))))

describe("DECORUM_MODEL_DIR", () => {
  it("is read when set and not blank", () => {
    expect(read({ DECORUM_MODEL_DIR: "/var/task/models/" })).toBe("/var/task/models/")
    expect(read({ DECORUM_MODEL_DIR: "  " })).toBeUndefined()
    expect(read({})).toBeUndefined()
  })

  it("relocates the shipped (trained) models only", () => {
    expect(Engine.locateModel("trained", "/var/task/models/")).toEqual({ directory: "/var/task/models/" })
    expect(Engine.locateModel("trained", undefined)).toBe("trained")
    expect(Engine.locateModel("lexicon", "/var/task/models/")).toBe("lexicon")
    expect(Engine.locateModel({ directory: "/retrained" }, "/var/task/models/")).toEqual({ directory: "/retrained" })
  })
})
