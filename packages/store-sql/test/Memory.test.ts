/** The contract against the core's in-memory reference implementation. */
import { MemoryStores } from "@decorum/core"
import { storeContract } from "./contract.js"

storeContract("MemoryStores (reference)", MemoryStores.layer)
