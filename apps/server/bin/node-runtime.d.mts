// Types of node-runtime.mjs (plain JavaScript: it runs before the build, on any Node.js).
export declare const MINIMUM_MAJOR: number
export declare const FETCHED_VERSION: string
export declare const REPO_DIR: string
export declare const isSupported: (version?: string) => boolean
export declare const packageFor: (platform?: string, arch?: string) => string | undefined
export declare const supportedNode: (options?: { log?: (line: string) => void }) => { node: string; refused?: undefined } | { refused: string; node?: undefined }
export declare const reexecIfUnsupported: (args: ReadonlyArray<string>) => boolean
