"""Passwords in the places commands, SQL and config files keep them, when the place, not the word
"password", says what the value is: ``docker login -p X``, ``sshpass -pX``, ``htpasswd -b file user
X``, ``echo 'user:X' | chpasswd``, ``net user name X /add``, ``ldapsearch -w X``, ``keytool -storepass
X``, ``smbclient -U user%X``, ``rabbitmqctl change_password user X``, ``--password=X``, ``echo 'X' |
docker login --password-stdin``, ``CREATE USER ... IDENTIFIED BY 'X'``, ``INSERT INTO t (user,
password) VALUES ('bob', 'X')``, ``<password>X</password>``, ``<add key="SmtpPassword" value="X"/>``,
a ``.netrc``'s ``password X``, Oracle's ``user/X@db``, ``echo 'X' > vault_pass.txt``,
``os.environ.get("SECRET_KEY", "X")``, ``signingKey = []byte("X")``, ``jwt.sign(payload, 'X')``,
``hmac.new(b"X", ...)``, ``pyotp.TOTP("X")``; a wallet's key in a Hardhat config's
``accounts: ["0x..."]`` or ethers' ``new Wallet("0x...")``, and a secret key written as its bytes (a
Solana keypair file's 64 numbers); and password hashes (``$2y$...``, ``$apr1$...``: crypt(3) formats).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

import ahocorasick

from . import prefilter
from .identifiers import checked_identity_word, passes_checksum
from .keywords import matches
from .rules import P_PROSE, Span, _name_parts, _secret_name, plausible_password

__all__ = ["detect"]

_V = r"['\"]?([^\s'\"|;&]{4,128})['\"]?"  # a value, quoted or not
_AUTH_PAIR = re.compile(
    r"(?i)\b(?:auth\s*=\s*\(|\w*basicauth\(|httpdigestauth\()\s*['\"][^'\"\n]{1,64}['\"]"
    r"\s*,\s*(?:password\s*=\s*)?['\"]([^'\"\n]{4,128})['\"]"
)
# A token given as the basic-auth user with an empty password, as SonarQube, Stripe and Mailgun take
# one: auth=("TOKEN", ""), HTTPBasicAuth("TOKEN", ""); curl -u TOKEN:
_TOKEN_AS_USER = re.compile(
    r"(?i)\b(?:auth\s*=\s*\(|\w*basicauth\()\s*['\"]([\w.-]{16,128})['\"]\s*,\s*(?:password\s*=\s*)?"
    r"(?:''|\"\"|None)\s*\)"
)
_CURL_TOKEN_AS_USER = re.compile(
    r"\bcurl\b[^\n|;&]{0,200}?\s(?:-u|--user)[ =]+['\"]?([\w.-]{16,128}):['\"]?(?=\s|$)"
)
_HTTPIE_AUTH = re.compile(
    r"(?<![\w/.-])(?:https?|httpie)[ \t][^\n|;&]{0,160}?(?<=\s)(?:-a|--auth)(?:[ \t]+|=)['\"]?"
    r"[^\s:'\"]+:([^\s'\"]{4,128})"
)
# (substring that must be in the lowercased text, pattern whose group 1 is the password)
_PLACES: list[tuple[str, re.Pattern[str]]] = [
    ("login", re.compile(r"\b(?:docker|podman|nerdctl|buildah|skopeo|oras|helm(?: registry)?|az|oc)\s+login\b"
                         rf"[^\n|;&]{{0,160}}?\s(?:-p|--password)(?:[ =]+){_V}")),
    ("sshpass", re.compile(rf"\bsshpass\s+-p\s*{_V}")),
    # a library's login call with both literals: smtplib's, imaplib's, ftplib's server.login(user, pw)
    ("login(", re.compile(r"\.login\(\s*(?:user\s*=\s*)?['\"][^'\"\n]{1,128}['\"]\s*,\s*"
                          r"(?:passw(?:or)?d\s*=\s*)?['\"]([^'\"\n]{4,128})['\"]\s*\)")),
    ("redis-cli", re.compile(rf"\bredis-cli\b[^\n|;&]{{0,120}}?\s-a\s+{_V}")),
    ("mysql", re.compile(rf"\bmysql(?:admin|dump)?\b[^\n|;&]{{0,120}}?\s(?:-p|--password=){_V}")),
    ("htpasswd", re.compile(rf"\bhtpasswd\s+-[a-zA-Z]*b[a-zA-Z]*\s+(?:-c\s+)?\S+\s+\S+\s+{_V}")),
    ("chpasswd", re.compile(r"['\"]?[\w.-]+:([^\s'\":|]{4,128})['\"]?\s*\|\s*(?:sudo\s+)?chpasswd")),
    ("net user", re.compile(rf"\bnet\s+user\s+\S+\s+{_V}\s+/add")),
    # net use [drive:] \\server\share [password] /user:[domain\]name [password]: the password is the
    # one argument that is no switch ("/persistent:no"), before the user's switch or after it
    ("net use", re.compile(rf"\bnet\s+use\b[^\n|;&]{{0,160}}?\s/user:\S+\s+(?![/*])(?:{_V})")),
    ("net use", re.compile(rf"\bnet\s+use\s+(?:[A-Za-z]:\s+)?\\\\\S+\s+(?![/*])(?:{_V})\s+/user:")),
    ("ldap", re.compile(rf"\bldap\w+\b[^\n|;&]{{0,200}}?\s-w\s+{_V}")),
    ("keytool", re.compile(rf"\s-(?:src|dest)?(?:store|key)pass\s+{_V}")),
    ("smbclient", re.compile(r"\bsmbclient\b[^\n|;&]{0,160}?\s-U\s+['\"]?[\w.\\-]+%([^\s'\"]{4,128})")),
    ("rabbitmqctl", re.compile(rf"\brabbitmqctl\s+(?:change_password|add_user)\s+\S+\s+{_V}")),
    ("--pass", re.compile(rf"--(?:password|passwd|pass|pwd|storepass|keypass)(?:=|\s+){_V}")),
    ("password-stdin", re.compile(r"echo\s+['\"]?([^\s'\"|]{4,128})['\"]?\s*\|[^\n]{0,80}--password-stdin")),
    ("sudo -s", re.compile(r"echo\s+['\"]?([^\s'\"|]{4,128})['\"]?\s*\|\s*sudo\s+(?:-\w+\s+)*-S\b")),
    ("--stdin", re.compile(r"echo\s+['\"]?([^\s'\"|]{4,128})['\"]?\s*\|\s*(?:sudo\s+)?passwd\s+--stdin")),
    # 7z a -pSECRET, and the value quoted against the shell: 7z x -p'SECRET?' (glued to its flag)
    ("7z", re.compile(r"\b7z[az]?\b[^\n|;&]{0,160}?\s-p['\"]?([^\s'\"]{4,128})")),
    ("unrar", re.compile(r"\b(?:unrar|rar)\b[^\n|;&]{0,160}?\s-(?:p|hp)['\"]?([^\s'\"-][^\s'\"]{3,127})")),
    ("zip", re.compile(rf"\b(?:zip|unzip|zipcloak)\b[^\n|;&]{{0,160}}?\s(?:-P|--password)\s+{_V}")),
    ("openssl", re.compile(r"\bopenssl\b[^\n|;&]{0,200}?\s-(?:pass(?:in|out)?|k)\s+['\"]?(?:pass:)?"
                           r"([^\s'\"]{4,128})")),
    ("identified", re.compile(r"(?i)\bidentified\s+(?:with\s+\w+\s+)?by\s+'([^'\n]{4,128})'")),
    ("password '", re.compile(r"(?i)\b(?:with\s+)?(?:encrypted\s+)?password\s+'([^'\n]{4,128})'")),
    ("<password>", re.compile(r"(?i)<(?:password|passwd|pwd|secret)>([^<\s]{4,128})</")),
    # a .pgpass line, host:port:database:user:password: a line of its own, or anywhere once named
    (":", re.compile(r"(?m)^[\w.*-]+:(?:\d{2,5}|\*):[\w*-]+:[\w*-]+:(\S{4,128})$")),
    ("pgpass", re.compile(r"(?<!\S)[\w.*-]{3,}:(?:\d{2,5}|\*):[\w*-]+:[\w*-]+:(\S{4,128}?)[.,;]?(?!\S)")),
    ("cookie", re.compile(r"(?i)\b(?:set-)?cookie:[^\n]*?\b(?:session|sess|sid|auth|token|remember)[\w-]*"
                          r"=([^;\s]{16,})")),
    ("client(", re.compile(r"Client\(\s*['\"]AC[0-9a-f]{32}['\"]\s*,\s*['\"]([0-9a-f]{32})['\"]")),  # Twilio
    ("key-", re.compile(r"\b(key-[0-9a-f]{32})\b")),  # Mailgun
    ("://", re.compile(r"\b[a-z][a-z0-9+.-]*://[^\s:/@'\"]+:([^\s@/'\"]{4,128})@[\w.-]+")),  # user:pass@host
    # a prefixed token that a mail client or terminal wrapped onto the next line (found from the
    # prefix's first letter, which `re` skips to in C: a word boundary first was tried everywhere)
    ("\n", re.compile(
        r"([gxsrAhnp](?<!\w.)(?:(?<=g)(?:h[pousr]_|ithub_pat_|lpat-)|(?<=x)ox[abposr]-"
        r"|(?<=s)(?:k-(?:proj-|ant-)?|k_live_|hp[a-z]{2}_)|(?<=r)k_live_|(?<=A)(?:KIA|Iza)|(?<=h)f_|(?<=n)pm_"
        r"|(?<=p)ypi-)[A-Za-z0-9_\-]{6,}\r?\n[A-Za-z0-9_\-]{6,})")),
    ("@tcp(", re.compile(r"[\w.-]+:([^\s@/'\"]{4,128})@tcp\(")),  # Go's MySQL DSN
    ("define", re.compile(r"(?i)define\(\s*['\"]\w*pass\w*['\"]\s*,\s*['\"]([^'\"]{4,128})['\"]")),
    # WordPress's keys and salts: define( 'AUTH_KEY', '...' ), 64 characters of anything
    ("define(", re.compile(r"(?i)define\(\s*['\"]\w*(?:_key|_salt|secret)\w*['\"]\s*,\s*"
                          r"['\"]([^'\"\s]{16,128})['\"]")),
    # a Terraform variable named for a secret, with a default: variable "db_password" { default = "X" }
    ("variable", re.compile(r"(?i)variable\s+\"\w*(?:pass\w*|secret|token|key)\w*\"\s*\{[^}]{0,200}?"
                            r"\bdefault\s*=\s*\"([^\"\n]{4,128})\"")),
    # a Gradle or Groovy block's setting, its quoted value after a space (a method call without
    # parentheses): signingConfigs { release { storePassword "X"; keyPassword "X" } }
    # (found from its literal "Pass", which `re` searches for in C, a small letter or a digit before it)
    ("password", re.compile(r"Pass(?<=[a-z0-9]Pass)(?:word|wd|phrase)[ \t]+"
                            r"[\"']([^\"'\n]{4,128})[\"'][ \t]*(?=$|\n|;|\})")),
    # redis.conf: requirepass / masterauth X
    ("requirepass", re.compile(r"\brequirepass\s+['\"]?([^\s'\"`]{4,128})")),
    ("masterauth", re.compile(r"\bmasterauth\s+['\"]?([^\s'\"`]{4,128})")),
    # a password's flag and its value as two items of an argument list: the exec form of a Dockerfile
    # or a Compose file (command: ["redis-server", "--requirepass", "X"]), Kubernetes' args, a
    # subprocess call's list
    ("pass", re.compile(r"['\"]--?(?:[a-z]+-)*(?:password|passwd|pass|pwd|requirepass)['\"]\s*,\s*"
                        r"['\"]([^'\"\s]{4,128})['\"]")),
    # a session cookie as the browser's devtools show it: connect.sid=..., sessionid=...
    ("sid=", re.compile(r"(?i)\b(?:connect\.sid|j?sessionid|phpsessid|sessid|[\w-]*session(?:_id)?)="
                        r"([^;\s\"'`]{20,})")),
    ("securestring", re.compile(r"(?i)convertto-securestring\s+['\"]([^'\"]{4,128})['\"]")),
    ("some(", re.compile(r"(?i)pass\w*\s*[:=]\s*some\(\s*\"([^\"]{4,128})\"")),
    ("(", re.compile(r"(?i)\b(?:new\s+pdo|getconnection|mysqli_connect|mysqli)\s*\(\s*['\"][^'\"]*['\"]\s*,"
                        r"\s*['\"][^'\"]*['\"]\s*,\s*['\"]([^'\"]{4,128})['\"]")),
    # a token printed on the line after the command that shows it
    ("auth:token", re.compile(r"heroku\s+auth:token\b[^\n]*(?:\n[^\n]*){0,3}?\n\s*([0-9a-f]{8}-[0-9a-f]{4}-"
                              r"[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|HRKU-[\w-]{20,})")),
    # a secret set for a repository's workflows: gh secret set NAME --body X (or -b X)
    ("gh secret", re.compile(rf"\bgh\s+secret\s+set\s+\S+[^\n|;&]{{0,120}}?\s(?:--body|-b)(?:[ =]+){_V}")),
    # the same in GitHub's form: a "Name:" that names a secret, then its "Value:" on the next line
    # (a personal access token's name ends in "PAT": ASANA_PAT, GH_PAT)
    ("value:", re.compile(r"(?i)\bname\s*:\s*[\"'`]?[\w.-]*?(?<![a-z])(?:key|token|secret|pass\w*|pwd|pat)\b"
                          r"[\"'`]?[ \t]*\r?\n[ \t]*(?:value|secret)\s*:\s*[\"'`]?([^\s\"'`]{6,256})")),
    ("otpauth://", re.compile(r"otpauth://[^\s]*?[?&]secret=([A-Za-z2-7]{16,}=*)")),  # a 2FA secret
    # the same secret given to a one-time-password library, in base32: pyotp.TOTP("X"), pyotp.HOTP("X"),
    # ROTP::TOTP.new("X") (Ruby), totp.generate("X") (otplib): the call says what the literal is
    ("otp", re.compile(r"(?i)\b[th]otp(?:\.new|\.generate)?\(\s*['\"]"
                       r"([A-Z2-7]{16,}=*|[a-z2-7]{16,}=*)['\"]")),
    ("wifi:", re.compile(r"WIFI:[^\n]*?(?<=[:;])P:((?:\\.|[^;\\\n])+)")),  # a Wi-Fi QR code's password
    ("webhooks", re.compile(r"((?:https?://)?(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/\d+/[\w-]{40,})")),
    ("://", re.compile(r"https?://([0-9a-f]{32})(?::[0-9a-f]{32})?@[\w.-]+/\d+")),  # a Sentry DSN's key
    (".", re.compile(r"([MNO][A-Za-z\d]{23,27}\.[\w-]{6}\.[\w-]{27,40})(?![\w-])")),  # a Discord bot token
    ("value=", re.compile(r"(?i)key\s*=\s*\"[^\"]*(?:password|passwd|pwd|secret)[^\"]*\"\s+"
                          r"value\s*=\s*\"([^\"]{4,128})\"")),
    # ~/.netrc: "machine host login user password X" (the word alone names it there)
    ("machine", re.compile(r"(?s)\bmachine\s+\S+.{0,200}?\bpassword\s+(\S{4,128})")),
    # Oracle's user/password@database (sqlplus, JDBC thin URLs)
    ("@", re.compile(r"(?:s(?<!\ws)qlplus\s+|jdbc:oracle:\w+:)[\w$#.-]+/([^\s@/'\"]{4,128})@")),
    # and its Easy Connect string anywhere (a driver's DSN, a traceback): user/password@//host
    ("@//", re.compile(r"(?<![\w/.:-])[A-Za-z_][\w$#.-]*/([^\s@/'\"]{4,128})@//[\w.-]+")),
    # a value echoed into a file named for a password or key ("echo 'X' > ~/.vault_pass.txt")
    ("echo", re.compile(r"\becho\s+['\"]?([^\s'\"|>]{4,128})['\"]?\s*>>?\s*\S*(?:pass|secret|token|key)\S*")),
    # a default for a secret's environment variable: os.environ.get("SECRET_KEY", "X"), getenv(...)
    # (found from its first letter, which `re` skips to in C, the rest of the name told by it)
    ("env", re.compile(r"(?i)[eg](?:(?<=e)(?:nviron\.get|nv\.get|nv)|(?<=g)etenv)\(\s*['\"]\w*"
                       r"(?:secret|key|token|pass\w*|pwd)\w*['\"]\s*,\s*['\"]([^'\"\n]{8,128})['\"]")),
    # the key given to a JWT or HMAC library's signing call: jwt.sign(payload, 'X', ...),
    # jwt.encode(payload, "X", algorithm="HS256"), JWT.encode payload, 'X' (Ruby), hmac.new(b"X", ...),
    # crypto.createHmac('sha256', 'X'): the library's argument says what the literal is
    ("jwt", re.compile(r"(?i)\bjwt\.(?:sign|verify|encode|decode)(?:\(\s*|\s+)"
                       r"(?:\{[^{}]{0,200}\}|[\w.\[\]'\"]{1,80})\s*,\s*b?['\"]([^'\"\n]{8,256})['\"]")),
    ("hmac", re.compile(r"(?i)\b(?:hmac\.new\(\s*b?|createhmac\(\s*['\"][\w-]+['\"]\s*,\s*)"
                        r"['\"]([^'\"\n]{8,256})['\"]")),
    # HTTP basic auth in code, the user and the password as a pair: requests' auth=("user", "X"),
    # HTTPBasicAuth("user", "X"), aiohttp's BasicAuth("user", "X"), httpx's auth=("user", "X")
    *((hint, _AUTH_PAIR) for hint in ("auth=(", "auth = (", "basicauth(", "digestauth(")),
    *((hint, _TOKEN_AS_USER) for hint in ("auth=(", "auth = (", "basicauth(")),
    ("curl", _CURL_TOKEN_AS_USER),
    # HTTPie's basic auth, the user and the password after -a / --auth: http -a user:X GET https://...
    *((hint, _HTTPIE_AUTH) for hint in (" -a ", "--auth")),
    # Postfix's sasl_passwd map: "[smtp.example.com]:587 user@example.com:PASSWORD"
    ("]:", re.compile(r"(?m)^[ \t]*\[[\w.-]+\]:\d{1,5}[ \t]+[^\s:]+:(\S{4,128})[ \t]*$")),
    # an Algolia client made with its application id and an API key (the search-only key, public
    # by design, is let through below)
    ("algolia", re.compile(r"(?i)(?:algoliasearch|searchclient\.create|searchclient)\("
                           r"\s*['\"][A-Z0-9]{10}['\"]\s*,\s*['\"]([a-f0-9]{32})['\"]")),
    # Terraform state: a random_password's (or random_string's) "result" attribute is the value
    ("random_", re.compile(r"\"type\"\s*:\s*\"random_(?:password|string)\"[\s\S]{0,800}?"
                           r"\"result\"\s*:\s*\"((?:[^\"\\\n]|\\.){4,256})\"")),
    # a key in code: signingKey = []byte("X"), secret_key = bytes("X"), API_TOKEN := String("X")
    ("(", re.compile(r"(?i)\b\w*(?:secret|key|token|passw\w*)\s*:?=\s*(?:\[\]byte|bytes|b|str|string|"
                     r"String)\(\s*['\"]([^'\"\n]{12,256})['\"]")),
]  # fmt: skip
# What a place's pattern cannot match without, where its hint is in most texts ("("): a cheap test
# first, since those patterns try a word's every start (~10 µs on 300 characters).
_KEY_IN_CODE = _PLACES[-1][1]  # signingKey = []byte("X")
_PDO_CALL = next(pattern for hint, pattern in _PLACES if hint == "(" and "pdo" in pattern.pattern)
_PLACE_NEEDS: dict[re.Pattern[str], Callable[[str], object]] = {
    _KEY_IN_CODE: re.compile(r"=\s*(?:\[\]byte|bytes|b|str|string)\(", re.IGNORECASE).search,
    _PDO_CALL: re.compile(r"pdo|getconnection|mysqli", re.IGNORECASE).search,
}
_SEARCH_ONLY = re.compile(r"search[ _-]?only|public[ _-]?(?:api[ _-]?)?key")
# Password hashes as crypt(3), htpasswd and /etc/shadow keep them (MD5-crypt, bcrypt, SHA-crypt,
# yescrypt, Argon2): enough to recover weak passwords offline, so they go like the passwords.
_CRYPT_HASH = re.compile(
    r"\$(?:apr1|1|5|6)\$[./A-Za-z0-9]{1,16}\$[./A-Za-z0-9]{22,86}"
    r"|\$2[abxy]?\$\d{2}\$[./A-Za-z0-9]{53}"
    r"|\$y\$[./A-Za-z0-9]+\$[./A-Za-z0-9]{8,}\$[./A-Za-z0-9]{43}"
    r"|\$argon2(?:id|i|d)\$v=\d+\$m=\d+,t=\d+,p=\d+\$[A-Za-z0-9+/]{8,}\$[A-Za-z0-9+/]{16,}"
)
# A hash the message goes on to say is only the hash, not the password ("that's the argon2 hash from
# the accounts table, not the password itself"): an example of what a table stores, as in docs.
_SAID_ONLY_HASH = re.compile(
    r"(?i)\bhash(?:ed)?\b[^\n]{0,60}?\bnot (?:the|a|my|your|our|his|her|their) "
    r"(?:actual |real |plain ?(?:text )?|clear ?(?:text )?)?password"
)
_SAID_ONLY_HASH_REACH = 120
# Hints found in most texts: the place needs at least this many of them (a .pgpass line has four
# colons, a Discord bot token two dots).
_COUNTED_HINTS = {":": 4, ".": 2}
# Places whose name says the value is a secret, whatever it looks like (Django's and WordPress's
# keys are runs of symbols), and Terraform's default for a variable named for one.
_NAMED_HINTS = frozenset(("env", "define(", "variable", "gh secret", "value:", "random_"))
# INSERT INTO t (col, password, ...) VALUES ('x', 'secret', ...), ('y', 'other', ...)
_SQL_INSERT = re.compile(r"insert\s+into\s+[\w.\"`\[\]]+\s*\(([^)]{1,400})\)\s*values", re.IGNORECASE)
_SQL_ROW = re.compile(r"\s*,?\s*\(([^)]{1,1000})\)")
_SQL_LITERAL = re.compile(r"'((?:[^']|'')*)'|\"((?:[^\"]|\"\")*)\"|([^,\s][^,]*)")
_SECRET_COLUMN = re.compile(
    r"pass|pwd|secret|token|api_?key|\bpin\b|passphrase|\bssn\b|social_?sec|\bcvv2?\b|\bcvc\b|card_?(?:num|no)|cc_?num"
    r"|\biban\b|\bexp(?:iry)?\b|^keys?$",  # (a column named "key" alone: "| service | key |")
    re.IGNORECASE,
)
# Columns and keys of identity and bank numbers (an HR export's "national_id", an INSERT's
# "account_no", a document's `nin: "..."`): their values are taken when they hold six digits or more.
_IDENTITY_COLUMN = re.compile(
    r"national_?id|\bnin\b|\bssn\b|social_?sec|tax_?(?:id|number|no)\b|\btin\b|passport|\bacct|\biban\b"
    r"|\baccount(?:_?(?:no|num|number|nr))?\b|\bbsn\b|pesel|personnummer|\bcpf\b|\bdni\b|aadhaar|"
    r"\brouting(?:_?(?:no|number))?\b|\bid_?(?:number|no|card)\b|identity_?(?:number|no)"
    r"|\bgov(?:ernment)?_?id\b|\bcitizen_?id\b|\bpersonal_?(?:id|no|number|code)\b|\bnric\b|\bnik\b",
    re.IGNORECASE,
)
_IDENTITY_DIGITS = 6
_IDENTITY_CODE_CHARS = 20
# `national_id = '252065025582440'`, `"account": "31057846"`: a quoted value after a key. The link
# and the quote are found first (one cheap scan), then the key before them is read: a search for
# the column names over a whole message costs ~100 µs per 300 characters in `re`.
_QUOTED_AFTER_LINK = re.compile(r"[=:][ \t]*[\"'`]([^\"'`\n]{6,40})[\"'`]")
_KEY_BEFORE_LINK = re.compile(r"([\w-]{2,40})[\"'`]?[ \t]*$")


def _identity_value(value: str) -> bool:
    """A cell or a key's value that reads as an identity or account number: six digits or more,
    with at most single separators ("95.04.07-645.04", "CY 87 83 96 A"), not a sentence; or one
    code of letters and digits (an Italian codice fiscale: "RSSMRA85T10A562S")."""
    return (
        sum(c.isdigit() for c in value) >= _IDENTITY_DIGITS
        and "  " not in value
        and (sum(c.isalpha() for c in value) <= 4 or (value.isalnum() and len(value) <= _IDENTITY_CODE_CHARS))
        and not value.startswith(("$", "<", "%", "*", "x", "X"))
    )


def _identity_kind(column: str) -> str:
    return "bank_account" if re.search(r"acc|iban|routing", column, re.IGNORECASE) else "national_id"


def _identity_keys(text: str) -> Iterator[Span]:
    for m in _QUOTED_AFTER_LINK.finditer(text) if prefilter.may(prefilter.QUOTED_AFTER_LINK, text) else ():
        key = _KEY_BEFORE_LINK.search(text, max(0, m.start() - 44), m.start())
        if key is not None and _IDENTITY_COLUMN.search(key.group(1)) and _identity_value(m.group(1)):
            yield m.start(1), m.end(1), _identity_kind(key.group(1)), P_PROSE


def _sql_rows(text: str) -> Iterator[Span]:
    for m in _SQL_INSERT.finditer(text):
        columns = [c.strip(' "`[]').lower() for c in m.group(1).split(",")]
        row = _SQL_ROW.match(text, m.end())
        while row is not None:  # every row of a multi-row VALUES
            yield from _sql_cells(text, columns, row)
            row = _SQL_ROW.match(text, row.end())


def _sql_cells(text: str, columns: list[str], row: re.Match[str]) -> Iterator[Span]:
    values = list(_SQL_LITERAL.finditer(row.group(1)))
    for column, value in zip(columns, values, strict=False):
        secret, identity = _SECRET_COLUMN.search(column), _IDENTITY_COLUMN.search(column)
        if not secret and not identity:
            continue
        group = next(g for g in (1, 2, 3) if value.group(g) is not None)
        start, end = row.start(1) + value.start(group), row.start(1) + value.end(group)
        found = text[start:end]
        if found.startswith(("$", ":", "?", "%s")):
            continue  # a placeholder for a bound parameter
        if secret and end - start >= 4:
            yield start, end, "password", P_PROSE
        elif identity and _identity_value(found):
            yield start, end, _identity_kind(column), P_PROSE


# A table (Markdown, CSV or tab-separated) with a column of secrets: its header row names the column.
_TABLE_SEPARATORS = ("|", "\t", ",", ";")
_COLUMN_NAME_CHARS = 24
_CODE_BRACKETS = frozenset("(){}[]")
_SEPARATOR_ROW = re.compile(r"^[\s|:+-]+$")


def _cells(line: str, sep: str) -> list[tuple[int, int]]:
    """(start, end) of each cell's trimmed text in ``line``; Markdown's outer pipes dropped."""
    spans, pos = [], 0
    for part in line.split(sep):
        start, end = pos, pos + len(part)
        while start < end and line[start] in " \t\"'`":
            start += 1
        while end > start and line[end - 1] in " \t\"'`":
            end -= 1
        spans.append((start, end))
        pos += len(part) + 1
    if sep == "|" and line.strip().startswith("|"):
        spans = spans[1:]
    if sep == "|" and line.strip().endswith("|"):
        spans = spans[:-1]
    return spans


def _table_secret(value: str) -> bool:
    """A cell's value is a secret unless it is prose ("see Vault"), empty or a placeholder."""
    return (
        len(value) >= 4
        and not any(c.isspace() for c in value)
        and not value.startswith(("$", "<", "%", "*"))
        and plausible_password(value, True, "")
    )


