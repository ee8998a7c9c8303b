/**
 * The HTTP contract suite of the Node host, run again through the Lambda handler: every request
 * becomes the event AWS would deliver (REST API v1, HTTP API v2 on a named stage, Function URL),
 * and the handler's result becomes the response API Gateway would send. Same engine as the Node
 * host's suite: test providers and in-memory stores.
 */
import { AccountStore, Auth } from "@decorum/core"
import { Context, Effect, Exit, Layer, Scope } from "effect"
import { describeContract } from "../../../packages/http/test/contract.js"
import { engineLayer, makeHook } from "../../../packages/http/test/harness.js"
import * as Handler from "../src/Handler.js"
import { type Integration, toEvent, toResponse } from "./aws.js"

const startLambda = (integration: Integration) => async () => {
  const scope = Effect.runSync(Scope.make())
  const hook = await Effect.runPromise(makeHook)
  const engine = await Effect.runPromise(Layer.buildWithScope(engineLayer(hook), scope))
  const handler = Handler.make(Layer.succeedContext(engine), { jsonLogs: false })
  const run = <A, E>(effect: Effect.Effect<A, E, AccountStore>) => Effect.runPromise(Effect.provide(effect, Context.pick(AccountStore)(engine)))
  return {
    request: async (path: string, init?: RequestInit) => toResponse(await handler(toEvent(integration, path, init))),
    createKey: (email: string) => run(Effect.map(Auth.createKey(email), (k) => k.key)),
    revokeKey: async (key: string) => {
      await run(Effect.flatMap(AccountStore, (store) => store.revokeKey(Auth.parseKeyId(key)!)))
    },
    close: async () => {
      await handler.dispose()
      await Effect.runPromise(Scope.close(scope, Exit.void))
    }
  }
}

describeContract("Lambda v1", startLambda("v1"))
describeContract("Lambda v2", startLambda("v2"))
describeContract("Lambda Function URL", startLambda("url"))
