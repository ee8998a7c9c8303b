#!/usr/bin/env python3
"""Fine-tunes the sentence encoder itself (issue 27, item 2, second part), on CPU.

    npm run train:encoder        # = node packages/training/run.mjs encoder finetune-data, then this

Reads what `finetuneData.ts` wrote (training/.cache/finetune: the judge's training rows, tokenised
as the server tokenises, their six labels with label masking and sample weights, the package's
weights) and writes the fine-tuned weights in the same form to `--out` (weights.json, weights.bin,
source.txt), which `encoder convert --from` turns into the ONNX model the server runs.

The model is a PyTorch copy of the graph `convert.ts` builds (same operations, same weights by
their TF names); before training it checks its embeddings against the fp32 ONNX model's
(reference.f32, cosine >= 0.9999 on 64 rows). Training: multi-task, six logistic heads over the
unit-length 512-d embedding (started from judge.json's heads when given, so step 0 is the frozen
judge), binary cross-entropy on the labelled (row, attribute) pairs only, each weighted by the
linear recipe's sample weight (soft targets allowed: the Wikipedia CAT distillation rows);
AdamW, linear warm-up and decay, batches of similar length. The judge's held-out tenth (flagged
in the data) is never trained on, so `npm run train:judge`'s Platt step stays out of sample.
Every `--eval-every` steps it reports the mean ROC AUC over the six attributes on a fixed slice of
the calibration pool (never trained on) and keeps the best weights so far in `--out`.
Deterministic for a given seed and thread count.
"""
import argparse
import json
import math
import os
import sys
import time

import numpy as np
import torch
import torch.nn.functional as F

P = "module_apply_default/Encoder_en/KonaTransformer/Encode/"
V = "module/Encoder_en/KonaTransformer/Encode/"
LABELS = ["TOXICITY", "SEVERE_TOXICITY", "INSULT", "PROFANITY", "THREAT", "IDENTITY_ATTACK"]
MAX_TOKENS = 128


def names(layer):
    L = f"Layer_{layer}/TransformerLayer/"
    return {
        "ln.g": f"{P}{L}layer_prepostprocess/layer_norm/layer_norm_scale/ConcatPartitions/concat",
        "ln.b": f"{P}{L}layer_prepostprocess/layer_norm/layer_norm_bias/ConcatPartitions/concat",
        "qkv.w": f"{V}{L}MultiheadAttention/qkv_transform_single/kernel/part_0",
        "qkv.b": f"{P}{L}MultiheadAttention/qkv_transform_single/bias/ConcatPartitions/concat",
        "out.w": f"{V}{L}MultiheadAttention/output_transform_single/kernel/part_0",
        "out.b": f"{P}{L}MultiheadAttention/output_transform_single/bias/ConcatPartitions/concat",
        "ffn.ln.g": f"{P}{L}FFN/layer_prepostprocess/layer_norm/layer_norm_scale/ConcatPartitions/concat",
        "ffn.ln.b": f"{P}{L}FFN/layer_prepostprocess/layer_norm/layer_norm_bias/ConcatPartitions/concat",
        "ffn1.w": f"{P}TransformerStack/{L}FFN/conv1/Tensordot/Reshape_1",
        "ffn1.b": f"{P}{L}FFN/conv1/bias/ConcatPartitions/concat",
        "ffn2.w": f"{P}TransformerStack/{L}FFN/conv2/Tensordot/Reshape_1",
        "ffn2.b": f"{P}{L}FFN/conv2/bias/ConcatPartitions/concat",
    }


TOP = {
    "embeddings": "module/Embeddings_en",
    "residual.w": f"{P}Layer_0/TransformerLayer/dense/kernel/ConcatPartitions/concat",
    "residual.b": f"{P}Layer_0/TransformerLayer/dense/bias/ConcatPartitions/concat",
    "tanh.w": "module/Encoder_en/hidden_layers/tanh_layer_0/weights",
    "tanh.b": "module/Encoder_en/hidden_layers/tanh_layer_0/bias",
}
INV = f"{P}TransformerStack/Layer_0/AddTimingSignal/TimingSignal/ExpandDims_1"


def read_weights(directory):
    index = json.load(open(os.path.join(directory, "weights.json")))
    flat = np.fromfile(os.path.join(directory, "weights.bin"), dtype="<f4")
    return {n: flat[v["offset"]: v["offset"] + int(np.prod(v["shape"]))].reshape(v["shape"]) for n, v in index.items()}, index


