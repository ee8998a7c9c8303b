/**
 * `@decorum/engine/csv`: the one CSV reader and the exact UTF-8 decoder it reads with, without the
 * engine (a command that only reads or writes CSV, `decorum feedback`, loads no model code).
 */
export * as Csv from "../Csv.js"
export * as Utf8 from "../Utf8.js"
