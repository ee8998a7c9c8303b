#!/usr/bin/env node
// Instruction counts of callgrind output files, split into V8's garbage collector and the rest:
//
//   node packages/training/callgrindOutsideGc.mjs callgrind.out.A [callgrind.out.B ...]
//
// Two model sets loaded by `training/predictcount.ts` can differ by a whole major GC at start-up
// (12.7's empty run: 1.23 billion instructions more than 12.6's, all in the collector, for
// manifests 82 bytes apart), which swamps the cost of 500 predictions. Counting outside the
// collector compares the work the sets do. Reads `callgrind_annotate --threshold=100`; a
// function counts as the collector's by its V8 name (heap marking, sweeping, scavenging,
// evacuation, slot recording, body visitors, spaces and pages).
import { execFileSync } from "node:child_process"

const GC =
  /v8::internal::(Scavenger|ScavengerCollector|MarkCompactCollector|MinorMarkSweep|MarkingVisitor|MainMarkingVisitor|MarkingWorklist|MarkingBarrier|Sweeper|Evacuat|LiveObjectVisitor|RecordMigratedSlot|BodyDescriptor|FixedRangeBodyDescriptor|FixedBodyDescriptor|SuffixRangeBodyDescriptor|FlexibleBodyDescriptor|HeapObject::SizeFromMap|Heap::|MemoryAllocator|PagedSpace|SemiSpace|NewSpace|OldLargeObjectSpace|LargeObjectSpace|RememberedSet|SlotSet|TypedSlot|ObjectStartBitmap|MarkingState|ConcurrentMarking|IncrementalMarking|GCTracer|MutablePageMetadata|PageMetadata|MemoryChunk|FreeList|YoungGeneration|PointersUpdating|UpdateTypedSlot|UpdateUntypedSlot|HeapVisitor|ConcurrentMarkingVisitor|CppHeap|WeakObjects|ExternalPointerTable|ArrayBufferSweeper|ArrayBufferList|ScavengeVisitor|IterateAndScavenge|EphemeronHashTable)/

const files = process.argv.slice(2)
if (files.length === 0) {
  console.error("usage: callgrindOutsideGc.mjs callgrind.out.FILE ...")
  process.exit(2)
}
const fmt = (n) => n.toLocaleString("en-US")
for (const file of files) {
  const out = execFileSync("callgrind_annotate", ["--threshold=100", file], { encoding: "utf8", maxBuffer: 1 << 28 })
  let total = 0
  let gc = 0
  for (const line of out.split("\n")) {
    const m = /^\s*([0-9,]+)\s+\([^)]*\)\s+(.*)$/.exec(line)
    if (m === null) continue
    const n = Number(m[1].replaceAll(",", ""))
    if (m[2].includes("PROGRAM TOTALS")) total = n
    else if (GC.test(m[2])) gc += n
  }
  console.log(`${file}\ttotal ${fmt(total)}\tGC ${fmt(gc)}\toutside GC ${fmt(total - gc)}`)
}
