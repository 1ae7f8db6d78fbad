#!/usr/bin/env python3
"""Export the fine-tuned cross-encoder to ONNX, quantise to int8, compare with torch on the check pairs,
and time it with onnxruntime on CPU.

  export_onnx.py export --model DIR                 -> DIR/onnx/model_fp32.onnx, model_int8.onnx, tokenizer.json
  export_onnx.py agree  --model DIR --threshold T   int8 (and fp32) vs torch on the *_check.json pairs
  export_onnx.py bench  --model DIR [--threads 1]   size, cold load, median latency batch 1 / batch 8
"""
import argparse, json, os, statistics, subprocess, sys, time

DATA = '/work/main/eval/supersession'
CHECK = ['update_pairs_check.json', 'update_pairs_additive_check.json',
         'update_pairs_crosslingual_check.json', 'update_pairs_reference_check.json']
MAX_LEN = 128


def pairs(files):
    out = []
    for f in files:
        for x in json.load(open(os.path.join(DATA, f))):
            out.append((x['old'], x['new'], int(x['label'] == 'update'), f))
    return out


def cmd_export(a):
    import torch
    from transformers import AutoModelForSequenceClassification, AutoTokenizer
    from onnxruntime.quantization import quantize_dynamic, QuantType
    torch.set_num_threads(1)
    od = os.path.join(a.model, 'onnx'); os.makedirs(od, exist_ok=True)
    tok = AutoTokenizer.from_pretrained(a.model)
    model = AutoModelForSequenceClassification.from_pretrained(a.model); model.eval()
    enc = tok(['my old memory'] * 2, ['a new message here'] * 2, return_tensors='pt', padding=True)
    names = ['input_ids', 'attention_mask', 'token_type_ids']
    fp32 = os.path.join(od, 'model_fp32.onnx')
    torch.onnx.export(model, tuple(enc[n] for n in names), fp32, input_names=names, output_names=['logits'],
                      dynamic_axes={**{n: {0: 'batch', 1: 'seq'} for n in names}, 'logits': {0: 'batch'}},
                      opset_version=17, do_constant_folding=True, dynamo=False)
    int8 = os.path.join(od, 'model_int8.onnx')
    # per-channel: chosen over the per-tensor default by agreement with torch on tune pairs (quant_variants.py)
    quantize_dynamic(fp32, int8, weight_type=QuantType.QInt8, per_channel=True)
    tok.backend_tokenizer.save(os.path.join(od, 'tokenizer.json'))
    for p in (fp32, int8, os.path.join(od, 'tokenizer.json')):
        print(p, f'{os.path.getsize(p) / 1e6:.1f} MB')


def ort_tok(path):
    from tokenizers import Tokenizer
    t = Tokenizer.from_file(path)
    t.enable_truncation(MAX_LEN); t.enable_padding(pad_id=0, pad_token='[PAD]')
    return t


def ort_feed(t, batch):
    import numpy as np
    enc = t.encode_batch([(o, n) for o, n, *_ in batch])
    return {'input_ids': np.array([e.ids for e in enc], dtype=np.int64),
            'attention_mask': np.array([e.attention_mask for e in enc], dtype=np.int64),
            'token_type_ids': np.array([e.type_ids for e in enc], dtype=np.int64)}


def softmax1(logits):
    import numpy as np
    z = logits - logits.max(-1, keepdims=True); e = np.exp(z)
    return (e / e.sum(-1, keepdims=True))[:, 1]


def cmd_agree(a):
    import numpy as np, onnxruntime as ort
    res = json.load(open(os.path.join(a.model, 'check_results.json')))  # torch probabilities from train_ce.py check
    od = os.path.join(a.model, 'onnx'); t = ort_tok(os.path.join(od, 'tokenizer.json'))
    so = ort.SessionOptions(); so.intra_op_num_threads = 1
    out = {}
    for kind in ('fp32', 'int8'):
        s = ort.InferenceSession(os.path.join(od, f'model_{kind}.onnx'), so, providers=['CPUExecutionProvider'])
        allp, allt, ally = [], [], []
        for f in CHECK:
            ps = pairs([f]); pt = np.array(res[f]['probs'])
            po = np.concatenate([softmax1(s.run(None, ort_feed(t, ps[i:i + 32]))[0]) for i in range(0, len(ps), 32)])
            y = np.array([p[2] for p in ps])
            pred = po >= a.threshold
            tp = int((pred & (y == 1)).sum()); fp = int((pred & (y == 0)).sum()); fn = int((~pred & (y == 1)).sum())
            print(f'{kind} {f:38s} same verdict {np.mean((po >= a.threshold) == (pt >= a.threshold)):.4f} '
                  f'max|dp| {np.abs(po - pt).max():.4f}  prec {tp / max(tp + fp, 1):.3f} rec {tp / max(tp + fn, 1):.3f}')
            allp.append(po); allt.append(pt)
        po = np.concatenate(allp); pt = np.concatenate(allt)
        agree = float(np.mean((po >= a.threshold) == (pt >= a.threshold))); md = float(np.abs(po - pt).max())
        print(f'{kind} ALL {len(po)} pairs: same verdict {agree:.4f} ({int(((po >= a.threshold) != (pt >= a.threshold)).sum())} differ), '
              f'max|dp| {md:.4f}, mean|dp| {float(np.abs(po - pt).mean()):.4f}')
        out[kind] = {'same_verdict': agree, 'max_abs_diff': md}
    json.dump(out, open(os.path.join(od, 'agreement.json'), 'w'), indent=1)