def _separator(header: str) -> str | None:
    """The first of _TABLE_SEPARATORS a header's cells can be split at: "|" twice, any other once."""
    for separator in _TABLE_SEPARATORS:
        if separator in header and (separator != "|" or header.count(separator) >= 2):
            return separator
    return None


# A CI/CD settings page's variables copied as text (GitLab's list, a .env exported to a sheet): a
# variable's name, a tab, its value, then perhaps more cells ("masked=false", "protected"). A name
# that ends in a secret's word gives the value after its tab, as "=" would.
# (A setting's word, "enabled", "none", is no value of a secret: one holds a digit or a symbol, or
# runs to 12 characters, as a passphrase of words joined does.)
_TAB_ASSIGNMENT = re.compile(
    r"(?im)(?:^|(?<=\n))[ \t]*"
    r"([a-z][a-z0-9]*(?:_[a-z0-9]+)*_?(?:password|passwd|passphrase|pwd|secret|token))"
    r"\t+([^\t\r\n]{4,128}?)[ ]*(?=\t|\r?$)"
)
_TAB_VALUE_LEAST_WORDS = 12


def _tab_assignments(text: str) -> Iterator[Span]:
    for m in _TAB_ASSIGNMENT.finditer(text):
        value = m.group(2)
        if value.startswith(("$", "<", "%")) or (value.isalpha() and len(value) < _TAB_VALUE_LEAST_WORDS):
            continue
        if plausible_password(value, False, ""):
            yield m.start(2), m.end(2), "password", P_PROSE


