/**
 * A minimal ONNX writer: the protobuf wire format of the few ONNX messages a graph of plain operators
 * needs (ModelProto, GraphProto, NodeProto, TensorProto, AttributeProto, ValueInfoProto), so the
 * encoder conversion needs no Python and no protobuf package. Field numbers are onnx.proto3's.
 */

class Writer {
  private chunks: Array<Uint8Array> = []
  private size = 0
  push(bytes: Uint8Array): void {
    this.chunks.push(bytes)
    this.size += bytes.length
  }
  varint(value: number | bigint): void {
    let v = BigInt.asUintN(64, BigInt(value))
    const out: Array<number> = []
    while (v >= 0x80n) {
      out.push(Number(v & 0x7fn) | 0x80)
      v >>= 7n
    }
    out.push(Number(v))
    this.push(Uint8Array.from(out))
  }
  tag(field: number, wire: number): void {
    this.varint((field << 3) | wire)
  }
  int(field: number, value: number | bigint): void {
    this.tag(field, 0)
    this.varint(value)
  }
  float(field: number, value: number): void {
    this.tag(field, 5)
    const b = new Uint8Array(4)
    new DataView(b.buffer).setFloat32(0, value, true)
    this.push(b)
  }
  bytes(field: number, value: Uint8Array): void {
    this.tag(field, 2)
    this.varint(value.length)
    this.push(value)
  }
  string(field: number, value: string): void {
    this.bytes(field, new TextEncoder().encode(value))
  }
  message(field: number, build: (w: Writer) => void): void {
    const inner = new Writer()
    build(inner)
    this.bytes(field, inner.finish())
  }
  finish(): Uint8Array {
    const out = new Uint8Array(this.size)
    let at = 0
    for (const c of this.chunks) {
      out.set(c, at)
      at += c.length
    }
    return out
  }
}

export const DataType = { FLOAT: 1, UINT8: 2, INT8: 3, INT32: 6, INT64: 7, BOOL: 9, FLOAT16: 10 } as const
export type DataType = (typeof DataType)[keyof typeof DataType]

export interface Tensor {
  readonly name: string
  readonly dims: ReadonlyArray<number>
  readonly type: DataType
  /** Little-endian raw bytes of the values. */
  readonly raw: Uint8Array
}

export const floatTensor = (name: string, dims: ReadonlyArray<number>, values: Float32Array | ReadonlyArray<number>): Tensor => {
  const data = values instanceof Float32Array ? values : Float32Array.from(values)
  return { name, dims, type: DataType.FLOAT, raw: new Uint8Array(data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength)) }
}
export const int64Tensor = (name: string, dims: ReadonlyArray<number>, values: ReadonlyArray<number>): Tensor => {
  const data = BigInt64Array.from(values.map((v) => BigInt(v)))
  return { name, dims, type: DataType.INT64, raw: new Uint8Array(data.buffer) }
}
export const int8Tensor = (name: string, dims: ReadonlyArray<number>, values: Int8Array): Tensor => ({
  name,
  dims,
  type: DataType.INT8,
  raw: new Uint8Array(values.buffer.slice(values.byteOffset, values.byteOffset + values.byteLength))
})

/** IEEE half precision bits of a float32 (round to nearest even). */
const halfBits = (value: number): number => {
  const f = new Float32Array([value])
  const x = new Uint32Array(f.buffer)[0]!
  const sign = (x >>> 16) & 0x8000
  const exp = (x >>> 23) & 0xff
  let mant = x & 0x7fffff
  if (exp === 0xff) return sign | 0x7c00 | (mant ? 0x200 : 0)
  let e = exp - 127 + 15
  if (e >= 0x1f) return sign | 0x7c00
  if (e <= 0) {
    if (e < -10) return sign
    mant |= 0x800000
    const shift = 14 - e
    let half = mant >>> shift
    const rest = mant & ((1 << shift) - 1)
    const mid = 1 << (shift - 1)
    if (rest > mid || (rest === mid && (half & 1))) half++
    return sign | half
  }
  let half = (e << 10) | (mant >>> 13)
  const rest = mant & 0x1fff
  if (rest > 0x1000 || (rest === 0x1000 && (half & 1))) half++
  return sign | half
}