def write_weights(directory, weights, index, source):
    os.makedirs(directory, exist_ok=True)
    total = sum(int(np.prod(v["shape"])) for v in index.values())
    flat = np.zeros(total, dtype="<f4")
    for n, v in index.items():
        flat[v["offset"]: v["offset"] + int(np.prod(v["shape"]))] = np.asarray(weights[n], dtype=np.float32).reshape(-1)
    tmp = os.path.join(directory, "weights.bin.tmp")
    flat.tofile(tmp)
    os.replace(tmp, os.path.join(directory, "weights.bin"))
    json.dump(index, open(os.path.join(directory, "weights.json"), "w"), indent=1)
    with open(os.path.join(directory, "source.txt"), "w") as f:
        f.write(source + "\n")


class Encoder(torch.nn.Module):
    """The graph of convert.ts in PyTorch; parameters keyed by short names, mapped to TF names."""

    def __init__(self, w):
        super().__init__()
        self.tf = {}
        self.params = torch.nn.ParameterDict()

        def add(short, tf, shape=None):
            a = torch.tensor(np.array(w[tf], dtype=np.float32))
            if shape is not None:
                a = a.reshape(shape)
            key = short.replace(".", "_")
            self.params[key] = torch.nn.Parameter(a)
            self.tf[key] = tf

        for short, tf in TOP.items():
            add(short, tf)
        for layer in (0, 1):
            for short, tf in names(layer).items():
                shape = None
                if short in ("qkv.w", "out.w"):
                    shape = w[tf].shape[-2:]
                add(f"l{layer}.{short}", tf, shape)
        inv = torch.tensor(np.array(w[INV], dtype=np.float32).reshape(-1))
        p = torch.arange(MAX_TOKENS, dtype=torch.float32)[:, None]
        angle = p * inv[None, :]
        self.register_buffer("timing", torch.cat([torch.sin(angle), torch.cos(angle)], dim=1))

    def p(self, short):
        return self.params[short.replace(".", "_")]

    def attention(self, x, bias, layer, width):
        B, T, _ = x.shape
        qkv = x @ self.p(f"l{layer}.qkv.w") + self.p(f"l{layer}.qkv.b")
        q, k, v = qkv.split(width, dim=-1)
        hd = width // 4
        q = q.view(B, T, 4, hd).transpose(1, 2) * (1.0 / math.sqrt(hd))
        k = k.view(B, T, 4, hd).permute(0, 2, 3, 1)
        v = v.view(B, T, 4, hd).transpose(1, 2)
        ctx = torch.softmax(q @ k + bias, dim=-1) @ v
        merged = ctx.transpose(1, 2).reshape(B, T, width)
        return merged @ self.p(f"l{layer}.out.w") + self.p(f"l{layer}.out.b")

    def ln(self, x, prefix):
        return F.layer_norm(x, (x.shape[-1],), self.p(f"{prefix}.g"), self.p(f"{prefix}.b"), eps=1e-6)

    def ffn(self, x, layer):
        h = self.ln(x, f"l{layer}.ffn.ln")
        up = torch.relu(h @ self.p(f"l{layer}.ffn1.w") + self.p(f"l{layer}.ffn1.b"))
        return x + up @ self.p(f"l{layer}.ffn2.w") + self.p(f"l{layer}.ffn2.b")

    def forward(self, ids, mask):
        T = ids.shape[1]
        e = self.p("embeddings")[ids]
        x0 = e + e + self.timing[:T]
        bias = ((1.0 - mask) * -1e9)[:, None, None, :]
        x1 = self.attention(self.ln(x0, "l0.ln"), bias, 0, 256) + x0 @ self.p("residual.w") + self.p("residual.b")
        x2 = self.ffn(x1, 0)
        x3 = x2 + self.attention(self.ln(x2, "l1.ln"), bias, 1, 512)
        x4 = self.ffn(x3, 1)
        pooled = (x4 * mask[:, :, None]).sum(1) / mask.sum(1, keepdim=True).clamp(min=1.0)
        hidden = torch.tanh(pooled @ self.p("tanh.w") + self.p("tanh.b"))
        return hidden / hidden.pow(2).sum(-1, keepdim=True).clamp(min=1e-12).sqrt()

    def export(self, weights):
        out = dict(weights)
        for key, tf in self.tf.items():
            out[tf] = self.params[key].detach().numpy().reshape(weights[tf].shape)
        return out