def _table_columns(text: str) -> Iterator[Span]:
    """The cells under a header such as ``password``, ``pin`` or ``api key`` in a table."""
    lines, offsets, pos = text.split("\n"), [], 0
    for line in lines:
        offsets.append(pos)
        pos += len(line) + 1
    for i, header in enumerate(lines[:-1]):
        sep = _separator(header)
        if sep is None or (i and sep in lines[i - 1]):
            continue  # a header is a table's first row
        if sep == "|" and not _SEPARATOR_ROW.match(lines[i + 1]):
            continue  # a Markdown table's header is followed by its |---| row
        # (a column's name is short: a line of prose split at its commas is not read further)
        # (nor is a line of code: "func Check(hash []byte, password string) {" names no column)
        names = [
            header[a:b].lower()
            if b - a <= _COLUMN_NAME_CHARS and _CODE_BRACKETS.isdisjoint(header[a:b])
            else ""
            for a, b in _cells(header, sep)
        ]
        if len(names) < 2:
            continue
        if sep == "\t" and _TAB_ASSIGNMENT.match(header):
            continue  # "DB_PASSWORD<TAB>value<TAB>masked=true": a variable and its value, not a header
        secret = [k for k, name in enumerate(names) if name and _SECRET_COLUMN.search(name)]
        identity = [
            k for k, name in enumerate(names) if name and k not in secret and _IDENTITY_COLUMN.search(name)
        ]
        # a column named by an identity whose checksum is known ("Steuer-ID", "PESEL"): the cells
        # whose number passes it
        checked = {
            k: word
            for k, name in enumerate(names)
            if name and k not in secret and k not in identity and (word := checked_identity_word(name))
        }
        if not (secret or identity or checked):
            continue
        for j in range(i + 1, len(lines)):
            row = lines[j]
            if _SEPARATOR_ROW.match(row) and sep == "|":
                continue
            cells = _cells(row, sep)
            if len(cells) != len(names):
                break  # the table ended
            for k in secret:
                start, end = cells[k]
                if _table_secret(row[start:end]):
                    yield offsets[j] + start, offsets[j] + end, "password", P_PROSE
            for k in identity:
                start, end = cells[k]
                if _identity_value(row[start:end]):
                    yield offsets[j] + start, offsets[j] + end, _identity_kind(names[k]), P_PROSE
            for k, word in checked.items():
                start, end = cells[k]
                if passes_checksum(word, row[start:end]):
                    yield offsets[j] + start, offsets[j] + end, "national_id", P_PROSE


