"""Value helpers for the look-alike corpora (seeded, standard library only)."""

import base64
import json
import random
import string
import uuid

B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
B64 = string.ascii_letters + string.digits + "+/"


class V:
    def __init__(self, seed):
        self.r = random.Random(seed)

    def hexs(self, n):
        return "".join(self.r.choice("0123456789abcdef") for _ in range(n))

    def HEX(self, n):
        return self.hexs(n).upper()

    def digits(self, n):
        return "".join(self.r.choice("0123456789") for _ in range(n))

    def uuid(self):
        return str(uuid.UUID(int=self.r.getrandbits(128), version=4))

    def b64(self, n):
        return "".join(self.r.choice(B64) for _ in range(n))

    def b58(self, n):
        return "".join(self.r.choice(B58) for _ in range(n))

    def alnum_up(self, n):
        return "".join(self.r.choice(string.ascii_uppercase + string.digits) for _ in range(n))

    def alnum(self, n):
        return "".join(self.r.choice(string.ascii_letters + string.digits) for _ in range(n))

    def pick(self, xs):
        return self.r.choice(xs)

    def sri(self):
        return "sha512-" + base64.b64encode(bytes(self.r.getrandbits(8) for _ in range(64))).decode()

    def sri256(self):
        return "sha256-" + base64.b64encode(bytes(self.r.getrandbits(8) for _ in range(32))).decode()

    def ed25519_pub(self):
        blob = b"\x00\x00\x00\x0bssh-ed25519\x00\x00\x00\x20" + bytes(
            self.r.getrandbits(8) for _ in range(32)
        )
        return "ssh-ed25519 " + base64.b64encode(blob).decode()

    def fp_colon(self, nbytes=32):
        return ":".join(self.HEX(2) for _ in range(nbytes))

    def eth(self):
        return "0x" + self.hexs(40)

    def btc_bech32(self):
        return "bc1q" + "".join(self.r.choice("qpzry9x8gf2tvdw0s3jn54khce6mua7l") for _ in range(38))

    def card_bad_luhn(self, prefix="4"):
        while True:
            n = prefix + self.digits(16 - len(prefix))
            if not luhn_ok(n):
                return n

    def iban_bad(self, cc="DE", blen=18):
        while True:
            bban = self.digits(blen)
            ck = self.digits(2)
            s = cc + ck + bban
            if not iban_ok(s):
                return s


def luhn_ok(n):
    d = [int(c) for c in n][::-1]
    t = sum(d[0::2]) + sum(sum(divmod(2 * x, 10)) for x in d[1::2])
    return t % 10 == 0


def iban_ok(s):
    s2 = s[4:] + s[:4]
    num = "".join(str(int(c, 36)) for c in s2)
    return int(num) % 97 == 1


def b64text(t):
    return base64.b64encode(t.encode()).decode()


def write(folder, benign, secrets):
    import os

    os.makedirs(folder, exist_ok=True)
    with open(f"{folder}/benign_messages.jsonl", "w", encoding="utf-8") as fh:
        for m in benign:
            fh.write(json.dumps({"message": m}, ensure_ascii=False) + "\n")
    with open(f"{folder}/secret_messages.jsonl", "w", encoding="utf-8") as fh:
        for m, s, k in secrets:
            for x in s:
                assert x in m, (x, m)
            fh.write(json.dumps({"message": m, "secrets": s, "kinds": k}, ensure_ascii=False) + "\n")
