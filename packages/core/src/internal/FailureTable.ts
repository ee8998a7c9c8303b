/**
 * The table behind `AuthFailureLimiter.memory`: one entry per address that failed, each holding the
 * time its bucket of failures is full again (`fullAt`), in a map by address and in a binary
 * min-heap by (`fullAt`, order of last failure).
 *
 * The heap gives the two things the limiter needs without scanning: the entries that have refilled
 * (the top of the heap, dropped as soon as time passes them), and, when the table is full, the
 * least harmful entry to forget: the one that will be full soonest, that is the one with the most
 * failures left, the oldest of those first. An address that spent its failures is forgotten only
 * after every address that has more left, so churning through fresh addresses cannot reset it.
 */

export interface Entry {
  readonly key: string
  /** When the bucket is full again (ms); the entry means nothing from then on. */
  fullAt: number
  /** Order of the last failure, to forget the oldest of equal entries first. */
  seq: number
  /** Position in the heap. */
  index: number
}

export class FailureTable {
  private readonly byKey = new Map<string, Entry>()
  private readonly heap: Array<Entry> = []
  private counter = 0

  constructor(private readonly capacity: number) {}

  get size(): number {
    return this.heap.length
  }

  get(key: string): Entry | undefined {
    return this.byKey.get(key)
  }

  /** Forgets every entry whose bucket is full at `now`. */
  prune(now: number): void {
    while (this.heap.length > 0 && this.heap[0]!.fullAt <= now) this.remove(this.heap[0]!)
  }

  /** Sets `key`'s full time to `fullAt` (a later one than before), adding it (and forgetting the least harmful entry when full). */
  set(key: string, fullAt: number): void {
    const seq = this.counter++
    const existing = this.byKey.get(key)
    if (existing !== undefined) {
      existing.fullAt = fullAt
      existing.seq = seq
      this.down(existing.index)
      return
    }
    if (this.heap.length >= this.capacity) this.remove(this.heap[0]!)
    const entry: Entry = { key, fullAt, seq, index: this.heap.length }
    this.byKey.set(key, entry)
    this.heap.push(entry)
    this.up(entry.index)
  }

  remove(entry: Entry): void {
    if (this.byKey.get(entry.key) !== entry) return
    this.byKey.delete(entry.key)
    const last = this.heap.pop()!
    if (last === entry) return
    this.heap[entry.index] = last
    last.index = entry.index
    this.down(last.index)
    this.up(last.index)
  }

  private less(a: Entry, b: Entry): boolean {
    return a.fullAt < b.fullAt || (a.fullAt === b.fullAt && a.seq < b.seq)
  }

  private swap(i: number, j: number): void {
    const a = this.heap[i]!
    const b = this.heap[j]!
    this.heap[i] = b
    this.heap[j] = a
    a.index = j
    b.index = i
  }

  private up(i: number): void {
    while (i > 0) {
      const parent = (i - 1) >> 1
      if (!this.less(this.heap[i]!, this.heap[parent]!)) return
      this.swap(i, parent)
      i = parent
    }
  }

  private down(i: number): void {
    const n = this.heap.length
    for (;;) {
      const left = 2 * i + 1
      const right = left + 1
      let smallest = i
      if (left < n && this.less(this.heap[left]!, this.heap[smallest]!)) smallest = left
      if (right < n && this.less(this.heap[right]!, this.heap[smallest]!)) smallest = right
      if (smallest === i) return
      this.swap(i, smallest)
      i = smallest
    }
  }
}