# Hints of one character ("(", ":", ".", "\n") occur in most texts: a `str` test each; the longer
# ones are found together in one pass of an Aho-Corasick automaton.
_CHAR_HINTS = frozenset(hint for hint, _ in _PLACES if len(hint) == 1) | {"\n"}
_HINTS = ahocorasick.Automaton()
for _hint in {hint for hint, _ in _PLACES if len(hint) > 1} | {"insert"}:
    _HINTS.add_word(_hint, _hint)
_HINTS.make_automaton()
# The places of each hint, by their index in _PLACES: a message runs the places of the hints it holds,
# in _PLACES's order, where a test of each of the 70-odd places' hints cost ~10 µs a message.
_PLACE_INDEXES: dict[str, tuple[int, ...]] = {}
for _index, (_hint, _) in enumerate(_PLACES):
    _PLACE_INDEXES[_hint] = (*_PLACE_INDEXES.get(_hint, ()), _index)


# A wallet's private key where code keeps one: a Hardhat or Truffle network's `accounts: ["0x..."]`,
# ethers' `new Wallet("0x...")` (64 hex digits alone are more often a hash: the place names it).
_WALLET_PLACE = re.compile(
    r"\baccounts\s*:\s*\[([^\]]{64,2000})\]|\bWallet\(\s*['\"]((?:0x)?[0-9a-fA-F]{64})['\"]"
)
_HEX_KEY = re.compile(r"(?<![0-9A-Za-z])(?:0x)?[0-9a-fA-F]{64}(?![0-9A-Za-z])")
# A secret key written as its bytes: the JSON array of a Solana keypair file (solana-keygen's
# id.json: 64 numbers 0-255, the secret half and the public half), or 32 bytes or more where the
# message names a key ("secretKey: [...]", "Keypair.fromSecretKey(Uint8Array.from([...]))").
_BYTE_ARRAY = re.compile(
    r"\[\s*(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\s*,\s*){31,}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\s*\]"
)
_KEY_WORDS = re.compile(r"(?i)secret|private|keypair|key\b|seed|wallet|id\.json")