COLD = r'''
import time, sys
t0 = time.perf_counter()
import onnxruntime as ort
from tokenizers import Tokenizer
t1 = time.perf_counter()
so = ort.SessionOptions(); so.intra_op_num_threads = int(sys.argv[3])
s = ort.InferenceSession(sys.argv[1], so, providers=['CPUExecutionProvider'])
tok = Tokenizer.from_file(sys.argv[2]); tok.enable_truncation(128)
e = tok.encode("I work at Acme.", "Started at Globex last week!")
import numpy as np
feed = {'input_ids': np.array([e.ids]), 'attention_mask': np.array([e.attention_mask]), 'token_type_ids': np.array([e.type_ids])}
s.run(None, feed)
t2 = time.perf_counter()
print(f"{t1 - t0:.3f} {t2 - t1:.3f}")
'''


def cmd_bench(a):
    import numpy as np, onnxruntime as ort
    od = os.path.join(a.model, 'onnx'); tj = os.path.join(od, 'tokenizer.json')
    ps = pairs(CHECK)
    rng = np.random.default_rng(27); idx = rng.permutation(len(ps))
    out = {}
    for kind in ('int8', 'fp32'):
        path = os.path.join(od, f'model_{kind}.onnx')
        colds = []
        for _ in range(3):
            r = subprocess.run([sys.executable, '-c', COLD, path, tj, str(a.threads)], capture_output=True, text=True, check=True)
            imp, load = map(float, r.stdout.split()); colds.append((imp, load))
        so = ort.SessionOptions(); so.intra_op_num_threads = a.threads
        s = ort.InferenceSession(path, so, providers=['CPUExecutionProvider'])
        t = ort_tok(tj)
        for i in range(10):
            s.run(None, ort_feed(t, [ps[idx[i]]]))
        l1 = []
        for i in idx[:a.n1]:
            t0 = time.perf_counter(); s.run(None, ort_feed(t, [ps[i]])); l1.append(time.perf_counter() - t0)
        l8 = []
        for j in range(a.n8):
            b = [ps[i] for i in idx[(8 * j) % (len(ps) - 8):(8 * j) % (len(ps) - 8) + 8]]
            t0 = time.perf_counter(); s.run(None, ort_feed(t, b)); l8.append(time.perf_counter() - t0)
        r = {'size_MB': os.path.getsize(path) / 1e6,
             'cold_import_s_median': statistics.median(c[0] for c in colds),
             'cold_session_plus_first_run_s_median': statistics.median(c[1] for c in colds),
             'lat_b1_ms_median': 1000 * statistics.median(l1), 'lat_b1_ms_p90': 1000 * float(np.percentile(l1, 90)),
             'lat_b8_ms_median': 1000 * statistics.median(l8), 'lat_b8_ms_p90': 1000 * float(np.percentile(l8, 90)),
             'threads': a.threads, 'loadavg_after': os.getloadavg()}
        print(kind, json.dumps(r))
        out[kind] = r
    out['tokenizer_json_MB'] = os.path.getsize(tj) / 1e6
    json.dump(out, open(os.path.join(od, f'bench_t{a.threads}.json'), 'w'), indent=1)


if __name__ == '__main__':
    ap = argparse.ArgumentParser(); sp = ap.add_subparsers(dest='cmd', required=True)
    s = sp.add_parser('export'); s.add_argument('--model', required=True)
    s = sp.add_parser('agree'); s.add_argument('--model', required=True); s.add_argument('--threshold', type=float, required=True)
    s = sp.add_parser('bench'); s.add_argument('--model', required=True); s.add_argument('--threads', type=int, default=1)
    s.add_argument('--n1', type=int, default=200); s.add_argument('--n8', type=int, default=60)
    a = ap.parse_args()
    {'export': cmd_export, 'agree': cmd_agree, 'bench': cmd_bench}[a.cmd](a)