def read_rows(directory, name):
    f = lambda s, t: np.fromfile(os.path.join(directory, f"{name}.{s}"), dtype=t)
    labels = f("labels.f32", "<f4").reshape(-1, len(LABELS))
    return {
        "tokens": f("tokens.i32", "<i4"),
        "offsets": f("offsets.i32", "<i4"),
        "labels": labels,
        "weights": f("weights.f32", "<f4").reshape(-1, len(LABELS)),
        "heldout": f("heldout.u8", "u1"),
    }


def batch(rows, index):
    starts = rows["offsets"][index]
    ends = rows["offsets"][index + 1]
    width = max(1, int((ends - starts).max()))
    ids = np.zeros((len(index), width), dtype=np.int64)
    mask = np.zeros((len(index), width), dtype=np.float32)
    for b, (s, e) in enumerate(zip(starts, ends)):
        ids[b, : e - s] = rows["tokens"][s:e]
        mask[b, : e - s] = 1
    return torch.from_numpy(ids), torch.from_numpy(mask)


def auc(score, y):
    """ROC AUC with ties counted half (y in {0,1})."""
    order = np.argsort(score, kind="mergesort")
    s = score[order]
    ranks = np.empty(len(s))
    i = 0
    while i < len(s):
        j = i
        while j + 1 < len(s) and s[j + 1] == s[i]:
            j += 1
        ranks[i: j + 1] = (i + j) / 2 + 1
        i = j + 1
    r = np.empty(len(s))
    r[order] = ranks
    pos = y == 1
    n1, n0 = pos.sum(), (~pos).sum()
    return (r[pos].sum() - n1 * (n1 + 1) / 2) / (n1 * n0)


