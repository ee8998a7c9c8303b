import type { DecorumError as E, Native, Perspective } from "@decorum/domain"

export type DecorumError = E
export type NativeErrorBody = Native.NativeErrorBody
export type GoogleErrorBody = Perspective.GoogleErrorBody