def _wallet_keys(text: str) -> Iterator[Span]:
    for m in _WALLET_PLACE.finditer(text):
        if m.group(2):
            yield m.start(2), m.end(2), "private_key", P_PROSE
            continue
        for key in _HEX_KEY.finditer(text, m.start(1), m.end(1)):
            yield key.start(), key.end(), "private_key", P_PROSE


def _byte_keys(text: str) -> Iterator[Span]:
    for m in _BYTE_ARRAY.finditer(text):
        count = m.group().count(",") + 1
        if count == 64 or (count >= 32 and _KEY_WORDS.search(text, max(0, m.start() - 80), m.start())):
            yield m.start(), m.end(), "private_key", P_PROSE


# A setting given as a name and a value in two members, the way a Kubernetes container's "env", an
# ECS task's "environment", a browser's exported cookies or a .NET config list them
# ({"name": "DB_PASSWORD", "value": "..."}, "- name: API_TOKEN\n  value: ..."): the value is a secret
# when the name names one.
_JSON_NAME_VALUE = re.compile(
    r"([\"'])name\1[ \t]*:[ \t]*([\"'])([^\"'\n]{1,80})\2[ \t]*,\s*([\"'])value\4[ \t]*:[ \t]*"
    r"([\"'])([^\"'\n]{1,4096})\5"
)
_YAML_NAME_VALUE = re.compile(
    r"(?m)^([ \t]*)-[ \t]+name:[ \t]*([\"']?)([\w.-]{1,80})\2[ \t]*\r?\n\1[ \t]+value:[ \t]*"
    r"([\"']?)([^\s\"'][^\n\"']{0,4095}?)\4[ \t]*$"
)
_PASSWORD_PARTS = frozenset(("password", "passwd", "pwd", "pass", "passphrase", "session", "pin", "cookie"))