export const float16Tensor = (name: string, dims: ReadonlyArray<number>, values: Float32Array): Tensor => {
  const data = new Uint16Array(values.length)
  for (let i = 0; i < values.length; i++) data[i] = halfBits(values[i]!)
  return { name, dims, type: DataType.FLOAT16, raw: new Uint8Array(data.buffer) }
}

export type Attribute =
  | { readonly kind: "int"; readonly value: number }
  | { readonly kind: "float"; readonly value: number }
  | { readonly kind: "ints"; readonly value: ReadonlyArray<number> }
  | { readonly kind: "tensor"; readonly value: Tensor }

export interface Node {
  readonly op: string
  readonly inputs: ReadonlyArray<string>
  readonly outputs: ReadonlyArray<string>
  readonly attributes?: Readonly<Record<string, Attribute>>
  readonly domain?: string
}

export interface ValueInfo {
  readonly name: string
  readonly type: DataType
  /** A number is a fixed size, a string a named dynamic dimension. */
  readonly shape: ReadonlyArray<number | string>
}

export interface Model {
  readonly graphName: string
  readonly nodes: ReadonlyArray<Node>
  readonly initializers: ReadonlyArray<Tensor>
  readonly inputs: ReadonlyArray<ValueInfo>
  readonly outputs: ReadonlyArray<ValueInfo>
  readonly opset: number
  readonly producer: string
  readonly docString: string
  readonly metadata: Readonly<Record<string, string>>
}

const writeTensor = (w: Writer, t: Tensor): void => {
  for (const d of t.dims) w.int(1, d)
  w.int(2, t.type)
  w.string(8, t.name)
  w.bytes(9, t.raw)
}

const writeValueInfo = (w: Writer, v: ValueInfo): void => {
  w.string(1, v.name)
  w.message(2, (type) =>
    type.message(1, (tensor) => {
      tensor.int(1, v.type)
      tensor.message(2, (shape) => {
        for (const d of v.shape) shape.message(1, (dim) => (typeof d === "number" ? dim.int(1, d) : dim.string(2, d)))
      })
    })
  )
}

const writeAttribute = (w: Writer, name: string, a: Attribute): void => {
  w.string(1, name)
  switch (a.kind) {
    case "float":
      w.float(2, a.value)
      w.int(20, 1)
      break
    case "int":
      w.int(3, a.value)
      w.int(20, 2)
      break
    case "tensor":
      w.message(5, (t) => writeTensor(t, a.value))
      w.int(20, 4)
      break
    case "ints":
      for (const v of a.value) w.int(8, v)
      w.int(20, 7)
      break
  }
}

/** The serialised ModelProto (IR version 8). */
export const encodeModel = (m: Model): Uint8Array => {
  const w = new Writer()
  w.int(1, 8)
  w.string(2, m.producer)
  w.string(6, m.docString)
  w.message(7, (g) => {
    m.nodes.forEach((n, i) =>
      g.message(1, (nw) => {
        for (const x of n.inputs) nw.string(1, x)
        for (const x of n.outputs) nw.string(2, x)
        nw.string(3, `${n.op}_${i}`)
        nw.string(4, n.op)
        for (const [k, a] of Object.entries(n.attributes ?? {})) nw.message(5, (aw) => writeAttribute(aw, k, a))
        if (n.domain !== undefined) nw.string(7, n.domain)
      })
    )
    g.string(2, m.graphName)
    for (const t of m.initializers) g.message(5, (tw) => writeTensor(tw, t))
    for (const v of m.inputs) g.message(11, (vw) => writeValueInfo(vw, v))
    for (const v of m.outputs) g.message(12, (vw) => writeValueInfo(vw, v))
  })
  w.message(8, (o) => {
    o.string(1, "")
    o.int(2, m.opset)
  })
  for (const [key, value] of Object.entries(m.metadata)) {
    w.message(14, (p) => {
      p.string(1, key)
      p.string(2, value)
    })
  }
  return w.finish()
}
