/**
 * The deployable entry point: `handler`, configured from the environment (`Settings.ts`), its
 * runtime built during the cold start (the init phase) and reused by every invocation.
 *
 * In the bundle (`npm run bundle:lambda`), the model files travel in `models/` next to this file;
 * `DECORUM_MODEL_DIR` points there unless the deployment says otherwise.
 */
import { ConfigProvider, Layer } from "effect"
import { existsSync } from "node:fs"
import { fileURLToPath } from "node:url"
import * as Handler from "./Handler.js"
import { engineFromEnv } from "./Settings.js"

const bundledModels = fileURLToPath(new URL("./models/", import.meta.url))

// The environment first; the bundle's own model directory only where the environment sets none.
const provider = existsSync(bundledModels)
  ? ConfigProvider.fromEnv().pipe(ConfigProvider.orElse(() => ConfigProvider.fromMap(new Map([["DECORUM_MODEL_DIR", bundledModels]]))))
  : ConfigProvider.fromEnv()

export const handler: Handler.LambdaHandler = Handler.make(engineFromEnv().pipe(Layer.provide(Layer.setConfigProvider(provider))))

// Lambda runs module initialisation before the first event (with a full CPU, during the init
// phase): build the engine now. A failure is logged and retried on the first event.
await handler.ready()