def _names_a_secret(name: str) -> bool:
    parts = _name_parts(name)
    return _secret_name(name) or (bool(parts) and parts[-1] in _PASSWORD_PARTS)


def _name_value_pairs(text: str) -> Iterator[Span]:
    found = [(m.group(3), m.span(6)) for m in _JSON_NAME_VALUE.finditer(text)]
    if "value:" in text:
        found += [(m.group(3), m.span(5)) for m in _YAML_NAME_VALUE.finditer(text)]
    for name, (start, end) in found:
        value = text[start:end].strip()
        if (
            value
            and value[0] not in "$%{<"
            and _names_a_secret(name)
            and plausible_password(value, False, "")
        ):
            yield start, start + len(value), "password", P_PROSE


# A password in a child element <Value> of an element named for it, as Windows' unattend.xml keeps
# them (<AdministratorPassword><Value>...</Value><PlainText>true</PlainText>).
_XML_VALUE_CHILD = re.compile(
    r"<([A-Za-z][\w:.-]*(?:Password|Passwort|Secret|Token|Passphrase|password|secret|token))"
    r"(?:[ \t][^<>\n]*)?>\s*<Value>([^<>\n]{1,512})</Value>"
)


def _xml_value_children(text: str) -> Iterator[Span]:
    for m in _XML_VALUE_CHILD.finditer(text):
        value = m.group(2)
        if plausible_password(value, True, "") and value.strip() == value:
            yield m.start(2), m.end(2), "password", P_PROSE


