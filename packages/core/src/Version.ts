/** The engine's version (the root package.json's), sent as `X-Engine-Version`. A test keeps them equal. */
export const ENGINE_VERSION = "0.1.0"
