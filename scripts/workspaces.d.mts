export declare const root: string
export declare const sourceAliases: () => Record<string, string>
export declare const sourceAliasesWithSubpaths: () => Record<string, string>