# A file client's login flag with the user and the password joined by its separator: lftp's
# "-u user,password", smbclient's and rpcclient's "-U user%password".
_USER_FLAG_PAIR = re.compile(
    r"\b(?:lftp\b[^\n]*?[ \t]-u[ \t]+([\"']?)[^\s,\"']+,([^\s\"']+)\1"
    r"|(?:smbclient|rpcclient|smbcacls|smbget)\b[^\n]*?[ \t]-U[ \t]+([\"']?)[^\s%\"']+%([^\s\"']+)\3)"
)


def _user_flag_pairs(text: str) -> Iterator[Span]:
    for m in _USER_FLAG_PAIR.finditer(text):
        group = 2 if m.group(2) is not None else 4
        if plausible_password(m.group(group), False, ""):
            yield m.start(group), m.end(group), "password", P_PROSE


def detect(text: str, lower: str) -> Iterator[Span]:
    if "name" in text and "value" in text:
        yield from _name_value_pairs(text)
    if "<Value>" in text:
        yield from _xml_value_children(text)
    if "lftp" in text or "-U " in text:
        yield from _user_flag_pairs(text)
    if "[" in text and text.count(",") >= 31:
        yield from _byte_keys(text)
    if ("accounts" in text or "Wallet(" in text) and len(text) >= 64:
        yield from _wallet_keys(text)
    if "$" in text:
        for m in _CRYPT_HASH.finditer(text) if prefilter.may(prefilter.CRYPT_HASH, text) else ():
            if not _SAID_ONLY_HASH.search(text, m.end(), m.end() + _SAID_ONLY_HASH_REACH):
                yield m.start(), m.end(), "password_hash", P_PROSE
    if "=" in text or ":" in text:
        yield from _identity_keys(text)
    if "\t" in text:
        yield from _tab_assignments(text)
    present = {hint for _, hint in matches(_HINTS, lower)} | {c for c in _CHAR_HINTS if c in lower}
    if not present:
        return
    for index in sorted(i for hint in present for i in _PLACE_INDEXES.get(hint, ())):
        hint, pattern = _PLACES[index]
        if hint in _COUNTED_HINTS and lower.count(hint) < _COUNTED_HINTS[hint]:
            continue
        if pattern in _PLACE_NEEDS and not _PLACE_NEEDS[pattern](text):
            continue
        for m in pattern.finditer(text):
            value = m.group(1)
            if hint == "algolia" and _SEARCH_ONLY.search(lower):
                continue  # a search-only key ships in every storefront's page
            # (a default for a secret's variable is one whatever it looks like: Django's keys are symbols)
            named = hint in _NAMED_HINTS and " " not in value
            if (named or plausible_password(value, False, "")) and not value.startswith(("$", "<", "%")):
                yield m.start(1), m.end(1), "password", P_PROSE
    if "insert" in present:
        yield from _sql_rows(text)
    if "\n" in present:
        yield from _table_columns(text)
