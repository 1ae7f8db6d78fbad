"""Pick the int8 quantisation setting by agreement with torch on TUNE pairs (labels unused; check pairs unused)."""
import json, os, sys, numpy as np, torch, onnxruntime as ort
from onnxruntime.quantization import quantize_dynamic, QuantType
import export_onnx as E
torch.set_num_threads(2)
from transformers import AutoModelForSequenceClassification
M = sys.argv[1]; T = float(sys.argv[2]); od = os.path.join(M, 'onnx')
ps = E.pairs(['update_pairs_tune.json', 'update_pairs_crosslingual_tune.json', 'update_pairs_reference_tune.json'])
t = E.ort_tok(os.path.join(od, 'tokenizer.json'))
m = AutoModelForSequenceClassification.from_pretrained(M).eval()
pt = []
with torch.no_grad():
    for i in range(0, len(ps), 32):
        f = E.ort_feed(t, ps[i:i + 32]); pt.append(torch.softmax(m(**{k: torch.tensor(v) for k, v in f.items()}).logits, -1)[:, 1].numpy())
pt = np.concatenate(pt)
variants = {'int8': None,
            'int8_pc': dict(per_channel=True),
            'int8_pc_rr': dict(per_channel=True, reduce_range=True),
            'int8_matmul_only': dict(op_types_to_quantize=['MatMul']),
            'int8_pc_matmul_only': dict(per_channel=True, op_types_to_quantize=['MatMul'])}
res = {}
for name, kw in variants.items():
    path = os.path.join(od, f'model_{name}.onnx')
    if kw is not None:
        quantize_dynamic(os.path.join(od, 'model_fp32.onnx'), path, weight_type=QuantType.QInt8, **kw)
    so = ort.SessionOptions(); so.intra_op_num_threads = 2
    s = ort.InferenceSession(path, so, providers=['CPUExecutionProvider'])
    po = np.concatenate([E.softmax1(s.run(None, E.ort_feed(t, ps[i:i + 32]))[0]) for i in range(0, len(ps), 32)])
    r = {'size_MB': os.path.getsize(path) / 1e6, 'same_verdict': float(np.mean((po >= T) == (pt >= T))),
         'max_abs_diff': float(np.abs(po - pt).max()), 'mean_abs_diff': float(np.abs(po - pt).mean())}
    res[name] = r; print(name, r, flush=True)
json.dump(res, open(os.path.join(od, 'quant_variants_tune.json'), 'w'), indent=1)