def main():
    ap = argparse.ArgumentParser()
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--data", default=os.path.join(here, "..", ".cache", "finetune"))
    ap.add_argument("--out", default=os.path.join(here, "..", ".cache", "finetune-out"))
    ap.add_argument("--judge", default=os.path.join(here, "..", "..", "local", "models", "encoder", "judge.json"))
    ap.add_argument("--epochs", type=float, default=1.0)
    ap.add_argument("--rows", type=int, default=0, help="train on this many rows (a seeded sample), 0 = all")
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--lr", type=float, default=5e-5)
    ap.add_argument("--head-lr", type=float, default=1e-3)
    ap.add_argument("--warmup", type=int, default=200)
    ap.add_argument("--eval-every", type=int, default=500)
    ap.add_argument("--eval-rows", type=int, default=4000)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--seed", type=int, default=27)
    ap.add_argument("--max-steps", type=int, default=0, help="stop after this many steps (0 = the epochs)")
    ap.add_argument("--check-only", action="store_true", help="check the PyTorch copy against reference.f32 and stop")
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    log = lambda s: print(time.strftime("%H:%M:%S", time.gmtime()) + " " + s, flush=True)

    weights, index = read_weights(args.data)
    model = Encoder(weights)
    train = read_rows(args.data, "train")

    # the PyTorch copy against the fp32 ONNX model (convert.ts), before anything else
    reference = np.fromfile(os.path.join(args.data, "reference.f32"), dtype="<f4").reshape(-1, 512)
    with torch.no_grad():
        got = model(*batch(train, np.arange(len(reference)))).numpy()
    cos = (got * reference).sum(1) / np.linalg.norm(got, axis=1) / np.linalg.norm(reference, axis=1)
    log(f"PyTorch copy vs fp32 ONNX on {len(reference)} rows: cosine min {cos.min():.7f}")
    if cos.min() < 0.9999:
        sys.exit("the PyTorch graph does not match convert.ts's: not training")
    if args.check_only:
        return

    dev = read_rows(args.data, "dev")
    head = torch.nn.Linear(512, len(LABELS))
    if os.path.exists(args.judge):
        judge = json.load(open(args.judge))
        with torch.no_grad():
            for j, label in enumerate(LABELS):
                head.weight[j] = torch.tensor(judge["heads"][label]["weights"], dtype=torch.float32)
                head.bias[j] = float(judge["heads"][label]["bias"])
        log(f"heads started from {os.path.basename(args.judge)} ({judge['release']})")
    else:
        torch.nn.init.zeros_(head.weight)

    rows = np.flatnonzero(train["heldout"] == 0)
    if args.rows > 0 and args.rows < len(rows):
        rows = np.sort(rng.choice(rows, args.rows, replace=False))
    lengths = train["offsets"][rows + 1] - train["offsets"][rows]
    eval_rows = np.sort(np.random.default_rng(0).choice(len(dev["heldout"]), min(args.eval_rows, len(dev["heldout"])), replace=False))
    eval_rows = eval_rows[np.argsort(dev["offsets"][eval_rows + 1] - dev["offsets"][eval_rows], kind="stable")]

    def epoch_batches():
        # shuffle, then sort by length within windows of 50 batches: little padding, random order
        order = rows[rng.permutation(len(rows))]
        ln = train["offsets"][order + 1] - train["offsets"][order]
        window = 50 * args.batch
        out = []
        for s in range(0, len(order), window):
            chunk = order[s: s + window][np.argsort(ln[s: s + window], kind="stable")]
            out += [chunk[i: i + args.batch] for i in range(0, len(chunk), args.batch)]
        return [out[i] for i in rng.permutation(len(out))]

    steps_per_epoch = math.ceil(len(rows) / args.batch)
    total = int(steps_per_epoch * args.epochs)
    if args.max_steps > 0:
        total = min(total, args.max_steps)
    optimizer = torch.optim.AdamW(
        [{"params": model.parameters(), "lr": args.lr, "weight_decay": 0.01}, {"params": head.parameters(), "lr": args.head_lr, "weight_decay": 0.0}]
    )
    base = [g["lr"] for g in optimizer.param_groups]
    log(f"training rows {len(rows)} (judge's held-out tenth excluded), mean {lengths.mean():.1f} tokens; {total} steps of {args.batch} ({args.epochs} epochs), {args.threads} thread(s); dev slice {len(eval_rows)} rows")

    def evaluate():
        model.eval()
        scores = np.zeros((len(eval_rows), len(LABELS)), dtype=np.float32)
        with torch.no_grad():
            for i in range(0, len(eval_rows), 64):
                idx = eval_rows[i: i + 64]
                scores[i: i + len(idx)] = head(model(*batch(dev, idx))).numpy()
        model.train()
        aucs = []
        for j in range(len(LABELS)):
            y = dev["labels"][eval_rows, j]
            ok = ~np.isnan(y)
            yb = (y[ok] >= 0.5).astype(int)
            aucs.append(auc(scores[ok, j], yb) if 0 < yb.sum() < len(yb) else float("nan"))
        return aucs

    start = time.time()
    aucs = evaluate()
    best = float(np.nanmean(aucs))
    log(f"step 0: dev AUC mean {best:.4f} ({' '.join(f'{a:.3f}' for a in aucs)})")
    history = [(0, best)]
    write_weights(args.out, model.export(weights), index, f"step 0 of a fine-tune (unchanged weights)")
    step = 0
    running = 0.0
    t0 = time.time()
    while step < total:
        for b in epoch_batches():
            if step >= total:
                break
            ids, mask = batch(train, b)
            y = torch.from_numpy(np.nan_to_num(train["labels"][b], nan=0.0))
            w = torch.from_numpy(train["weights"][b] * ~np.isnan(train["labels"][b]))
            logits = head(model(ids, mask))
            loss = (F.binary_cross_entropy_with_logits(logits, y, reduction="none") * w).sum() / w.sum().clamp(min=1e-6)
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(list(model.parameters()) + list(head.parameters()), 1.0)
            scale = min(1.0, (step + 1) / args.warmup) * max(0.0, 1 - step / total)
            for g, lr in zip(optimizer.param_groups, base):
                g["lr"] = lr * scale
            optimizer.step()
            step += 1
            running = 0.98 * running + 0.02 * loss.item() if step > 1 else loss.item()
            if step % 100 == 0:
                rate = step / (time.time() - t0)
                log(f"step {step}/{total}: loss {running:.4f}, {rate * args.batch:.0f} rows/s, eta {(total - step) / rate / 60:.0f} min")
            if step % args.eval_every == 0 or step == total:
                aucs = evaluate()
                mean = float(np.nanmean(aucs))
                history.append((step, mean))
                kept = mean > best
                if kept:
                    best = mean
                    write_weights(args.out, model.export(weights), index,
                                  f"fine-tuned by packages/training/encoder/finetune.py: {step} steps of {args.batch} rows, lr {args.lr}, seed {args.seed}, dev AUC mean {mean:.4f}")
                log(f"step {step}: dev AUC mean {mean:.4f} ({' '.join(f'{a:.3f}' for a in aucs)}){' kept' if kept else ''}")
    log(f"done in {(time.time() - start) / 60:.1f} min; best dev AUC mean {best:.4f}; history {history}")


if __name__ == "__main__":
    main()
