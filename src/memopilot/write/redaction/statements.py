"""Secrets that people state in words: passwords, codes and identity numbers said in any language
and phrasing, values spaced out, dashed or spelled out, seed phrases, passwords in SQL and in the
flags of common commands.

**Named values.** A name ("password", "contraseña", "Passwort", "mot de passe", "hasło", "пароль",
"密码", "パスワード", "비밀번호", "alarm code", "wifi key" ... in about thirty languages, inflected
forms such as "lösenordet" or "salasanani" included) is followed, within a few words, by its value.
Rather than list every verb and preposition of every language that may stand between them ("is",
"to", "lautet", "en", "na", "改成", "를", "olarak" ...), the words after the name are read until the
first one that is not a plain word: that token is the value when it looks like one (quoted, or two
kinds of character among lower case, upper case, digits and symbols; digits alone for a code), and
it is not a date, a time, a version, an amount or a path. "My password is too short", "Mein
Passwort ist abgelaufen" and "password expired on 2024-03-01" stay as they are.

**Shapes that are secrets wherever they stand**: a token mixing lower case, upper case, digits
and a symbol (how generated and rule-following passwords look, and almost nothing else in chat);
single characters spaced or dashed out ("X 7 k 9 q 2 m"); six or more digits spelled out in words
(English, Spanish, French, German, Italian, Portuguese, or the NATO alphabet); product keys; runs
of twelve or more BIP-39 words (the ``mnemonic`` package's list): seed phrases.
"""

from __future__ import annotations

import base64
import binascii
import functools
import itertools
import json
import re
import string
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass

import ahocorasick

from . import prefilter
from .identifiers import base58_of_32_bytes, base58check
from .keywords import KeywordIndex, Substrings, matches, word_list
from .rules import (
    METER_READING,
    P_PROSE,
    P_STRUCT,
    PROSE_WORDS,
    Span,
    count_digits,
    is_placeholder,
    joined_word_passphrase,
    looks_random,
    plausible_password,
    postal_pin_code,
    shannon,
)

__all__ = ["PUBLIC_HASH_BEFORE", "detect", "key_talk", "public_field_before", "public_shape"]


# Names of a password or code, by language (lowercase); inflected forms are matched too. (Bengali's
# "য়" is written decomposed or as U+09DF, which NFC does not compose: both forms are listed.)
def _typos(word: str) -> list[str]:
    """The ways a fast typist misspells ``word``: one letter dropped, doubled, or swapped with the next."""
    out = {word[:i] + word[i + 1 :] for i in range(1, len(word))}
    out |= {word[:i] + word[i] + word[i:] for i in range(len(word))}
    out |= {word[:i] + word[i + 1] + word[i] + word[i + 2 :] for i in range(1, len(word) - 1)}
    return sorted(out - {word})


# Names whose value is a word ("memorable word ... is HEDGEROW"): linked by "is" or ":", any word.
_WORD_VALUE_NAME_LIST = word_list("""
    memorable word|memorable information|memorable phrase|code word|codeword|кодовое слово|słowo kodowe|
    mot de code|palabra clave|palavra-chave
""")
_PASSWORD_NAMES = (
    _typos("password")
    + word_list("""
    password|passwort|passwd|passcode|passphrase|pass phrase|credentials|creds|login|
    wifi key|wi-fi key|network key|wpa key|wpa2 key|secret answer|security answer|
    contraseña|contrasena|contrasenya|clave|senha|palavra-passe|parola d'ordine|mot de passe|mdp|
    mk|kennwort|wachtwoord|lösenord|losenord|passord|kodeord|adgangskode|salasana|tunnussana|
    lykilorð|hasło|haslo|heslo|jelszó|jelszo|jelszav|lozinka|geslo|slaptažodis|parole|parola|
    parolă|пароль|парол|парола|κωδικός|κωδικος|συνθηματικό|şifre|sifre|סיסמה|סיסמא|كلمة المرور|
    كلمة السر|رمز عبور|पासवर्ड|密码|密碼|口令|パスワード|비밀번호|비번|암호|패스워드|mật khẩu|mat khau|
    kata sandi|kata laluan|nenosiri|nywila|পাসওয়ার্ড|کلمه عبور|پاس ورڈ|கடவுச்சொல்|పాస్‌వర్డ్|
    รหัสผ่าน|recovery key|recovery phrase|seed phrase|mnemonic|parool|salasõna|fjalëkalim|fjalëkalimi|
    pasahitza|contrasinal|cyfrinair|wagwoord|лозинка|құпия сөз|şifrə|parol|нууц үг|პაროლი|գաղտնաբառ|
    පාස්වර්ඩ්|මුරපදය|ಪಾಸ್‌ವರ್ಡ್|പാസ്‌വേഡ്|પાસવર્ડ|ਪਾਸਵਰਡ|পাসওয়ার্ড|diceware|emergency kit|
    wlan-schlüssel|wlan-passwort|wlan schlüssel|clé wifi|cle wifi|clave wifi|clave del wifi|
    netzwerkschlüssel|netzwerkschluessel|netzwerksicherheitsschlüssel|netzwerk-schlüssel|wlan-key|wlan key|
    wlan-kennwort|wifi-schlüssel|wlan-code|network security key|clé réseau|clé de sécurité réseau|
    clave de red|clave de seguridad de red|chiave di rete|chiave wifi|chiave wi-fi|netwerksleutel|
    netwerkbeveiligingssleutel|klucz sieci|klucz wifi|ağ anahtarı|ağ güvenlik anahtarı|wifi anahtarı|
    chave de rede|chave de segurança da rede|chave do wifi|ключ сети|ключ безопасности сети|
    كلمة سر|كلمة مرور|كلمه السر|كلمه المرور|كلمه سر|
    የይለፍ ቃል|የይለፍ ቃሌ|ይለፍ ቃል|መግቢያ ቃል|
    frase de paso|frase de contraseña|frase de contrasena|frase secreta|frase de acceso|frase-senha|
    frase de senha|phrase secrète|phrase secrete|phrase de passe|passwortsatz|kennwortsatz|
    wachtwoordzin|frase d'accesso|frase segreta|lösenfras|losenfras|passordfrase|adgangssætning|
    fraza hasła|fraza hasla|hasło-fraza|парольная фраза|кодовая фраза|секретная фраза|パスフレーズ|
    密码短语|口令短语|암호 문구|암호문구|
    frase semilla|frase de recuperación|frase de recuperacion|frase de recuperação|
    phrase de récupération|wiederherstellungsphrase|herstelzin|frase di recupero|fraza odzyskiwania|
    сид-фраза|мнемоническая фраза|助记词|シードフレーズ|복구 구문
""")
    + _WORD_VALUE_NAME_LIST
)
# Hebrew writes "the", "and", "that", "in", "to", "from" as a letter joined to the next word
# ("הסיסמה", "והסיסמה", "שהסיסמה"): the names with those letters before them.
_HEBREW_PREFIXES = ("ה", "ו", "ש", "ב", "ל", "מ", "כ", "וה", "שה", "בה", "לה", "מה")
_PASSWORD_NAMES += [
    prefix + name
    for name in _PASSWORD_NAMES
    if "\u05d0" <= name[0] <= "\u05ea"
    for prefix in _HEBREW_PREFIXES
]
# Arabic joins "and", "so", "with", "for" to the next word as a letter too ("وكلمة المرور": "and the
# password").
_PASSWORD_NAMES += [
    prefix + name for name in _PASSWORD_NAMES if name.startswith("كلم") for prefix in ("و", "ف", "ب", "ل")
]
# Words that link a name to its value in the languages above; a value of only two kinds of
# character must follow one of them (or the name itself): "password is abc123", not "password
# is stored as an argon2id hash".
_LINKS = frozenset(
    word_list("""
    is|was|are|to|as|now|equals|reads|be|es|és|era|sea|est|était|c'est|ist|isch|lautet|war|wird|è|é|foi|
    är|var|er|ble|on|oli|jest|to|je|bylo|это|е|είναι|olarak|adalah|ialah|là|ni|este|a|en|in|na|
    para|naar|auf|zu|till|til|into|at|'s|it's|it’s|its|currently|:|=|->|→|⟶|⇒|=>|—|–|-|是|为|為|は|が|を|는|은|이|가|로|으로|คือ|हैं|है|هي|היא|הוא|used|using|chose|picked|на|в|إلى|الى|
    হল|হলো|হচ্ছে|ہے|हो|आहे|છે|ਹੈ|است|yra|ir|është|ay|არის|је|є|бе|была|был|ነው
""")
)
# Names of a numeric code: a value of digits alone counts from four digits.
_CODE_NAMES = word_list("""
    pin|pin code|pin-code|passcode|code|alarm code|door code|gate code|safe code|lock code|
    garage code|access code|entry code|keypad code|combination|código|codigo|codice|code d'accès|
    combinación|combinaison|kombination|combinazione|combinação|combinatie|kombinacja|комбинация|
    zugangscode|toegangscode|kod|kód|код|暗证|暗証番号|门禁密码|비밀번호|pinkod|pinkode|pincode|
    alarm|disarm|disarm code|puk|puk code|sim puk|puk1|puk2|pin1|pin2|tresor|safe combination|
    keypad|padlock|lockbox|caja fuerte|cassaforte|coffre-fort|coffre fort|cofre|kluis|sejf|сейф|保险柜|保險箱|
    locker|gate|kode|kode brankas|رمز|رمز الخزنة|número secreto|numero secreto|secret number|
    geheimzahl|code secret|codice segreto|pincode|pin-kode|codi|koodi|ovikoodi|pin-koodi|पिन|
    combo|lock combo|safe|bike lock|door lock|nip|пин|пін|otp|otp code|verification code|one-time code|
    one-time password|sms code|login code|2fa code|auth code|קוד|הקוד|验证码|驗證碼|認証コード|
    कोड|पिन कोड|รหัส|الرقم السري|الرمز السري|كود|
    確認コード|인증번호|인증 번호|인증코드|код подтверждения|kod weryfikacyjny|código de verificación|
    code de vérification|bestätigungscode|verificatiecode|doğrulama kodu
""")
# Words before "code" that make it a code of something public ("booking code", "VS Code").
_PUBLIC_CODE_BEFORE = re.compile(
    r"(?:reservation|booking|confirmation|promo|discount|coupon|voucher|gift|tracking|postal|zip|area|"
    r"country|error|status|exit|return|source|reference|product|item|sku|color|colour|dress|friend|"
    r"referral|invite|invitation|qr|bar|morse|tax|billing|course|class|flight|fare|vs|sort|swift|bic|"
    r"iata|airport|language|currency|region|machine|op|short|dial|ean|hs|naics|icd|trace|upc|gtin|isbn"
    r"|approval"  # (a card payment's, printed on its receipt)
    r"|barcode)(?:-?\d{1,3}|-[a-z])?[\s-]*$"  # (with the standard's number: "EAN-13 code", "UPC-A code")
)
# Words before "code" itself (not a PIN: "bank PIN" is the card's) that make it a number printed
# for all: an app build's ("version code"), a bank's or a branch's routing number, which every
# statement prints ("bank code 500 700 10", "branch code", "transit code").
_PUBLIC_CODE_WORD_BEFORE = re.compile(r"(?:version|bank|branch|transit|clearing|routing|institution)[\s-]*$")
_PUBLIC_CODE_AFTER = re.compile(
    r"\s+(?:de rastreio|de rastreamento|de seguimiento|de suivi|pocztowy|pocztowa|"
    r"cliente|client|customer|postal|postale|promo|promozionale|sconto|fiscale|de cliente|do cliente"
    r"|de réduction|de reduction|de descuento|ean|iban|swift|bic"
    r"|insee|naf|ape"  # (France's public codes of a commune and of a trade)
    r"|de barras?|à barres|a barres|a barre|qr)\b"  # (a barcode: "código de barras", "code à barres")
)
_POSTAL_PIN_NAMES = frozenset(("pin code", "pincode", "pin-code", "पिन कोड"))
_CALL_OPEN = re.compile(r"\w\([^()\n]*$")  # inside a call's parentheses: "hash(salt + "
_OBJECT_KEY_BEFORE = re.compile(r"[,{]\s*[\"']?$")
# Names of codes that come several at once ("backup codes: 8tn0t-2ylv9 2xqke-cgc3j ...").
_LIST_NAMES = word_list("""
    backup codes|recovery codes|backup code|recovery code|2fa codes|one-time codes|backup verification codes|
    herstelcodes|back-upcodes|backupcodes|wiederherstellungscodes|backup-codes|sicherungscodes|
    codes de récupération|codes de secours|códigos de recuperación|códigos de respaldo|códigos de backup|
    códigos de recuperação|
    codici di backup|codici di recupero|kody zapasowe|kody odzyskiwania|reservkoder|återställningskoder|
    резервные коды|коды восстановления|バックアップコード|リカバリーコード|备用码|恢复码|백업 코드|복구 코드|
    yedek kod|yedek kodlar|yedek kodları|kurtarma kodu|kurtarma kodları|
    códigos de seguridad|codigos de seguridad|códigos alternativos|codigos alternativos|codes de sécurité|
    códigos de segurança|codici di sicurezza|sicherheitscodes|beveiligingscodes|
    security codes|backup security codes
""")
# Short names that are ordinary words elsewhere ("pass the salt", "the wifi is slow"): a value after
# them must look random (three kinds of character), unless ":" or "=" stands between. ("ww" is
# Dutch's "wachtwoord" cut short, as "pw" is English's: "gebruiker admin / ww: ...")
_WEAK_NAMES = word_list("pass|pw|pwd|psw|psk|ww|wifi|wi-fi|wlan|network")
_NAMES = KeywordIndex(
    _PASSWORD_NAMES + _CODE_NAMES + _LIST_NAMES + _WEAK_NAMES,
    suffix_letters=6,
    compound_heads=word_list(
        "passwort|kennwort|wachtwoord|lösenord|losenord|passord|kodeord|adgangskode|salasana"
    ),
)
_WEAK = frozenset(_WEAK_NAMES)
# A question of which network to join names networks (their SSIDs), not a password.
_NETWORK_NAMES = frozenset(("wifi", "wi-fi", "wlan", "network"))
_WHICH_BEFORE = re.compile(
    r"\b(?:which|what|welches|welchem|welche|quel|quelle|qué|cuál|cual|qual|quale|welk|welke|który|którą|"
    r"której|какой|какую|какая)[ \t]+$"
)
_NAME_NEXT = re.compile(r"[\s-]*(?:password|passwort|passcode|passphrase|code|pin|key|login)")
# Words between a link and its value that leave them linked ("is literally", "ist einfach").
_ADVERBS = frozenset(
    word_list(
        "literally|simply|just|actually|basically|really|exactly|still|now|einfach|genau|juste|solo|só"
        "|jetzt|ahora|maintenant|agora|adesso|teraz"  # "now" ("das Passwort ist jetzt ...")
        # "by the way", said between the link and the value ("das Passwort ist übrigens ...")
        "|btw|fyi|übrigens|uebrigens|nämlich|trouwens|overigens|förresten|forresten|forøvrigt|comunque"
        "|aliás|кстати|zresztą|mellesleg"
    )
)
# The same said in several words ("is by the way", "c'est d'ailleurs", "es por cierto"): the value
# follows it as it follows the link.
_BY_THE_WAY = re.compile(
    r"(?i)(?:by the way|for the record|au fait|d['’]ailleurs|en passant|por cierto|a propósito|de paso"
    r"|tra l['’]altro|przy okazji|между прочим|à propos)(?!\w),?"
)
# Russian, Ukrainian and Belarusian say no "is" in the present: the value follows the name and what
# it is the password of ("Пароль от вайфая X", "пароль для почты X", "пароль до роутера X").
_OF_WORDS = frozenset(word_list("от|для|к|ко|до|від|ад|з|из|у"))
# Possessives that follow the name, as Indonesian, Malay, Tagalog and Swahili write them ("kata
# sandi saya X": "password my X"): they leave the name linked to its value, as an adverb does.
_POSSESSIVES_AFTER = frozenset(word_list("saya|aku|ku|kami|kita|anda|kamu|gue|gw|ko|namin|yangu|yetu"))
_WEAK_LINKS = frozenset(("is", "was"))  # "the wifi at the cabin is pretzel1808thunder"
_CODES = frozenset(_CODE_NAMES)
_PASSWORD_NAME_SET = frozenset(_PASSWORD_NAMES)
_CODE_SECOND_HALF = re.compile(r"[ \u00a0](\d{2,4})(?![\w.,]\d)(?!\w)")
_WORD_VALUE_NAMES = frozenset((*_WORD_VALUE_NAME_LIST, "secret answer", "security answer"))
_WORD_VALUE = re.compile(
    r"(?:\s+[^\s:=.,;!?]+){0,5}?\s*(?:\bis\b|\bwas\b|:|=|→|—|–)\s*[\"'“«]?([^\W_][\w'’-]{3,40})"
)
# Names that are ordinary words too ("safe to share"): only digits can be their value.
# (a safe's name in other languages: "caja fuerte", "сейф", "保险柜")
_DIGITS_ONLY = frozenset(
    word_list("""
    safe|bike lock|door lock|caja fuerte|cassaforte|coffre-fort|coffre fort|cofre|kluis|sejf|сейф|
    保险柜|保險箱
""")
)
_DIGIT_CODE = re.compile(r"[\d\s#*-]+")
_LISTS = frozenset(_LIST_NAMES)
# Words right after a name that make it the name of something else ("password manager").
_NOT_A_VALUE_AFTER = re.compile(
    r"[\s-]*(?:managers?|polic(?:y|ies)|resets?(?![ \t]+(?:it[ \t]+)?to[ \t]+\d)|requirements?|rules?|fields?"
    r"|hash(?:es|ing)?|length"
    r"|strength|expiry|expired|changes?|vault|generator|protected|protection|prompt|reviews?|base"
    r"|blocks?|quality|style|editor|snippets?|smells?|coverage|paths?|page|screen|form|box|input"
    r"|dialog|hints?|update|updates|sharing|leaks?|of conduct|owners?|freeze|splitting|golf|names?|ssid"
    r"|speed|signal|router|coverage|outage|card|adapter|settings|calls?|sha\d*|md5)\b"
)
# A token: a quoted string, a run of a script written without spaces, or a run of anything else.
# (without the corner brackets 「」『』, U+300C-300F, which quote a value inside a run of Japanese)
_NO_SPACE_UNQUOTED = (
    "\u0e00-\u0e7f\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\uff00-\uffef\u3000-\u300b\u3010-\u303f"
)
_NO_SPACE_SCRIPTS = _NO_SPACE_UNQUOTED + "\u300c-\u300f"
_TOKEN = re.compile(
    rf"\"[^\"\n]{{1,80}}\"|'[^'\n]{{1,80}}'|`[^`\n]{{1,80}}`|«[^»\n]{{1,80}}»|“[^”\n]{{1,80}}”"
    rf"|「[^」\n]{{1,80}}」|『[^』\n]{{1,80}}』|„[^“”\n]{{1,80}}[“”]"
    rf"|[{_NO_SPACE_UNQUOTED}]+|[^\s{_NO_SPACE_SCRIPTS}]+"
)
_NO_SPACE_RUN = re.compile(rf"[{_NO_SPACE_SCRIPTS}]+")
_CJK_WORD = re.compile("[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")  # (not a full-width colon)
_EDGE = ".,;:!?)]}>(['\"`’‘”“»«」』。，、；：！？=*—–→-"
_STRONG_SYMBOLS = frozenset("!@#$%^&*+=?~")
# A name inside code (`$password`, `user.password`, `get_password(`) names a variable, not a value.
# "=": the name is itself a value ("-field=password", "grant_type=password", "auth=password").
_CODE_BEFORE = frozenset("$@._/=")  # "/": a file ("./password.txt")
_CODE_AFTER = ("_", "(", "}")  # a longer name, a call, the end of a template's variable
_WORDS_BEFORE_VALUE = 8  # plain words read past, at most, between a name and its value
_WORDS_BEFORE_QUOTED = 12  # words before a value quoted after a colon
_QUOTED_AFTER_LABEL = re.compile(r"[^\n\"“«:：]{0,80}[:：][ \t]*[\"“«]")
_WORDS_BEFORE_CODE = 3  # words between a PIN's name and its digits ("PIN-код от карты Сбера 3730")
# The names of codes that are nothing but a code: a PIN, a "code" (not an alarm, a gate or a locker).
_STRONG_CODE = re.compile(
    r"pin|cod|cód|kod|kód|koodi|код|пин|пін|कोड|รหัส|الرقم|الرمز|puk|暗|पिन|رمز|otp|nip|קוד|验证|驗證|認証|確認|인증"
)  # (cod: code, código, codi)
# Words that introduce a name rather than a value.
_NAMING_WORDS = frozenset(
    (
        *("called", "named", "name", "ssid", "llamada", "llamado", "llama", "appelé", "appelée"),
        *("appelle", "heißt", "heisst", "chiama", "chama", "heet", "nazywa", "называется", "kallas"),
        *("heter", "hedder", "jmenuje", "adı", "s'appelle", "s’appelle"),
    )
)
# Values that are something else: dates, times, versions, amounts, sizes, ordinals, placeholders.
# (Names joined by "$", "Outer$Inner$1" or a hash's fields, hold no "$$": "3$pre$$021_" is a password.)
_NOT_A_SECRET = re.compile(
    r"(?i)\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4}|\d{1,2}:\d{2}(?::\d{2})?(?:am|pm)?|v?\d+(?:\.\d+){1,3}[a-z]?"
    r"|0x[0-9a-f]+|[\w.-]+:\d{2,5}|(?:\w+\$){2,}(?!\$)\S*|[a-z]+(?:[_-][a-z]+)+|[0-9a-f]{7,12}|[\w.+-]+@(?:\d{1,3}\.){3}\d{1,3}"
    r"|[$€£¥]?\d[\d,.]*(?:%|€|\$|£|k|m|gb|mb|kb|tb|ms|s|h|min|px|em|rem|x|st|nd|rd|th|kg|km|cm|mm)?"
    r"|<[^>]*>|\$\{?[A-Za-z_][A-Za-z0-9_]*\}?|%\w+%|\{\{.*\}\}|x{3,}|\*{3,}|\.{3,}"
    # a kind of value, not one ("P@ssw0rd-style substitutions"); a path of three names or more
    # ("secret/data/prod/postgres", where `vault kv get -field=password` reads from)
    r"|\S+-(?:style|like|type|esque|looking|based)|[a-z][\w.-]*(?:/[a-z0-9_.-]+){2,}/?"
    # a length ("a 12-character password", "6-digit PIN"); a repository or a path of two words
    # ("pin actions/checkout to its commit", "src/main")
    r"|\d+-(?:characters?|chars?|digits?|letters?|words?|symbols?|bytes?|bits?)|[a-z][a-z_.-]*/[a-z][a-z_.-]*"
    # a repository pinned at a version or a commit ("uses: docker/login-action@v3", "@v4.1.1", "@8e5e7e5")
    r"|[a-z][\w.-]*/[a-z][\w.-]*@(?:v?\d+(?:\.\d+)*|[0-9a-f]{7,40}|main|master)"
    # a moment in ISO 8601, as logs print it ("2026-03-20T22:05:06.452Z", "2026-03-20 22:05:06+01:00")
    r"|\d{4}-\d\d-\d\d[T ]\d\d:\d\d(?::\d\d(?:[.,]\d+)?)?(?:z|[+-]\d\d:?\d\d)?"
    # a keyboard shortcut ("press Ctrl+Shift+P", "Cmd+Opt+I")
    r"|(?:ctrl|control|cmd|command|shift|alt|option|opt|win|super|meta|fn)(?:\+[\w-]+)+"
    # a digest after its algorithm's name ("sha256=...", "pin-sha256=\"...\"", "md5:..."): a hash
    r"|(?:[a-z]+-)?(?:sha-?(?:1|224|256|384|512)|md5|blake2[bs]?|crc32)[=:][\"']?[a-z0-9+/=_-]+[\"']?"
)
# "login status=success", "login ok user=u_610325": the next field of a log line (a lowercase name,
# "=", its value); or of a template ('ssid="${SSID}"', "psk={{ wifi_psk }}")
_FIELD = re.compile(r"[a-z_]+=[a-z_]+|[a-z][a-z_]*=[\w.:-]+|[a-z][a-z_]*=[\"']?(?:\$\{|\{\{)\S*")
_YEAR = re.compile(r"(?:19|20)\d\d")
_ISO_DAY = re.compile(r"(?:19|20)\d\d-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])")
# Digits with one or two of a keypad's capital letters (French digicodes have A, B, C), four digits
# at least.
_KEYPAD_CODE = re.compile(r"(?=(?:[A-Z]?\d){4})(?:\d*[A-Z]\d+(?:[A-Z]\d*)?|\d+[A-Z])")
_DIGIT_GROUPS = re.compile(r"\d{1,4}(?:-\d{1,4}){1,3}|\d{2,4}(?:\.\d{2,4}){1,2}")  # "0415-1584", "24-7-31"
_WINDOWS_PATH = re.compile(r"[A-Za-z]:[\\/]")
_CONSTANT = re.compile(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+")  # PASSWORD_DEFAULT: a name in code
_CODE_CHARS = frozenset("()[]{}<>/\\")
_EMAIL = re.compile(r"[^@\s]+@[^@\s]+\.[a-z]{2,}", re.IGNORECASE)
_SYMBOLS = frozenset("!@#$%^&*+=?~_.-/\\|:;,'\"`()[]{}<>")

_NUMBER_WORDS = frozenset(
    word_list("""
    zero|oh|one|two|three|four|five|six|seven|eight|nine|
    cero|uno|una|dos|tres|cuatro|cinco|seis|siete|ocho|nueve|
    zéro|un|une|deux|trois|quatre|cinq|sept|huit|neuf|
    null|eins|zwei|drei|vier|fünf|sechs|sieben|acht|neun|
    due|tre|quattro|cinque|sei|sette|otto|nove|um|uma|dois|duas|três|quatro|sete|oito|
    alfa|alpha|bravo|charlie|delta|echo|foxtrot|golf|hotel|india|juliett|juliet|kilo|lima|mike|
    november|oscar|papa|quebec|romeo|sierra|tango|uniform|victor|whiskey|xray|x-ray|yankee|zulu|
    nul|een|twee|drie|vijf|zes|zeven|negen|noll|ett|två|fyra|fem|sju|åtta|nio|
    seks|syv|otte|åtte|
    jeden|dwa|trzy|cztery|pięć|sześć|siedem|osiem|dziewięć|
    sıfır|bir|iki|üç|dört|beş|altı|yedi|sekiz|dokuz|
    ноль|нуль|один|два|три|четыре|пять|шесть|семь|восемь|девять|
    чотири|п'ять|п’ять|шість|сім|вісім|дев'ять|дев’ять|
    niner|capital|lowercase|uppercase|small
""")
)
# Words that say a character when a password is read out: case, symbols (English, German, Spanish,
# French). With the number words and single letters they make a spoken value ("capital z e p h
# three two four dollar sign").
_SPOKEN = _NUMBER_WORDS | frozenset(
    word_list("""
    big|upper|lower|case|großes|großer|kleines|mayúscula|minúscula|majuscule|minuscule|
    dollar|sign|at|underscore|hash|hashtag|pound|dash|hyphen|dot|period|exclamation|question|mark|star|
    asterisk|percent|ampersand|plus|equals|slash|unterstrich|punkt|bindestrich|ausrufezeichen|
    almohadilla|guion|guión|bajo|arroba|punto|signo|tiret|arobase|dièse|point
""")
)
# The words that say a symbol (a run of spelled characters goes on through them).
_SYMBOL_WORDS = frozenset(
    word_list("dollar|sign|underscore|hash|dash|hyphen|exclamation|question|mark|asterisk|ampersand|percent")
)
# Number words that are also a language's article: a spoken run whose only numbers are these is a
# password's rule ("una mayúscula y un número"), not a value read out.
_ARTICLES = frozenset(word_list("un|una|une|um|uma|een|ett|bir"))
_SPELLED = re.compile(  # words ("п'ять", the NATO alphabet's "x-ray"), or one digit said alone
    r"(?i:x-ray)|[^\W\d_]+(?:['’][^\W\d_]+)?|\d(?!\d)"
)
_SPACED_OUT = re.compile(r"(?<!\S)(?:\S[ \-]){7,}\S(?=[\s,.;:!?]|$)")
# The same with a dot between every character ("r.o.c.k.y.1.9.9.9.+"), and perhaps a full stop after;
# looked for where four dotted characters are (a pattern that starts with "." is scanned for in C).
_DOTTED_OUT = re.compile(r"(?<!\S)(?:[^\s.]\.){7,}[^\s.](?=\.?(?:\s|$))")
_DOTTED_CHARS = re.compile(r"\.[^\s.]\.[^\s.]\.[^\s.]\.")
# Product and recovery keys: five or more dashed groups of four to six capitals and digits
# ("I2SC-FC6B-6LJ4-KTHP-1B3P-JON9-AAYP", "VK7JG-NPHTM-C97JM-9MPGT-3V66T").
# (Both written to start with a capital or a digit, which `re` skips to in C, and to look behind only
# there: a look-behind first is tried at every position.)
_PRODUCT_KEY = re.compile(r"[A-Z0-9](?<![\w-][A-Z0-9])[A-Z0-9]{3,5}(?:-[A-Z0-9]{4,6}){4,}(?![\w-])")
# Three or four such groups where a licence or a product key is named just before ("license key for
# the plugin: C7DS-IC2D-PZXH-QEQ2", "Lizenzschlüssel: 3UTNQ-4JF2F-..."; 2026-12-06): alone, that
# shape is an order's or a part's number as often.
_SHORT_PRODUCT_KEY = re.compile(r"[A-Z0-9](?<![\w-][A-Z0-9])[A-Z0-9]{3,5}(?:-[A-Z0-9]{4,6}){2,3}(?![\w-])")
_LICENCE_CUES = re.compile(
    r"(?:licen[cs]|lizenz|licencia|licença|licenza|licentie|лиценз|ライセンス|라이선스)\w*[ \t-]*"
    r"(?:key|code|schlüssel|sleutel|ключ|キー|키)"
    r"|(?:clave|chave|clé|codice|klucz|key|code)[ \t]+(?:de |di |d'|of |for |the )*licen"
    r"|product[ -]?key|activation (?:key|code)|registration (?:key|code)|serial (?:key|code)|cd[ -]key|"
    r"clé d'activation|clave de producto|produktschlüssel|aktivierungs|序列号|激活码|授权码|许可证密钥"
)
_LICENCE_CUE_REACH = 80
_LICENCE_STEMS = Substrings(
    word_list("""
    licen|lizenz|лиценз|ライセンス|라이선스|product|activation|registration|serial|cd key|cd-key|
    clé d'activation|clave de producto|produktschlüssel|aktivierungs|序列号|激活码|授权码|许可证
    """)
)
# A licence block between BEGIN and END LICENSE lines (Sublime Text's and others': the holder, the
# seats, then lines of hex groups): the lines from the first that holds a digit are the licence.
_LICENCE_BLOCK = re.compile(
    r"-{3,} ?BEGIN LICENSE ?-{3,}[ \t]*\r?\n(.{0,4000}?)\r?\n[ \t]*-{3,} ?END LICENSE", re.S
)
_DIGIT_LINE = re.compile(r"^[^\n]*\d", re.M)


def _licence_blocks(text: str) -> Iterator[Span]:
    for m in _LICENCE_BLOCK.finditer(text):
        first = _DIGIT_LINE.search(text, m.start(1), m.end(1))
        if first is not None:
            yield first.start(), m.end(1), "licence_key", P_STRUCT


# GitHub's recovery codes: five hex digits, a dash, five more; a list of them is the secret.
_HEX_CODE_PAIR = re.compile(r"(?<![\w-])[0-9a-f]{5}-[0-9a-f]{5}(?![\w-])")
# What every match of _PRODUCT_KEY and of _HEX_CODE_PAIR holds, written to start with the dash,
# which `re` skips to in C: the whole patterns try their look-behind at every capital, digit or
# position (4-6 µs on a technical message), these a fifth of that, and most messages hold neither.
_PRODUCT_KEY_TAIL = re.compile(r"-[A-Z0-9]{4,6}-[A-Z0-9]{4,6}-[A-Z0-9]{4,6}-[A-Z0-9]{4,6}")
_HEX_CODE_TAIL = re.compile(r"-[0-9a-f]{5}(?![\w-])")
# "Tr0ub4dor&3 is my password": the value before the name.
_KEY_OF_VALUE = re.compile(r"\s*[:=]")  # after a quoted key: "password": "..."
_JSON_VALUE = re.compile(r"[\"']\s*:\s*[\"']([^\"'\n]{1,128})[\"']")  # a quoted key's quoted value
_CLOSING_QUOTE = re.compile(r"\"|'(?![a-z])")  # not the apostrophe of "password's"
_VALUE_FIRST_NAMES = frozenset(
    (
        *("password", "passcode", "passphrase", "pin", "pin code", "code"),
        # the same said in other languages ("Kiefer_7731Q war mein Passwort", "... était mon mot de passe")
        *("passwort", "kennwort", "wachtwoord", "mot de passe", "contraseña", "senha", "hasło", "haslo"),
        *("lösenord", "passord", "salasana", "parola", "heslo", "пароль"),
    )
)
# The name ends its clause ("That's the password." / "... das Passwort vom Router"), unlike "that's
# the password problem solved".
_INTERJECTIONS = frozenset(
    word_list("""
    thanks|thank|great|okay|sure|cool|perfect|right|done|exactly|correct|wrong|true|nope|yeah|yes|
    oops|sorry|alright|fine|good|nice|awesome|well|hmm|wait|also|then|anyway|ugh|damn|finally|again
    """)
)
_CLAUSE_ENDS = re.compile(
    r"\s*(?:[.,!;:)\n—–-]|$|(?:for|from|of|to|on|at|vom|von|für|del|de|du|der|des|da|di|do)\b)", re.IGNORECASE
)
_THATS_HINTS = ("that", "this is", "das ist", "esa es", "ese es", "c'est", "questa", "это")
_VALUE_THEN_THATS = re.compile(
    r"(?:^|(?<=[\s\"'“«]))([^\s.,;:!?]{4,64})[\"'”»]?\s*[.!,]?\s*[-—–]?\s*"
    r"(?:that's|that is|thats|this is|das ist|esa es|ese es|c'est|questa è|это)\b"
    r"(?:\s+\w+){0,2}?\s+(?:the|my|our|das|la|le|el|il|o|a|мой)?\s*(?:\w+\s+)?$",
    re.IGNORECASE,
)
_VALUE_FIRST = re.compile(  # searched just before one of those names, up to it
    r"(?<![^\s\"'“«(])(\S{6,64})\s+(?:is|was|=|as|ist|war|est|était|es|era|fue|é|foi|è|är|var|er|jest|było|был)\s+"
    r"(?:my|the|our|his|her|their|your|mein|meine|unser|das|mon|ma|notre|le|la|mi|el|meu|minha|o|a|"
    r"il mio|la mia|mijn|het|mitt|min|moje|mój|мой)\s+(?:new\s+|current\s+|old\s+)?"
    r"(?:\w+\s+){0,3}?$",
    re.IGNORECASE,
)
# A value asked about before its name: "Is kettle.mossy.lagoon47 a good password?", "would Fjord!22
# make a strong enough PIN", "could 7Hq-lumen-22 be a safe passphrase" (a password manager, a hash
# or a length after the name is not a value's: those names are skipped first).
_VALUE_ASKED = re.compile(
    r"(?<![^\s\"'“«(])(?:is|would|will|does|could)\s+(\S{6,64})\s+(?:be\s+|make\s+)?(?:a|an)\s+(?:\w+\s+){0,3}?$",
    re.IGNORECASE,
)
# What each of them holds between spaces, looked for first in the window (a cheap scan from each
# space, where theirs tries a value's run at every position): its link, or the article.
_VALUE_FIRST_LINK = re.compile(
    r"\s(?:is|was|=|as|ist|war|est|était|es|era|fue|é|foi|è|är|var|er|jest|było|был)\s", re.IGNORECASE
)
_VALUE_ASKED_ARTICLE = re.compile(r"\s(?:a|an)\s", re.IGNORECASE)
# Digits and ASCII symbols as spaces, applied to UTF-8 bytes (one C call; every byte of a multi-byte
# character is >= 0x80 and stays as it is).
_NOT_LETTERS_CHARS = b"0123456789.,;:!?()[]{}<>\"'`/\\|@#$%^&*+=~_-"
_NOT_LETTERS = bytes.maketrans(_NOT_LETTERS_CHARS, b" " * len(_NOT_LETTERS_CHARS))


def _substrings(words: list[str]) -> ahocorasick.Automaton:
    """An automaton finding any of ``words`` inside a text, in one C pass."""
    automaton = ahocorasick.Automaton()
    for word in words:
        automaton.add_word(word, len(word))
    automaton.make_automaton()
    return automaton


def _first_of(automaton: ahocorasick.Automaton, lower: str) -> int:
    """Where the first of the automaton's words found in ``lower`` starts, or -1."""
    for end, length in matches(automaton, lower):
        return end - length + 1
    return -1


@functools.cache
def _seed_words() -> frozenset[str]:
    """Every BIP-39 word list the ``mnemonic`` package carries (English, Spanish, French, Italian,
    Portuguese, Czech, Japanese, Korean, Chinese ...): a wallet's words may be in any of them."""
    from mnemonic import Mnemonic

    words: set[str] = set()
    for language in Mnemonic.list_languages():
        for word in Mnemonic(language).wordlist:  # (Japanese is stored decomposed: NFD)
            words.update((word.lower(), unicodedata.normalize("NFC", word.lower())))
    return frozenset(words)


def _kinds(value: str) -> int:
    """How many of lower case, upper case, digits and symbols ``value`` holds (set operations for
    ASCII, which is almost every value; a character test per character otherwise)."""
    chars = set(value)
    if value.isascii():
        return (
            (not chars.isdisjoint(_ASCII_LOWER))
            + (not chars.isdisjoint(_ASCII_UPPER))
            + (not chars.isdisjoint(_ASCII_DIGITS))
            + (not chars <= _ASCII_ALNUM)
        )
    return (
        any(c.islower() for c in chars)
        + any(c.isupper() for c in chars)
        + any(c.isdigit() for c in chars)
        + any(c in _SYMBOLS or not c.isalnum() for c in chars)
    )


_ASCII_LOWER = frozenset(string.ascii_lowercase)
_ASCII_UPPER = frozenset(string.ascii_uppercase)
_ASCII_DIGITS = frozenset(string.digits)
_ASCII_ALNUM = _ASCII_LOWER | _ASCII_UPPER | _ASCII_DIGITS


# An abbreviation inflected after a colon, as Swedish and Finnish write it: "wifi:t", "SMS:ää".
_COLON_INFLECTED = re.compile(r"[^\W\d_]+:[^\W\d_]{1,3}")


def _is_plain_word(token: str) -> bool:
    """A word of any language (no digits, no symbols but an inner hyphen or apostrophe; combining
    marks, as in Thai or Devanagari, belong to words)."""
    core = token.strip(_EDGE)
    if core.isalpha():
        return True  # most words: one C call
    if _COLON_INFLECTED.fullmatch(core):
        return True  # "Lösenordet till wifi:t är ...": a word, not the value
    return bool(core) and all(c.isalpha() or c in "-'’" or unicodedata.category(c)[0] == "M" for c in core)


def _random_letters(value: str) -> bool:
    """Letters alone that no language writes: "MntEFTlQGCEInFa" (a generated password)."""
    return (
        len(value) >= 12
        and value.isascii()
        and value.isalpha()
        and sum(c.isupper() for c in value) >= 3
        and sum(c.islower() for c in value) >= 3
        and looks_random(value, 12)
    )


# A generated password may start with "%" ("%h@OBTBQLeHv@NxzoZ!f"): one "%", no brackets, no
# percent-encoded byte after it, eight characters or more.
_PERCENT_START = re.compile(r"%(?![0-9A-Fa-f]{2})[^%()\s]{7,}")
# A variable or a command's output in a shell, or an amount ("$5.99"), where a value starts with "$".
# (An amount is digits alone, "$5.99", "$1,200k": "$3quoi@k3str3l15" is a password with a "$".)
_SHELL_VARIABLE = re.compile(r"\$(?:\{[^}]*\}?|\([^)]*\)?|[A-Za-z_][A-Za-z0-9_]*|\d[\d.,]*(?:[kKmMbB]n?|%)?)")
# A word with a capital and two digits or more after a "$" or an "@" ("$Harbor150", "@Fluffy468"): a
# password that a site's rule made start with a symbol, where a link word or a login's pair states it;
# a variable, an amount or a handle is written otherwise.
_SYMBOL_FIRST_PASSWORD = re.compile(r"[$@][A-Z][a-z]{2,}\d{2,}[!?.#]?")
# A router's Wi-Fi key as printed on its label, and a WEP key: 10 or 26 hex digits in capitals,
# letters and digits both (a short commit hash is lowercase, as git prints it).
_HEX_WIFI_KEY = re.compile(r"(?=(?:\d*[A-F]){2})(?=(?:[A-F]*\d){2})(?:[0-9A-F]{10}|[0-9A-F]{26})")


def _secret_value(
    value: str, *, quoted: bool, code: bool, linked: bool, next_to: bool = False, near: bool = False
) -> bool:
    """Whether ``value``, found where a name's value goes, is the secret. ``linked``: right after
    the name or after a link word; a value that only follows other words must look random.
    ``next_to``: the very next token after the name ("şifresi 7391"). ``near``: a few words after
    a PIN's or a code's name ("PIN do karty 6130", "код от домофона 3417")."""
    if linked and _SYMBOL_FIRST_PASSWORD.fullmatch(value):
        return True  # "wachtwoord ... is $Harbor150"
    if len(value) < 4 or _EMAIL.fullmatch(value) or "://" in value or value[0] in "/~@{<":
        return False
    if value[0] == "%" and not _PERCENT_START.fullmatch(value):
        return False  # "%s", "%(password)s", "%APPDATA%", "%40...": a format, a variable, an encoding
    if value[0] == "$" and _SHELL_VARIABLE.fullmatch(value):
        return False  # "$DB_PASS", "${PASSWORD}"; but "$ayçiçeği1996" is "ayçiçeği" with a dollar
    if is_placeholder(value) or (len(value) >= 16 and _base64_of_prose(value)):
        return False  # (also base64 of a sentence: "codificado: SG9sYSwg...", a field encoded)
    if "\\" in value or _WINDOWS_PATH.match(value) or "@sha256:" in value:
        return False  # (a path; a container image pinned to its digest)
    if code and value[-1] in "#*" and value[:-1].isdigit():
        value = value[:-1]  # "8316#": a keypad's enter key
    if value.isdigit() and (not quoted or code):
        attached = next_to or linked or (near and len(value) <= 8)
        if attached and len(value) >= 4 and not _YEAR.fullmatch(value):
            return True  # "PIN 4821", "kapı şifresi 7391", "密碼是5803", "a senha ... é 9374"
        return len(value) >= (6 if code else 8)
    if code and _DIGIT_GROUPS.fullmatch(value) and sum(c.isdigit() for c in value) >= 4:
        # "0415-1584", "36-24-36", "24-7-31": a code in groups; not a day in ISO form ("alarms at
        # 6am until 2026-02-08": the write path writes the day a passing state ends so)
        return _ISO_DAY.fullmatch(value) is None
    if code and linked and _KEYPAD_CODE.fullmatch(value):
        return True  # "digicode : 0363B945": a keypad's letter among digits (a short hash is lowercase)
    if not code and _HEX_WIFI_KEY.fullmatch(value):
        return True  # "guest wifi B279838F37", "password \"0DA31AA90F\""
    if not code and linked and joined_word_passphrase(value):
        return True  # "senha amber-otter-violin": a generator's words, not a kebab-case name
    if _NOT_A_SECRET.fullmatch(value) or _CONSTANT.fullmatch(value) or _FIELD.fullmatch(value):
        return False
    if _kinds(value) == 4 and len(value) >= 8 and _CODE_CHARS.isdisjoint(value):
        return True  # lower and upper case, digits and symbols: nothing but a password looks so
    if not quoted and ("<" in value or ">" in value):
        return False  # a version bound ("pin numpy<2"), markup or an arrow
    if code and linked and value.isalnum() and sum(c.isdigit() for c in value) >= 3:
        return True  # "c'est 47B19": a door code of digits and a letter
    if _random_letters(value):
        return True
    if not plausible_password(value, quoted, ""):
        return False  # code, a placeholder or a word of prose
    if quoted and " " in value.strip():
        return linked and _quoted_passphrase(value)  # "must be at least 8 characters": a rule
    if quoted:
        return (linked and not value.isalpha()) or (linked and len(value) >= 8)
    if value.isalpha():  # a word, unless long (a passphrase run together)
        return linked and len(value) >= 16
    if linked:
        return len(value) >= 6 and _kinds(value) >= 2
    # (unlinked, with a digit: "reset a FRITZ!Box" is a product's name, which no digit is in)
    return (
        len(value) >= 8 and _kinds(value) >= 3 and not _STRONG_SYMBOLS.isdisjoint(value) and _has_digit(value)
    )


def _has_digit(value: str) -> bool:
    return any(c.isdigit() for c in value)


def _value_after(
    text: str, pos: int, *, code: bool, weak: bool = False, strong_code: bool = False
) -> tuple[int, int] | None:
    """The value of a name that ends at ``pos``: the first token after it that is not a plain word.
    After a weak name only ":" or "=" links it to its value. After a PIN's or a code's name
    (``strong_code``), digits a few words on are its value."""
    words, linked, previous, keyed = 0, not weak, "", False
    stop = min(len(text), pos + 160)
    lines = "\n" in text  # (one line: no question answered below, no item of a list after)
    question = _ANSWERED.search(text, pos, stop) if lines else None
    answered = question.end() if question else stop + 1
    aside = _ASIDE.match(text, pos)
    current = _CURRENT_ASIDE.match(text, pos) if aside is not None else None
    if current is not None:
        pos = current.end()  # "the admin password (currently X)": the aside holds the value
    elif aside is not None:
        pos = aside.end()  # "passphrase (keep offline!): ...", "(BIP39 25th word) to ..."
    inert_before = False  # the token before was an inert word, and left the value unlinked
    aside_end = 0  # the end of a "by the way" after the link
    profiles = _TOKEN_PROFILES
    for token in _TOKEN.finditer(text, pos, stop):
        if token.start() < aside_end:
            continue  # (its words link nothing and end no link)
        raw = token.group()
        # (what a token's own characters say, worked out once per token and kept: see _TokenProfile)
        profile = profiles.get(raw) or _token_profile(raw)
        if inert_before and profile.inert and token.start() < answered:
            # What the steps below make of an inert word after another: one more word, still
            # unlinked (nothing before it ends in a link or a colon, see _inert_word), no value.
            if words and lines and _next_item(text[pos : token.start()]):
                return None  # (as below)
            words, previous, keyed = words + 1, profile.inert_word, False
            if words > _WORDS_BEFORE_VALUE:
                return None
            continue
        inert_before = False
        if "[REDACTED:" in raw:
            return None  # its value is taken out already
        begins = token.start()
        raw_profile = profile
        if raw[0] in ":=" and raw[1:2] in ('"', "'", "`"):  # psk="...": the link joined to its value
            raw, begins, linked = raw[1:], begins + 1, True
            raw_profile = profiles.get(raw) or _token_profile(raw)
        if raw[0] in "\"'`«“「『„" and len(raw) >= 3:  # quoted: the value, whatever it holds
            start, end = begins + 1, token.end() - 1
            value = text[start:end]
            if _label_with_its_name(value) or _UI_ACTION_BEFORE.search(text, max(0, begins - 24), begins):
                return None  # (also a button clicked: 'Klicken Sie auf „Zurücksetzen“')
            if weak and _ROUTER_NETWORK.fullmatch(value):
                return None  # 'the wifi here is "ZTE-MF79-4C2A"': a router's own network name
            found = _secret_value(value, quoted=True, code=code, linked=linked)
            return (start, end) if found else None
        aside = (
            _ASIDE_THEN_LINK.match(text, token.start()) if words and not linked and raw[0] == "(" else None
        )
        if aside and not _secret_value(aside.group(1), quoted=True, code=code, linked=False):
            aside_end = aside.end(1) + 1  # "for the deploy key (id_ed25519_ci) is ...": what names it
            linked = text.startswith((":", "：", "="), aside_end)  # "(LUKS): ...": its colon links
            continue
        if raw.startswith("--") and raw[2:3].isalpha():
            return None  # a command's next flag ("db-creds --from-file=./password.txt")
        if words and lines and _next_item(text[pos : token.start()]):
            return None  # words after the name, then a new line: another item of a list
        if token.start() >= answered:
            linked = True  # "what's the wifi?\nsunflowerfield2020": the answer on the next line
        if raw_profile.masked:
            return None  # "password=******** result=FAIL": the value is shown masked
        if not profile.alnum:
            linked = linked or raw_profile.link
            continue  # punctuation alone (":", "=", "->", "#")
        start, end = token.start() + profile.core_start, token.start() + profile.core_end
        value = profile.value
        if code and words == 0 and profile.error_name:
            return None  # "npm ERR! code ERESOLVE": the code is an error's name, said right after
        if not code and _PHRASE_LINK.fullmatch(text, pos, start):
            phrase = _unquoted_passphrase(text, start)
            if phrase:
                return start, phrase  # "master password is badger maple raven juniper sunflower"
        if not code and linked:
            phrase = _unquoted_passphrase(text, start, _NUMBERED_PHRASE)
            if phrase:
                return start, phrase  # "password was mosaic saffron umber 65 or ...", "c'est hazel ... 44,"
            if words and previous in _LINKS and previous not in _PLACE_LINKS:
                phrase = _unquoted_passphrase(text, start)
                if phrase:
                    # "the passphrase for the backup disk is badger maple raven juniper", "Die
                    # Passphrase für das NAS lautet ...": what it is for, then its verb and the words
                    return start, phrase
        if profile.plain and not (profile.spelled_first and _spelled_run(text, start, spoken=True)):
            by_the_way = _BY_THE_WAY.match(text, start) if linked else None
            if by_the_way is not None:
                aside_end = by_the_way.end()
                continue
            if linked and not code and previous not in _PLACE_LINKS and joined_word_passphrase(value):
                return start, end  # "senha pixel-amber-otter": hyphenated, yet no word of a language
            words += 1
            # In Chinese, Japanese, Korean and Thai the value follows its verb or particle directly
            # ("改成了", "를", "คือ"): a Latin token after such a run is linked to the name.
            no_spaces = profile.no_spaces
            word = profile.word
            keyed = code and word in _KEYED_IN
            linked = (
                keyed  # "keypad: press 0#46...", "alarm: enter 7302"
                or (linked and (word in _ADVERBS or word in _POSSESSIVES_AFTER))  # "is literally '...'"
                or (linked and words <= 2 and (word in _OF_WORDS or previous in _OF_WORDS))
                # Indonesian and Malay close what the password is of with "-nya" ("password akun
                # admin-nya X": "the admin account's password X"), as a possessive after it
                or (not weak and words <= 3 and word.endswith("-nya"))
                or (not weak and (no_spaces or word in _LINKS or raw_profile.lower_link))
                or (weak and word in _WEAK_LINKS)
                or raw_profile.ends_in_link
                or (code and word in _OPENED_WITH and previous in _OPENS)
            )
            previous = word
            if words > _WORDS_BEFORE_VALUE and not (
                # (a few more words that describe the value, then it quoted after a colon: "is four
                # words, lowercase, with spaces: \"...\"")
                words <= _WORDS_BEFORE_QUOTED and _QUOTED_AFTER_LABEL.match(text, token.start())
            ):
                return None
            if words <= 3 and word in _NAMING_WORDS:
                return None  # "the wifi network is called Casa_Lopez_5G": a name, not a value
            inert_before = not linked and raw_profile.inert
            continue
        if keyed and not _KEYPAD_KEYS.fullmatch(value):
            linked = False  # "code: press Shift+Alt+F", "type python3 app.py": keys, not a code
        if previous in _IDENTIFIER_WORDS:
            return None  # "the recovery key for Key ID 7A3F09C1": what names the key, not the key
        spelled = _spelled_run(text, start, spoken=True)
        if spelled >= end:  # (one that stops inside the token, "h7t8-t0|ls-36qv", spells nothing)
            return start, spelled
        spaced_end = _spaced_run(text, start, end)
        next_to = words == 0 and not weak
        near = strong_code and words <= _WORDS_BEFORE_CODE
        if code and spaced_end == end and value.isdigit():
            pair = _CODE_SECOND_HALF.match(text, end)
            if linked or next_to or near:
                third = _CODE_SECOND_HALF.match(text, pair.end()) if pair else None
                if third and len(value) == len(pair.group(1)) == len(third.group(1)) == 2:
                    return start, third.end()  # a passcode in pairs: "83 91 02"
                if pair and 5 <= len(value) + len(pair.group(1)) <= 8 and len(value) <= 4:
                    return start, pair.end()  # a one-time code in two halves: "482 913"
            elif pair and words <= _WORDS_BEFORE_CODE and len(value) == len(pair.group(1)) == 4:
                return start, pair.end()  # "lockbox by the gate 5521 0934": two groups of four digits
        candidate = text[start:spaced_end]
        # "für Gaeste_Netz:": what the value is for, as a label
        label = spaced_end == end and previous in _FOR_WORDS and raw.endswith((":", "："))
        if weak and not linked and not label and _NETWORK_NAME.fullmatch(candidate):
            return None  # "El wifi Linksys_9F4k va fatal": the network's name, its key unsaid
        if weak and _ROUTER_NETWORK.fullmatch(candidate):
            return None  # "the wifi here is "ZTE-MF79-4C2A"": a router's own network name, said so
        if weak and _NETWORK_NAME.fullmatch(candidate) and _SLASH_NEXT.match(text, spaced_end):
            return None  # "Wifi: Vodafone_K7Q2 / key": the network, its key after the slash (a pair)
        if previous in _MOVED_TO and candidate.lower() in _PASSWORD_MANAGERS:
            return None  # "moving the passwords to 1Password": where they go, not a value
        if previous in _PLACE_LINKS and (joined_word_passphrase(candidate) or "pass" in candidate.lower()):
            # "stored in keychain_access_group", "it's in 1Password": a place's name, not the value
            linked = False
        if _secret_value(candidate, quoted=False, code=code, linked=linked, next_to=next_to, near=near):
            return start, _last_star(text, start, spaced_end)
        if label and not value.isdigit():
            # "WLAN-Schlüssel für Gaeste_Netz: PQRZ...": the name of what the value is for, as a
            # label; the value follows its colon
            words, linked, previous = words + 1, True, value.lower()
            if words > _WORDS_BEFORE_VALUE:
                return None
            continue
        if spaced_end > end or not value.isdigit():
            return None
        words, linked = words + 1, False  # a number on the way ("lockbox on 1418 Birch St is set to ...")
        if words > _WORDS_BEFORE_VALUE:
            return None
    return None


_ALNUM = re.compile(r"[^\W_]")  # a character that str.isalnum() takes (one search, in C)


@dataclass(frozen=True, slots=True)
class _TokenProfile:
    """What _value_after asks of a token's own characters, whatever stands around it: the same
    tokens come back message after message ("the", "is", "password:"), and each question is a call
    (a regular expression, a loop over its edge characters), so the answers are kept per token."""

    inert: bool  # _inert_word(token)
    inert_word: str  # the word an inert token leaves as the one before the value
    masked: bool  # shown masked: _MASKED_VALUE
    link: bool  # the token, stripped, is a link word or sign (":", "->")
    lower_link: bool  # the token, lowercased, is a link word
    ends_in_link: bool  # the token ends in ":" or "="
    alnum: bool  # its core (see _core) is not empty and holds a letter or a digit
    core_start: int  # its core's start and end in the token
    core_end: int
    value: str  # its core
    error_name: bool  # its core is an error's name: _ERROR_NAME
    plain: bool  # its core is a plain word (_is_plain_word) and no run of random letters
    spelled_first: bool  # its core may open a spelled run (_spelled_start, before the text is read)
    no_spaces: bool  # its core is a run of a script written without spaces
    word: str  # its core, lowercased


_TOKEN_PROFILES: dict[str, _TokenProfile] = {}
_TOKEN_PROFILES_KEPT = 50_000


def _token_profile(raw: str) -> _TokenProfile:
    core_start, core_end = _core(raw, 0, len(raw))
    value = raw[core_start:core_end]
    alnum = core_start < core_end and _ALNUM.search(raw, core_start, core_end) is not None
    low = value.lower().partition("-")[0]
    profile = _TokenProfile(
        inert=_inert_word(raw),
        inert_word=raw.rstrip(".,;!?)").lower(),
        masked=_MASKED_VALUE.fullmatch(raw) is not None,
        link=raw.strip() in _LINKS,
        lower_link=raw.lower() in _LINKS,
        ends_in_link=raw.rstrip().endswith((":", "：", "=")),
        alnum=alnum,
        core_start=core_start,
        core_end=core_end,
        value=value,
        error_name=alnum and _ERROR_NAME.fullmatch(value) is not None,
        plain=alnum and _is_plain_word(value) and not _random_letters(value),
        spelled_first=len(low) == 1 or low in _SPOKEN,
        no_spaces=not value.isascii() and _NO_SPACE_RUN.fullmatch(value) is not None,
        word=value.lower(),
    )
    if len(_TOKEN_PROFILES) >= _TOKEN_PROFILES_KEPT:
        _TOKEN_PROFILES.clear()
    _TOKEN_PROFILES[raw] = profile
    return profile


# After a weak name ("wifi", "network") with no link to a value, a name's shape: letters first, then
# letters and digits joined by "-", "_" or "." and no other symbol ("TP-Link_16A7", "Casa-Lopez_5G"),
# is the network the sentence speaks of ("the wifi Linksys-7C2b keeps dropping", "renamed the guest
# network to ..."); a key said so has a symbol of a password's rule or none ("guest wifi B279838F37").
_NETWORK_NAME = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:[-_.][A-Za-z0-9]+)+")
_SLASH_NEXT = re.compile(r"[ \t]+/[ \t]+\S")


def _label_with_its_name(value: str) -> bool:
    """A quoted label that holds a password's name, in a script without Latin letters: a button's
    or a field's text (「パスワードをリセット」, "Reset password" in Japanese), not a value."""
    if any(c.isascii() and c.isalnum() for c in value):
        return False
    return next(_NAMES.find(value.lower()), None) is not None


# "for" in the languages of the names: "WLAN-Schlüssel für Gaeste_Netz: ...", "password for db_ro: ...".
_FOR_WORDS = frozenset(word_list("for|für|fuer|pour|para|per|voor|för|dla|для|için"))


# Password managers, named where passwords are kept or moved to ("moving all passwords to
# 1Password", "they're in Bitwarden").
_PASSWORD_MANAGERS = frozenset(
    word_list("""
    1password|lastpass|keepass|keepassxc|keepassx|bitwarden|vaultwarden|dashlane|nordpass|enpass|roboform|
    keeper|passbolt|psono|strongbox|icloud keychain|keychain
    """)
)
_MOVED_TO = frozenset(
    word_list("to|into|in|at|on|from|with|via|using|zu|nach|vers|dans|a|en|para|naar|do|w|в|на")
)


# Links that say where a password is rather than what it is ("stored in", "kept at", "saved on"):
# words joined by "-" or "_" after them name a place (a keychain's group, a vault's path).
_PLACE_LINKS = frozenset(word_list("in|at|on|into|auf|en|na|в|на"))


# A lock said to open with its code: "the gate by the side door opens with 7270", "das Tor öffnet
# mit 4471", "la verja se abre con 3390".
_OPENS = frozenset(
    word_list(
        "opens|open|opened|unlocks|unlock|unlocked|disarms|disarm|öffnet|abre|ouvre|apre|opent|öppnas|åbner"
    )
)
_OPENED_WITH = frozenset(word_list("with|using|mit|con|avec|met|med|com"))
# What one does on a keypad, between a code's name and its keys: "gate keypad: press 0#4654#231",
# "alarm: enter 7302 then OFF", "Türcode: tippe 4471#", "digicode : tapez 0363B".
_KEYED_IN = frozenset(
    word_list("""
    press|enter|type|dial|punch|tap|input|drücke|drücken|tippe|tippen|eingeben|wähle|appuyez|appuie|
    tapez|tape|composez|compose|pulsa|presiona|marca|teclea|digite|digita|premi|druk|toets|tryck|
    нажмите|наберите|введите|wpisz|naciśnij
    """)
)
# An inert word, between a name and a value: ASCII letters (a capital first at most, a full stop or a
# comma after perhaps) that no step of _value_after reads
# (not spoken as a character, not a link, an adverb of one, a key press, a naming word or an
# opening's "with"), and not made of the links a passphrase's _PHRASE_LINK allows ("is", "now").
# After one such word nothing before the next token ends in a link, so the next inert word changes
# nothing but the count of words: it is read in a few operations (prose after a password's name,
# "reset your password by clicking the link", is most of what the reader reads).
# A button or a menu item named in quotes after the verb that presses it, in a few languages.
_UI_ACTION_BEFORE = re.compile(
    r"(?i)\b(?:click|clicked|tap|tapped|press|select|choose|klicken sie|klicke|klick|tippen sie|cliquez|"
    r"cliquer|haga clic|haz clic|pulse|pulsa|clicca|klik)"
    r"(?:[ \t]+(?:on|auf|sur|en|su|op|the|den|die|das|le|la|el))*[ \t]*$"
)
_IDENTIFIER_WORDS = frozenset(("id", "identifier"))
_INERT_LETTERS = re.compile(r"[A-Za-z][a-z]+[.,;!?)]*")  # (a capital first at most: no random letters)
_LINK_LETTERS = re.compile(r"(?:is|was|now|to)+")


_NOT_INERT = (
    _SPOKEN | _LINKS | _WEAK_LINKS | _KEYED_IN | _OPENED_WITH | _NAMING_WORDS
    | _ADVERBS | _POSSESSIVES_AFTER | _OF_WORDS | _PLACE_LINKS | _OPENS
)  # fmt: skip


def _inert_word(raw: str) -> bool:
    if _INERT_LETTERS.fullmatch(raw) is None:
        return False
    word = raw.rstrip(".,;!?)").lower()
    return word not in _NOT_INERT and _LINK_LETTERS.fullmatch(word) is None


# What is keyed in on a keypad: four digits or more, "#", "*" and the letters A-D of some keypads.
_KEYPAD_KEYS = re.compile(r"(?=(?:\D*\d){4})[0-9A-D#*]{4,20}")
# A value a log or a form shows masked ("password=********", "PIN: ••••"): nothing to take, and
# the next token is another field, not the value.
_MASKED_VALUE = re.compile(r"[:=]?[\"']?[*•●]{3,}[\"']?[,;.]?")
# An aside in brackets right after a name, before its link and value.
_ASIDE = re.compile(r"[ \t]*\([^()\n]{1,40}\)")
# An aside among the words that say what the value is for, then its verb or a colon ("the passphrase
# for the deploy key (id_ed25519_ops) is ...", "... (the NAS): ...").
_ASIDE_THEN_LINK = re.compile(r"\(([^()\n]{1,40})\)(?=[ \t]*[:：=]|[ \t]+(?:is|was|lautet|ist|est|es|é|è)\b)")
_CURRENT_ASIDE = re.compile(
    r"(?i)[ \t]*\((?:currently|now|still|is|was|aktuell|derzeit|noch|actuellement|encore|actualmente|aún"
    r"|attualmente|ancora|atualmente|ainda|momenteel|nog|obecnie|nadal|сейчас|пока|şu an)[ \t]*[:=]?(?=[ \t])"
)
# ENOENT, ERESOLVE, ERR_SSL_PROTOCOL; npm's E401, E404 (an HTTP status after "E")
_ERROR_NAME = re.compile(r"E[A-Z]{3,}|E[1-5]\d\d|[A-Z]+(?:_[A-Z]+)+")
_PHRASE_WORD = re.compile(r"[^\W_][\w'’!.-]*")
_PHRASE_FILLER = frozenset(word_list("the|a|an|is|be|at|least|must|your|my|to|of|and|or|not|with|in|for|it"))


def _quoted_passphrase(value: str) -> bool:
    """A password of words, quoted after its name ("«синий трактор 12»", "'lantern ostrich velvet
    quarry'"): two to five words with a digit, or three to five words none of them filler ("'must
    be at least 8 characters'" is a rule, not a password)."""
    words = value.split()
    if not 2 <= len(words) <= 5 or len(value) < 8 or not all(_PHRASE_WORD.fullmatch(w) for w in words):
        return False  # ("{{ vault_db_password }}" is a template)
    if any(c.isdigit() for c in value):
        return True
    return len(words) >= 3 and not any(w.lower() in _PHRASE_FILLER for w in words)


# A password of words said without quotes: four to six small words that end the line or the
# sentence, right after the name and a colon or "is", or a few words and a colon ("the diceware
# phrase we picked: ...", "1Password emergency kit says: ..."). Prose says more than nouns in a
# row: a word of grammar, a verb's "-ed" or "-ing", or an adverb's "-ly" makes it a sentence ("the
# password is changed every ninety days").
_PHRASE_LINK = re.compile(
    r"(?:\s*+[^\W\d_][\w'’]*+){0,3}+\s*[:：=]\s*|\s*(?:[:：=]|is|was|now)?\s*(?:[:：=]|is|was|now|to)\s*"
)
_UNQUOTED_PHRASE = re.compile(r"[a-z]{3,12}(?:[ _-][a-z]{3,12}){3,5}(?=[ \t]*(?:$|\n|[.;!(]))")
# The words of grammar prose puts between nouns: the ones after "password is" in prose (rules.py),
# the filler of a quoted rule, spelled numbers, and these.
_NOT_IN_A_PASSPHRASE = (
    PROSE_WORDS
    | _PHRASE_FILLER
    | _NUMBER_WORDS
    | frozenset(
        word_list(
            "about|again|all|any|as|because|every|her|his|how|if|like|our|really|some|than|their|then|"
            "when|where|who|why"
        )
    )
)
# A generator's word list holds the NATO alphabet's words and the numbers' ("gpg passphrase: falcon
# tango lantern velvet"): among other words they are words of the phrase, not letters spelled out
# (a run of those alone is taken as spelled, before this).
_PHRASE_VETO = (_NOT_IN_A_PASSPHRASE - _NUMBER_WORDS) | frozenset(
    ("capital", "lowercase", "uppercase", "small")
)


# Three to five small words and a number (apart or joined to the last word), the way a passphrase
# generator (or a person following its advice) makes one: stated after a name and its link word in
# any language, and ending its clause: at punctuation, an aside, the end, "or"/"and"/"but", or a
# word in another script ("... هي lagoon marmalade nectar 28 ولكن"). The words are checked as above:
# prose has words of grammar.
_NUMBERED_PHRASE = re.compile(
    r"[a-z]{3,12}(?: [a-z]{3,12}){2,4} ?\d{1,4}"
    r"(?=[ \t]*(?:$|\n|[.,;!?()]|[ \t]+[^\x00-\x7f]"
    r"|[ \t]+(?:or|and|but|oder|und|ou|et|o|y|of|en|og|eller)\b))"
)


def _unquoted_passphrase(text: str, start: int, pattern: re.Pattern[str] = _UNQUOTED_PHRASE) -> int:
    """The end of a password of words starting at ``start`` (see ``_UNQUOTED_PHRASE``), or 0."""
    phrase = pattern.match(text, start)
    if phrase is None:
        return 0
    for word in re.split(r"[ _-]", phrase.group()):
        word = word.rstrip(string.digits)
        if word in _PHRASE_VETO or word.endswith(("ed", "ing", "ly")):
            return 0
    return phrase.end()


# A question, then a new line: what follows answers it.
_QUESTION_MARKS = "?？؟"
_ANSWERED = re.compile(rf"[{_QUESTION_MARKS}]\s*\n")


def _next_item(gap: str) -> bool:
    """Whether ``gap`` crosses into a new line that does not answer a label or a question."""
    line_break = gap.rfind("\n")
    return line_break >= 0 and not gap[:line_break].rstrip().endswith((":", "：", *_QUESTION_MARKS))


def _last_star(text: str, start: int, end: int) -> int:
    """A value's last "*", which ``_core`` took for punctuation ("oscar1509*, tolong cek ..."): no
    sentence ends with one; a value wrapped in stars ("**x**", markdown) keeps them outside."""
    if text.startswith("*", end) and not text.startswith("**", end) and not text.endswith("*", 0, start):
        return end + 1
    return end


def _core(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start] in _EDGE:
        if text[start] == "!" and start + 1 < end and text[start + 1].isalnum():
            break  # "!Qw7Rt2Lp9x": a value's first symbol ("!" opens no word of a sentence)
        start += 1
    while end > start and text[end - 1] in _EDGE:
        end -= 1
    return start, end


def _spaced_run(text: str, start: int, end: int) -> int:
    """A value written in short groups ("V g 4 w", "4821 7730 1192"): the end of the whole run."""
    if end - start > 4:
        return end
    pos, groups, pairs = end, 1, None
    for m in re.finditer(r"[ \t]([^\s]{1,4})", text[end:]):
        group = m.group(1)
        if end + m.start() != pos or not group.isascii():
            break
        if _is_plain_word(group) and len(group) > 1:
            # (a word, unless the message says the value is written in pairs: "dp" is one of them)
            pairs = _PAIRS_SAID.search(text.lower()) is not None if pairs is None else pairs
            if not (pairs and len(group) == 2):
                break
        pos, groups = end + m.end(), groups + 1
    return pos if groups >= 4 else end


_PAIRS_SAID = re.compile(
    r"\b(?:in pairs|by pairs|par paires|en pares|por pares|in paaren|paarweise|a coppie|em pares|in paren"
    r"|parami|парами|по парам)\b"
)


def _spelled_start(text: str, start: int, word: str) -> bool:
    low = word.lower().partition("-")[0]  # "trois-deux-huit-zéro" is one token of four words
    return (len(low) == 1 or low in _SPOKEN) and bool(_spelled_run(text, start, spoken=True))


def _spelled_run(text: str, start: int, least: int = 4, *, spoken: bool = False) -> int:
    """The end of a run of at least ``least`` spelled digits from ``start``, else 0. ``spoken``
    (right after a password's name): single letters and the words for case and symbols count too,
    with two digits or symbols at least among them."""
    count, said, numbers, end, pos = 0, 0, 0, 0, start
    for m in _SPELLED.finditer(text, start):
        gap = text[pos : m.start()]
        if count and (len(gap) > 3 or gap.strip(" ,-")):
            break
        word = m.group().lower()
        if word in _NUMBER_WORDS or (spoken and word.isdigit()):
            said += 1
            numbers += word not in _ARTICLES
        elif count and word in _SYMBOL_WORDS:
            pass  # a symbol said inside a run ("... india alpha question mark capital sierra ...")
        elif not (spoken and ((len(word) == 1 and word.isascii()) or word in _SPOKEN)):
            break
        count, end, pos = count + 1, m.end(), m.end()
    return end if count >= least and ((said >= 2 and numbers) or not spoken) else 0


def _object_code_key(lower: str, name_start: int, name: str) -> bool:
    """Whether the name is the key "code" of an object: an error's or a status's code."""
    return (
        name == "code"
        and "{" in lower[:name_start]
        and _OBJECT_KEY_BEFORE.search(lower, max(0, name_start - 8), name_start) is not None
    )


def _named_values(text: str, lower: str) -> Iterator[Span]:
    for name_start, name_end, name in _NAMES.find(lower):
        if (name_start and lower[name_start - 1] in _CODE_BEFORE) or lower.startswith(_CODE_AFTER, name_end):
            continue  # (a variable: "$password", "get_password(", "value={password}" in JSX)
        if _CLOSING_QUOTE.match(lower, name_end) and not _KEY_OF_VALUE.match(lower, name_end + 1):
            continue  # the end of a string literal (type="password", "current-password"), not a key
        if lower.startswith(")", name_end) and _CALL_OPEN.search(lower, max(0, name_start - 40), name_start):
            continue  # "sha256(salt + password)": an argument of a formula, not a value stated
        if _object_code_key(lower, name_start, name):
            continue  # "{ errmsg: 'bad auth', code: 8000 }", {"code":"ResourceNotFound"}: an error's code
        json_value = _JSON_VALUE.match(text, name_end)
        if json_value:  # "pin": "480315"
            value = json_value.group(1)
            if _secret_value(value, quoted=True, code=name in _CODES, linked=True):
                yield json_value.start(1), json_value.end(1), "password", P_PROSE
            continue
        if lower.endswith("[redacted:", 0, name_start):
            continue  # the kind of a placeholder: "[REDACTED:password]"
        if _NOT_A_VALUE_AFTER.match(lower, name_end) or lower.startswith(("==", " =="), name_end):
            continue
        if METER_READING.match(lower, name_end):
            continue  # "new password: score 4/4": a strength meter's reading (zxcvbn's score, bits)
        if name in _CODES and _PUBLIC_CODE_BEFORE.search(lower, max(0, name_start - 16), name_start):
            continue
        if name == "code" and _PUBLIC_CODE_WORD_BEFORE.search(lower, max(0, name_start - 16), name_start):
            continue
        if name in _CODES and _PUBLIC_CODE_AFTER.match(lower, name_end):
            continue  # "codice cliente", "code postal": a customer's or a place's number
        if name in _POSTAL_PIN_NAMES and postal_pin_code(lower):
            continue  # India's PIN code is its postcode: "the PIN code for the area is 560001"
        if name in _LISTS:
            yield from _code_list(text, name_end)
            continue
        if name == "login" and _LOGIN_PLACE.match(lower, name_end):
            continue  # "migrating our login to OAuth2", "login via SSO": where one signs in
        if name in _WEAK and (name_end - name_start != len(name) or _NAME_NEXT.match(lower, name_end)):
            continue  # "passes": a verb; "wifi password ...": the next name speaks for both
        if name in _NETWORK_NAMES and _WHICH_BEFORE.search(lower, max(0, name_start - 16), name_start):
            continue  # "which network should the printer join, "Biuro-5G" or ...": networks' names
        if name in _WEAK and _CJK_WORD.match(lower, name_end):
            continue  # "WiFi名称", "Wi-Fi连上": the network's name, a verb ("WiFi密码" is named by 密码)
        changed = (_CODE_CHANGED_FROM if name in _CODES else _CHANGED_FROM).match(text, name_end)
        if changed is None and _OLD_HINTS.search(lower) and _NEW_HINTS.search(lower):
            changed = _OLD_THEN_NEW.match(text, name_end)  # (both words somewhere: from the shared pass)
        values = list(_changed_values(text, changed, code=name in _CODES)) if changed else []
        if values:  # "changed my pw from RAVEN=bramble5 to FWKN=emcgq588": both go
            yield from values
            continue
        stated = name in _VALUE_FIRST_NAMES or name.endswith((" code", " pin", " password"))
        approval = lower.endswith("auth code", 0, name_end)  # (found by "code" too)
        if stated or name in _PASSWORD_NAME_SET:
            for before in _value_before(text, name_start, name_end, stated):
                if not (approval and _APPROVAL_CODE.fullmatch(text, before[0], before[1])):
                    yield before
        if name in _WORD_VALUE_NAMES:
            word = _WORD_VALUE.match(text, name_end)
            if word is not None and _word_value(text, word):
                yield word.start(1), word.end(1), "password", P_PROSE
                continue
        strong_code = name in _CODES and _STRONG_CODE.search(name) is not None
        weak = (
            name in _WEAK
            and not _USER_GIVEN_BEFORE.search(lower, max(0, name_start - 48), name_start)
            and not _OLD_OR_NEW_BEFORE.search(lower, max(0, name_start - 12), name_start)
        )
        found = _value_after(text, name_end, code=name in _CODES, weak=weak, strong_code=strong_code)
        if (
            found is not None
            and name in _DIGITS_ONLY
            and not _DIGIT_CODE.fullmatch(text[found[0] : found[1]])
        ):
            continue  # "safe to share: age1...": only a code of digits follows such a name
        if found is not None and name == "nip" and count_digits(text[found[0] : found[1]]) > 6:
            continue  # a Polish company's tax number (NIP, ten digits), not a Quebec PIN (NIP)
        if found is not None and approval and _APPROVAL_CODE.fullmatch(text, found[0], found[1]):
            continue  # a card payment's approval code, printed on the receipt (not a login's code)
        if found is not None and name in _CODES and _SPENT_AFTER.match(text, found[1]):
            continue  # "the code was 482913 but it expired": a one-time code that opens nothing now
        if found is not None and name in _CODES and _promotion_code(text, lower, found):
            continue  # "use code VERANO25 at checkout": a shop's discount, printed for everyone
        if found is not None:
            yield found[0], found[1], "password", P_PROSE
            yield from _other_value(text, found[1], code=name in _CODES)


# A code said to have expired right after it: spent ("but it expired", "ist schon abgelaufen",
# "pero ya caducó", "mais il a expiré").
_SPENT_AFTER = re.compile(
    r"(?i)[ \t]*[,;(—–-]?[ \t]*(?:(?:but|and|which|yet|aber|und|pero|y|mais|et|ma|mas|maar|en)[ \t]+)?"
    r"(?:(?:it|this|that|es|er|der|il|lo|le|ele|hij|het)[ \t]+)?"
    r"(?:(?:has|had|is|was|ist|war|hat|ha|a|è|é|foi|already|just|schon|bereits|ya|déjà|già|já|al)[ \t]+){0,3}"
    r"(?:expired|timed[ \t]+out|abgelaufen|verfallen|expir(?:ó|ado|ada)|caduc(?:ó|ado|ada)|expiré|expirée"
    r"|scadut[oa]|expirou|expirad[oa]|verlopen)(?!\w)"
)
# A shop's discount code: capitals, perhaps a number after them ("SPRING30", "WELCOME10"), in a
# message about a purchase's discount; a login's or a door's code is digits, or random characters.
_PROMOTION_CODE = re.compile(r"[A-Z]{3,16}\d{0,3}")
_DISCOUNT_TALK = Substrings(
    word_list("""
    checkout|discount|coupon|promo|voucher|% off|descuento|cupón|cupon|rabatt|gutschein|réduction|
    remise|sconto|desconto|cupom|korting|kortingscode|rabat|indirim|скидк|промокод
    """)
)


def _promotion_code(text: str, lower: str, found: tuple[int, int]) -> bool:
    return _PROMOTION_CODE.fullmatch(text, found[0], found[1]) is not None and _DISCOUNT_TALK.search(lower)


# A second value offered beside the first ("my password is Ember1947. or gullsandhollyberries?",
# "der PIN ist 4471 oder 7144"): the user is unsure which, and both are the secret.
_OR_VALUE = re.compile(
    r"[.,]?[ \t]+(?:or|oder|ou|o|of|eller|lub|или|або|veya|atau)[ \t]+(?:maybe[ \t]+|perhaps[ \t]+)?"
    r"(\S{4,64})"
)


# The value that replaced the first, said after it in the same sentence ("old password X, new
# Y", "das alte war X, das neue ist Y", "старый пароль X, новый Y", "X, now it's Y"): the words for
# "new" and "now", perhaps a password's name or "one" after them, then the value as after a link.
_NEW_VALUE = re.compile(
    r"(?i)[^.!?\n]{0,40}?(?<![^\W\d_])(?:new|now|neue[nrs]?|jetzt|nuev[oa]|ahora|nouveau|nouvelle|"
    r"maintenant|nov[oa]|agora|nuov[oa]|adesso|ora|nieuwe?|nu|nya?|nytt|nowe|nowy|nowa|teraz|"
    r"нов(?:ый|ий|ая|а)|теперь|yeni|şimdi|baru|sekarang|mới|新|现在|現在)(?![^\W\d_])"
    r"(?:[ \t]+(?:one|pw|pwd|pass|password|passwort|пароль|senha|contraseña|mot de passe))?"
)


def _other_value(text: str, end: int, *, code: bool) -> Iterator[Span]:
    m = _OR_VALUE.match(text, end)
    if m is not None:
        yield from _secret_words(text, m, code=code)
    new = _NEW_VALUE.match(text, end)
    if new is not None:
        found = _value_after(text, new.end(), code=code)
        if found is not None:
            yield found[0], found[1], "password", P_PROSE


# "old pw", "new pass", "current pw": a short name said of a login's password.
_OLD_OR_NEW_BEFORE = re.compile(r"\b(?:old|new|current|previous)[ \t]+$")
# A user's name just before a short name ("user it-admin pw ...", "user `admin`, pass `...`"): the
# pair of a login, so "pw" and "pass" name its password there, not a pass of the salt.
_USER_GIVEN_BEFORE = re.compile(r"\b(?:user(?:name)?|login|usr)[ \t]*[:=]?[ \t]*\S+?[,;/|]?[ \t]+$")
# A card payment's approval ("auth") code: six capitals and digits, both (ISO 8583's field 38, which
# every receipt prints); a login's one-time code is digits alone.
_APPROVAL_CODE = re.compile(r"(?=[A-Z0-9]*[A-Z])(?=[A-Z0-9]*\d)[A-Z0-9]{6}")
# "login" before "to", "into", "via", "with", "through", "at", "on": the place or the way one signs in
_LOGIN_PLACE = re.compile(r"\s+(?:to|into|via|with|through|at|on)\b")
# A password changed from one value to another, both said after the name, perhaps past what it is
# the password of ("password di Salesforce da X a Y", "пароль GitLab с X на Y", "密码从X改成了Y",
# "كلمة المرور من X إلى Y"): the words for "from" and "to" of the languages the names are listed in,
# and in Chinese and Japanese, whatever run of their script stands between the two values (改成了,
# 改为, に変更). The construction links both values to the name, whatever their shape.
_FROM_WORDS = "from|von|vom|van|de|da|dal|del|du|desde|с|со|з|із|від|z|ze|od|från|fra|από|من|از|dari|từ"
# (and Italian's, Spanish's and Portuguese's "a", after a name only: alone, "factory reset a FRITZ!Box")
_TO_WORDS = (
    "to|into|auf|zu|in|naar|para|pra|à|al|en|на|в|до|na|do|till|til|σε|إلى|الى|به|ke|jadi|menjadi|thành"
)
_CHANGE_VALUE = rf"([^\s{_NO_SPACE_SCRIPTS}]{{4,64}})"
_CHANGE = (
    rf"(?:[ \t]+(?:{_FROM_WORDS})[ \t]+|[ \t]*[从從由][ \t]*){_CHANGE_VALUE}"
    rf"(?:[ \t]+(?:a|{_TO_WORDS}|→|->|=>)[ \t]+|[ \t]*[{_NO_SPACE_UNQUOTED}]{{1,5}}[ \t]*){_CHANGE_VALUE}"
)
_CHANGED_FROM = re.compile(rf"(?i)(?:[ \t]+[^\s{_NO_SPACE_SCRIPTS}]+){{0,3}}?{_CHANGE}")
# (a code's, right after its name: "the code moved from python3.9 to ..." speaks of a program)
_CODE_CHANGED_FROM = re.compile(rf"(?i){_CHANGE}")
# The old value and the new one, each after its word ("Passwort geändert: alt X, neu Y", "old: X
# new: Y", "ancien X / nouveau Y"), in the languages of _FROM_WORDS's.
_OLD_WORDS = (
    "old|alt|altes|ancien|ancienne|antiguo|antigua|viejo|vieja|antigo|antiga|vecchio|vecchia|oud|oude|"
    "stare|stary|stara|старый|старий|старе|eski|lama"
)
_NEW_WORDS = (
    "new|neu|neues|nouveau|nouvelle|nuevo|nueva|novo|nova|nuovo|nuova|nieuw|nieuwe|"
    "nowe|nowy|nowa|новый|новий|нове|yeni|baru"
)
_OLD_HINTS, _NEW_HINTS = Substrings(_OLD_WORDS.split("|")), Substrings(_NEW_WORDS.split("|"))
_OLD_THEN_NEW = re.compile(
    rf"(?i)(?:[ \t]+[^\s{_NO_SPACE_SCRIPTS}]+){{0,3}}?[ \t]*[:：,;]?[ \t]*(?:{_OLD_WORDS})[ \t]*[:=]?[ \t]+"
    rf"{_CHANGE_VALUE}[ \t]*[,;/]?[ \t]+(?:(?:and|und|et|y|e|en)[ \t]+)?(?:{_NEW_WORDS})[ \t]*[:=]?[ \t]+"
    rf"{_CHANGE_VALUE}"
)
# A program's version ("python3.12", "node-18.2"), which a "from ... to ..." changes as often.
_PROGRAM_VERSION = re.compile(r"[A-Za-z]+[-_]?v?\d+(?:\.\d+)+")


def _changed_values(text: str, m: re.Match[str], *, code: bool) -> Iterator[Span]:
    """The old and the new value of a change; the new one may be words ("z X na gato wolke sol
    jasper61."). The words for "from" and "to" are common ones ("code de l'alarme en ..."), so a
    value without a digit must look random or be a generator's words joined."""
    phrase = 0 if code else _unquoted_passphrase(text, m.start(2), _NUMBERED_PHRASE)
    phrase = phrase or (0 if code else _unquoted_passphrase(text, m.start(2)))
    for start, end, kind, priority in _secret_words(text, m, code=code, groups=(1,) if phrase else (1, 2)):
        if _changed_value(text[start:end], code=code):
            yield start, end, kind, priority
    if phrase:
        yield m.start(2), phrase, "password", P_PROSE


def _changed_value(value: str, *, code: bool) -> bool:
    if _PROGRAM_VERSION.fullmatch(value):
        return False
    return (
        _DIGIT.search(value) is not None
        or joined_word_passphrase(value)
        or _secret_value(value, quoted=False, code=code, linked=False)
    )


def _secret_words(
    text: str, m: re.Match[str], *, code: bool = False, groups: tuple[int, ...] = ()
) -> Iterator[Span]:
    """Each of the match's groups that holds a secret value (its edge punctuation dropped)."""
    for group in groups or range(1, (m.re.groups or 0) + 1):
        start, end = _core(text, m.start(group), m.end(group))
        if _secret_value(text[start:end], quoted=False, code=code, linked=True):
            yield start, _last_star(text, start, end), "password", P_PROSE


# A password sent in pieces that the message says to join ("two chunks ...: BadgerV apor00+ (no space
# when you type it)"): two neighbouring tokens, one space apart, that together look like a password.
_JOIN_CUES = Substrings(
    word_list("""
    chunk|no space|without the space|without a space|without space|halves|two parts|two pieces|join them|
    three parts|in parts|ignore the space|spaces added|
    two lines|2 lines|zwei zeilen|deux lignes|dos líneas|due righe|две строки|行に分かれ|2行|两行|兩行|
    line break|linebreak|zeilenumbruch|saut de ligne|salto de línea|type them together|put them together
    """)
)
_PIECE_LEAST = 3
# Where a message says its value was split over lines (or broken by a line break its app put in, or
# to be typed together), a line break joins two pieces as a space does.
_LINE_CUES = Substrings(
    word_list(
        "lines|zeilen|lignes|líneas|righe|строки|行|line break|linebreak|zeilenumbruch|saut de ligne|together"
    )
)


def _random_lines(text: str, s1: int, e1: int, s2: int, e2: int, joined: str) -> bool:
    """Two whole lines, one below the other, that together look random (letters of both cases and
    digits, no symbol: "密码分两行发：\nq7RxPLmWz\nK2vBnTyaH"), where the message says it split them."""
    return (
        text[e1:s2] == "\n"
        and _whole_line(text, s1, e1)
        and _whole_line(text, s2, e2)
        and _kinds(joined) == 3
        and 12 <= len(joined) <= 40
        and not _not_a_password(joined)
        and joined.isascii()
        and joined.isalnum()
        and looks_random(joined, 12)
    )


def _pieces(text: str) -> Iterator[Span]:
    lines = _LINE_CUES.search(text.lower())
    gaps = (" ", "\n") if lines else (" ",)
    # (a piece alone on its line keeps its edge: "HNDe?" ends in its own "?", not a question's)
    tokens = [
        (m.start(), m.end())
        if lines and _whole_line(text, m.start(), m.end())
        else _core(text, m.start(), m.end())
        for m in _WHITESPACE_TOKEN.finditer(text)
    ]
    for (s1, e1), (s2, e2) in itertools.pairwise(tokens):
        if min(e1 - s1, e2 - s2) < _PIECE_LEAST or text[e1:s2] not in gaps:
            continue
        joined = text[s1:e1] + text[s2:e2]
        if (
            _kinds(joined) == 4
            and 8 <= len(joined) <= 40
            and _password_shaped(joined)
            and not _not_a_password(joined)
        ) or (lines and _random_lines(text, s1, e1, s2, e2, joined)):
            yield s1, e2, "password", P_PROSE


def _whole_line(text: str, start: int, end: int) -> bool:
    return (start == 0 or text[start - 1] == "\n") and (end == len(text) or text[end] == "\n")


# Each piece of a value sent in pieces, named as one ("first half 7rKd9", "part 2: Qm4xZ", "Segunda
# parte: <hex>", "zweiter Teil: ...", "后半部分：..."), on its own line or not: the piece looks like a
# password (three kinds of character) or a key's random part. (2026-12-06: a VPN password sent as
# "first half X" and "second half Y", a line each; 2026-12-07: a CI token's two parts, in Spanish.)
_PIECE_ORDINALS = (
    "first|second|third|last|other|1st|2nd|3rd|final|primera|segunda|tercera|última|ultima|otra|primeira|"
    "terceira|outra|prima|seconda|terza|altra|première|premiere|deuxième|deuxieme|seconde|troisième|"
    "troisieme|dernière|derniere|autre|erste[rns]?|zweite[rns]?|dritte[rns]?|letzte[rns]?|andere[rns]?|"
    "eerste|tweede|derde|laatste|pierwsza|druga|trzecia|ostatnia|första|forsta|andra|tredje|sista|"
    "первая|вторая|третья|последняя"
)
_PIECE_NOUNS = (
    "half|part|piece|chunk|parte|mitad|metade|metà|partie|moitié|moitie|teil|hälfte|haelfte|stück|deel|"
    "helft|część|czesc|połowa|polowa|delen|halvan|часть|половина"
)
# The pieces' nouns are found in the message's shared pass; an ordinal before one, or a number after
# it, names a piece (a regular expression of the ordinals and nouns cost ~40 us a message). Chinese's
# and Japanese's names of a piece hold their ordinal.
_PIECES_NAMED_ALONE = word_list(
    "第一部分|第二部分|第三部分|前半部分|后半部分|後半部分|前半|後半|パート1|パート2|パート3"
)
_PIECE_NAMES = KeywordIndex(word_list(_PIECE_NOUNS) + _PIECES_NAMED_ALONE)
_ORDINAL_BEFORE = re.compile(rf"(?<![^\W\d_])(?:{_PIECE_ORDINALS})\s+$")
_NUMBER_AFTER = re.compile(r"\s+(?:one|two|three|[1-4])(?![^\W\d_])")
_PIECE_VALUE = re.compile(r"\s*(?:(?:is|es|est|ist|è|é|är|jest|это)\s+)?[:=—–：-]?\s*(\S{4,128})")


def _named_pieces(text: str, lower: str) -> Iterator[Span]:
    for start, end, noun in _PIECE_NAMES.find(lower):
        if noun not in _PIECES_NAMED_ALONE:
            number = _NUMBER_AFTER.match(lower, end)
            if number is not None:
                end = number.end()  # "part 2"
            elif _ORDINAL_BEFORE.search(lower, max(0, start - 16), start) is None:
                continue  # a part of something else ("the hard part is ...")
        piece = _PIECE_VALUE.match(text, end)
        if piece is None:
            continue
        value_start, value_end = _core(text, piece.start(1), piece.end(1))
        value = text[value_start:value_end]
        if len(value) >= 4 and not _not_a_password(value) and (_kinds(value) >= 3 or looks_random(value, 10)):
            yield value_start, value_end, "password", P_PROSE


# Two values offered as alternatives, "if X doesn't work try Y": passwords where a login or a
# memory is spoken of, or where they look generated (three kinds of character).
_ALTERNATIVES = re.compile(  # (starts with its literal, which is scanned for in C)
    r"if\s+(\S{6,64})\s+(?:doesn[’']?t|does not|didn[’']?t|did not|won[’']?t|fails|failed|isn[’']?t it)"
    r"(?:\s+work)?\s*[,;:—–-]?\s*(?:then\s+)?(?:try|use)\s+(\S{6,64})"
)
_ALTERNATIVE_CUES = Substrings(
    word_list("pass|pw|login|log in|sign in|account|remember|forgot|unlock|wifi|wi-fi|pin|code|which one")
)


def _alternatives(text: str, lower: str) -> Iterator[Span]:
    for m in _ALTERNATIVES.finditer(lower):
        if m.start() and lower[m.start() - 1].isalnum():
            continue  # "gif", "motif"
        cue = _ALTERNATIVE_CUES.search(lower)
        for start, end, kind, priority in _secret_words(text, m):
            value = text[start:end]
            if _DIGIT.search(value) and not _VERSION_DOT.search(value) and (cue or _kinds(value) >= 3):
                yield start, end, kind, priority


_VERSION_DOT = re.compile(r"\.\d")  # "python3.11", "node-18.2": a program's version


# A password said to have been tried or typed, where the message speaks of a login ("password does
# not meet complexity requirements ... I tried Juniper1975! on the domain", "j'ai tapé Soleil#2024"):
# letters, digits and a symbol a password rule asks for (a program or a version has none of those).
_TRIED = re.compile(
    r"\b(?:i|we)(?:[ \t]+(?:also|then|just|even))?[ \t]+(?:tried|typed|entered|tried using)"
    r"[ \t]+(\S{8,64})|(?:j'ai|j’ai)[ \t]+(?:essayé|tapé|saisi)[ \t]+(\S{8,64})"
    r"|\b(?:probé|intenté|tentei|digitei)(?:[ \t]+con)?[ \t]+(\S{8,64})"
    r"|\bho[ \t]+(?:provato|digitato)[ \t]+(\S{8,64})"
)
_SENTENCE_GOES_ON = re.compile(r"([!?#*$]+)[ \t]+[a-z]")  # (a symbol the sentence does not end on)
_TRIED_HINTS = Substrings(
    word_list("tried|typed|entered|essayé|tapé|saisi|probé|intenté|tentei|digitei|provato|digitato")
)  # (found in the message's shared pass of the keyword automata: free where none is there)


def _tried_values(text: str, lower: str) -> Iterator[Span]:
    for m in _TRIED.finditer(lower):
        group = m.lastindex or 1
        start, end = _core(text, m.start(group), m.end(group))
        goes_on = _SENTENCE_GOES_ON.match(text, end)
        if goes_on is not None:
            end = goes_on.end(1)  # "Juniper1975! on the domain": its "!"
        value = text[start:end]
        if (
            len(value) >= 8
            and _DIGIT.search(value)
            and any(c.isalpha() for c in value)
            and not _STRONG_SYMBOLS.isdisjoint(value)
            and not _VERSION_DOT.search(value)
            and not _not_a_password(value)
        ):
            yield start, end, "password", P_PROSE


# A value something was changed or set to, its name unsaid ("Je l'ai changé en X", "I reset it to X",
# "changed it from X to Y", "set my pw to X"): the verb, a few words, "from" a value perhaps, then
# "to" and the value, which must look like a password (see ``_secret_value``, unlinked): the
# construction says as often "changed it to the staging branch" or "set to v2_final".
_CHANGE_VERBS = KeywordIndex(
    word_list("""
    changed|change|reset|set|switched|updated|rotated|changé|changée|modifié|mis|geändert|gesetzt|
    cambiado|cambiada|cambiato|cambiata|mudei|mudado|alterei|alterado|zmieniłem|zmieniłam|zmieniony|
    сменил|сменила|изменил|изменила|поменял|поменяла|değiştirdim|ganti|diganti|veranderd|gewijzigd|
    ändrade|bytte|改成|改为|改為|换成|換成|変更
"""),
    suffix_letters=0,
)
_CHANGED_TO = re.compile(
    rf"(?i)(?:[ \t]+[^\s{_NO_SPACE_SCRIPTS}]+){{0,2}}?(?:[ \t]+(?:{_FROM_WORDS})[ \t]+{_CHANGE_VALUE})?"
    rf"(?:[ \t]+(?:{_TO_WORDS}|→|->|=>)[ \t]+|(?<=[{_NO_SPACE_UNQUOTED}])[ \t]*){_CHANGE_VALUE}"
)


def _unnamed_changes(text: str, lower: str) -> Iterator[Span]:
    for _, verb_end, _ in _CHANGE_VERBS.find(lower):
        m = _CHANGED_TO.match(text, verb_end)
        if m is None:
            continue
        for group in (1, 2):
            if m.start(group) < 0:
                continue
            start, end = _core(text, m.start(group), m.end(group))
            goes_on = _SENTENCE_GOES_ON.match(text, end)
            end = goes_on.end(1) if goes_on else _last_star(text, start, end)  # "X! ce matin": its "!"
            value = text[start:end]
            if public_shape(value):
                continue  # "switched to Telekom-5C1F22": a router's network name, an object's id
            if not _PROGRAM_VERSION.fullmatch(value) and _secret_value(
                value, quoted=False, code=False, linked=False
            ):
                yield start, end, "password", P_PROSE


# Compound words that name a code: German, Dutch, the Nordic languages and Turkish write a door's
# or a bank's code as one word ("Portkoden är 5127", "BankID-säkerhetskoden", "Türcode",
# "digicode"). Only first halves that make the code a secret are read, so a "Fehlercode",
# "Rabattkod" or "barcode" stays what it is.
_COMPOUND_CODE = re.compile(
    r"\w{0,12}?(?:port(?=k)|dør|dörr|tür|tor|garagen?|tresor|alarm|larm|säkerhets|"
    r"sikkerheds|sikkerhets|sicherheits|bestätigungs|verifierings|bekräftelse|bekreftelse|engångs|sms|"
    r"anmelde|zugangs|eingangs|zutritts|tilgangs|adgangs|toegangs|deur|poort|kluis|beveiligings|"
    r"bevestigings|inlog|lås|kapı|güvenlik|doğrulama|onay|digi|bankid)[^\W\d_]{0,8}?-?"
    r"(?:kod|kode|koden|koder|kodu|koodi|koodin|code|kód|kódot)"
)
_COMPOUND_HINTS = ("kod", "code", "kód")
_COMPOUND_HINT = re.compile("|".join(_COMPOUND_HINTS))
_WORD_AROUND = re.compile(r"[^\W\d_]+")


def _compound_code_names(text: str, lower: str) -> Iterator[Span]:
    """The word around each "kod"/"code" is read whole: a regular expression that tried every
    start of every word for the first halves would cost ~8 µs a message."""
    done = -1
    for hint in _COMPOUND_HINT.finditer(lower):
        start = hint.start()
        while start > 0 and lower[start - 1].isalpha():
            start -= 1
        word = _WORD_AROUND.match(lower, start)
        if word is None or word.end() <= done or not _COMPOUND_CODE.fullmatch(word.group()):
            continue
        done = word.end()
        found = _value_after(text, word.end(), code=True, strong_code=True)
        if found is not None and not _SPENT_AFTER.match(text, found[1]):
            yield found[0], found[1], "password", P_PROSE


def _word_value(text: str, word: re.Match[str]) -> bool:
    """Whether the word after a memorable word's name is its value: a lowercase word only when a
    quote or a colon sets it off ("memorable word: hedgerow", not "is something I picked")."""
    value = word.group(1)
    if value.lower() in _NOT_ANSWERS:
        return False
    before = text[: word.start(1)].rstrip()
    return not value.islower() or before.endswith(('"', "'", "“", "«", ":", "=", "→"))


# One login per line ("- Gmail: Harbor!Lights09", "portão: 1590") under a header that names
# passwords or codes ("Password di tutti gli account:", "Senhas de acesso do escritório:"), or
# beside a line whose own label names one ("bank app PIN: 558203").
_LIST_ITEM = re.compile(
    r"^[ \t]*(?:[-*•]|\d{1,2}[.)])?[ \t]*([^\n:：]{1,40})[:：][ \t]*(\S[^\n]{0,80})$", re.M
)
# The same where the label may end in an aside that holds a colon ("Router admin (http://10.0.0.1):
# ..."), tried first; searched only in a text with a "(" (twice the cost of the other on every line).
_LIST_ITEM_WITH_ASIDE = re.compile(
    r"^[ \t]*(?:[-*•]|\d{1,2}[.)])?[ \t]*([^\n:：(]{1,40}\([^()\n]{1,40}\)[ \t]*|[^\n:：]{1,40})"
    r"[:：][ \t]*(\S[^\n]{0,80})$",
    re.M,
)
_LIST_VALUE = re.compile(r"\S+")
_HTTP_STATUS_LINE = re.compile(r"\s*http/\d(?:\.\d)? \d{3}[^\n]*\n\s*")
_JOINED_WORDS = re.compile(r"[a-z]+(?:_[a-z]+)+\d*")


def _label_names(lower: str, start: int, end: int) -> bool:
    """Whether a list item's label names a password or a code (an object's "code" names an error's)."""
    found = next(_NAMES.find(lower[start:end]), None)
    return found is not None and not _object_code_key(lower, start + found[0], found[2])


def _code_label(label: str) -> bool:
    """A list item's label that is a line of code: a struct's field and its tag (`Token string
    `env:"API_TOKEN"``: a backtick opened, not closed), a block or an assignment."""
    return label.count("`") % 2 == 1 or any(c in label for c in "{}=")


def _credential_list(text: str, lower: str) -> Iterator[Span]:
    pattern = _LIST_ITEM_WITH_ASIDE if "(" in text else _LIST_ITEM
    items = [m for m in pattern.finditer(text) if not _code_label(m.group(1))]
    if len(items) < 2:
        return
    header_named = _header_names_secrets(lower[: items[0].start()])
    jwk = '"kty"' in text
    labels = [_label_names(lower, m.start(1), m.end(1)) for m in items]
    if not header_named and not any(labels):
        return
    for item, label_named in zip(items, labels, strict=True):
        first = _LIST_VALUE.match(text, item.start(2))
        if first is None or (jwk and item.group(1).strip(" \t\"'") in _JWK_PUBLIC_MEMBERS):
            continue
        start, end = _core(text, first.start(), first.end())
        value = text[start:end]
        # Under a header that names passwords or codes, every item is one ("portão: 1590"); in a
        # config that only holds one ("host: db.local", "port: 5432"), the others are settings.
        named = header_named or label_named
        joined = (
            named and len(value) >= 8 and _JOINED_WORDS.fullmatch(value) is not None
        )  # "lungomare_ospiti"
        if value.isdigit() and not named:
            continue
        if start < end and (joined or _secret_value(value, quoted=False, code=named, linked=True)):
            yield start, end, "password", P_PROSE


# A JSON Web Key's members that every key publishes (RFC 7517/7518: its id, type, use, algorithm,
# curve, certificate's thumbprint); its private parts are "d", "p", "q", "dp", "dq", "qi" and "k".
_JWK_PUBLIC_MEMBERS = frozenset(("kid", "kty", "use", "alg", "crv", "key_ops", "x5t", "x5t#S256", "x5u"))


def _header_names_secrets(header: str) -> bool:
    """Whether the text above a list names a password or a code (an HTTP response's status line
    heads its header fields: "502 Bad Gateway" names no gate code)."""
    return not _HTTP_STATUS_LINE.fullmatch(header) and next(_NAMES.find(header), None) is not None


# A list of passwords that gives each after an arrow or a dash ("Gmail → Obsidian5931#", "iCloud -
# ..."), under a header that names them ("mes mots de passe :"): the one token that ends each line
# is its value. (Not "=": a config file's lines, "region = eu-west-1", are settings.)
_ARROW_ITEM = re.compile(
    r"^[ \t]*(?:[-*•]|\d{1,2}[.)])?[ \t]*[^\n:：=→>]{1,40}?[ \t]+(?:→|->|–|—|-)[ \t]+(\S+)[ \t]*$", re.M
)


# The arrow or the dash between spaces that every item holds: looked for first (1.9 µs on 300
# characters), where the items' own pattern tries every line's start with its backtracking (7 µs).
_ARROW_GAP = re.compile(r"[ \t](?:→|->|–|—|-)[ \t]")


def _arrow_list(text: str, lower: str) -> Iterator[Span]:
    if not prefilter.may(prefilter.ARROW_GAP, text) or _ARROW_GAP.search(text) is None:
        return
    items = list(_ARROW_ITEM.finditer(text))
    if len(items) < 2:
        return
    if not _header_names_secrets(lower[: items[0].start()]):
        return
    for item in items:
        start, end = _core(text, item.start(1), item.end(1))
        if start < end and _secret_value(text[start:end], quoted=False, code=False, linked=True):
            yield start, end, "password", P_PROSE


# A chat transcript: each turn after its speaker ("<max>", "[10:03] tom:", "Customer:").
_SPEAKER = re.compile(
    r"(?m)^(?:\[[^\]\n]{1,20}\][ \t]*)?"  # a time stamp
    r"(?:<([^>\n]{1,24})>|([A-Za-z][A-Za-z.'-]{0,20}(?: [A-Z][A-Za-z.'-]{0,20})?):)[ \t]+"  # a nick or a name
)
_ANSWER_WORDS = 3  # plain words before the value in an answer ("it says 70294704")


def _chat_answers(text: str, lower: str) -> Iterator[Span]:
    """A secret asked for in one turn of a chat and given as the whole next turn ("priya: anyone
    have the staging db password?" / "tom: igloo_saffron_wombat6"; "Agent: read out the one-time
    code" / "Customer: it says 70294704"), or the answerer's next after a short aside ("one sec")."""
    turns = list(_SPEAKER.finditer(text)) if prefilter.may(prefilter.SPEAKER, text) else []
    speakers = [m.group(1) or m.group(2) for m in turns]
    if len(set(speakers)) >= len(turns):
        return  # no one speaks twice: the keys of a config file ("host: db", "user: app"), not a chat
    for index, answer in enumerate(turns):
        asked = _request_turn(text, turns, speakers, index)
        if asked is None:
            continue
        request = lower[asked.end() : text.find("\n", asked.end())]
        names = [name for _, _, name in _NAMES.find(request)]
        if not names and not key_talk(request):
            continue
        line_end = text.find("\n", answer.end())
        tokens = list(_TOKEN.finditer(text, answer.end(), len(text) if line_end < 0 else line_end))
        if not 1 <= len(tokens) <= _ANSWER_WORDS + 1:
            continue
        if not all(_is_plain_word(t.group()) for t in tokens[:-1]):
            continue
        start, end = _core(text, tokens[-1].start(), tokens[-1].end())
        code = any(name in _CODES for name in names)
        if text[start:end].isdigit() and not code:
            continue  # digits answer a code's name; after a password's, a port or a count
        if start < end and _secret_value(text[start:end], quoted=False, code=code, linked=True):
            yield start, end, "password", P_PROSE


_ASIDES_BEFORE_ANSWER = 1  # the answerer's own turns before the value ("one sec", "hang on")


def _request_turn(
    text: str, turns: list[re.Match[str]], speakers: list[str], index: int
) -> re.Match[str] | None:
    """The turn that asks what turn ``index`` answers: the last one by another speaker, right
    before it or before the answerer's short asides; each turn on the way is one line."""
    for back in range(index - 1, max(-1, index - 2 - _ASIDES_BEFORE_ANSWER), -1):
        if text.count("\n", turns[back].end(), turns[back + 1].start()) != 1:
            return None
        if speakers[back] != speakers[index]:
            return turns[back]
    return None


def _value_before(text: str, name_start: int, name_end: int, stated: bool = True) -> Iterator[Span]:
    """ "Tr0ub4dor&3 is my password": a value stated before the name; or "Hunter. That's the
    password", "Schneckenhaus77 – das ist übrigens das Passwort": a value, then a clause naming it."""
    window_start = max(0, name_start - 100)
    window = text[window_start:name_start].lower()
    thats = (
        _VALUE_THEN_THATS.search(text, window_start, name_start)
        if any(hint in window for hint in _THATS_HINTS)
        else None
    )
    if thats is not None and _CLAUSE_ENDS.match(text, name_end):
        start, end = _core(text, thats.start(1), thats.end(1))
        value = text[start:end]
        word = value.isalpha() and value[0].isupper() and value.lower() not in _INTERJECTIONS
        if len(value) >= 4 and (word or _secret_value(value, quoted=False, code=False, linked=True)):
            yield start, end, "password", P_PROSE
            return
    m = None
    if stated and _VALUE_FIRST_LINK.search(text, window_start, name_start):
        m = _VALUE_FIRST.search(text, window_start, name_start)
    if stated and m is None and _VALUE_ASKED_ARTICLE.search(text, window_start, name_start):
        m = _VALUE_ASKED.search(text, window_start, name_start)
    if m is None:
        return
    start, end = _core(text, m.start(1), m.end(1))
    if _secret_value(text[start:end], quoted=False, code=False, linked=True):
        yield start, end, "password", P_PROSE


_GROUPED_CODE = re.compile(
    r"(?:\s+[^\s:]{1,20}){0,4}?[\s:=\-–—>]{0,4}((?:[a-z0-9]{4,5})(?: [a-z0-9]{4,5}){5,})(?![\w-])"
)
_WORD_IN_TOKEN = re.compile(r"[A-Za-z]{5}")
_CAPITALS_CODE = re.compile(r"[A-Z0-9]{8,}")
_LIST_JOINS = frozenset(("and", "or", "y", "o", "et", "ou", "und", "oder", "e", "en", "i", "и", "или"))
_LIST_NUMBER = re.compile(r"\d{1,2}[.)]|[-*•]")
_DASHED_GROUPS = re.compile(r"[A-Za-z]{4,6}(?:-[A-Za-z]{4,6}){2,7}")
_UNSPOKEN = re.compile(r"[^aeiouy]{3}|^[^aeiouy]+$")  # three consonants in a row, or no vowel


def _letter_groups_code(value: str) -> bool:
    """A code of random letters in dashed groups of one length ("qknqt-xirsx-usgib"), not words
    joined by dashes ("read-only-mode"): half of its groups at least no language would say."""
    if not _DASHED_GROUPS.fullmatch(value):
        return False
    groups = value.lower().split("-")
    if len({len(g) for g in groups}) != 1:
        return False
    return 2 * sum(_UNSPOKEN.search(g) is not None for g in groups) >= len(groups)


def _code_list(text: str, pos: int) -> Iterator[Span]:
    """Every code of a list ("backup codes: 8tn0t-2ylv9 2xqke-cgc3j"): tokens holding digits; or
    one code written in groups ("recovery code: ymgr 9sl3 bwao hdwq dqzo 2n4d uh2l o3do")."""
    grouped = _GROUPED_CODE.match(text, pos)
    if grouped and sum(c.isdigit() for c in grouped.group(1)) >= 2:
        yield grouped.start(1), grouped.end(1), "recovery_code", P_PROSE
        return
    started, last = False, ""
    lettered: list[tuple[int, int]] = []  # the letters-only tokens just before the first code
    for token in _TOKEN.finditer(text, pos, min(len(text), pos + 400)):
        start, end = _core(text, token.start(), token.end())
        value = text[start:end]
        if _LIST_NUMBER.fullmatch(token.group()) or not any(c.isalnum() for c in value):
            continue  # "1." "2)" numbering a list, "[ ]" a checkbox before each code
        if started and value.lower() in _LIST_JOINS:
            continue  # "x8kq2m7ze4pw and ryt59bd3hq8s"
        digits = sum(c.isdigit() for c in value)
        name_like = digits == 1 and _WORD_IN_TOKEN.search(value) and not _code_line(text, start, value)
        if not started and name_like:
            continue  # "in my 1Password vault": a name with a digit, not a code
        if (
            (digits and len(value) >= 6)
            or digits >= 4
            or _letter_groups_code(value)
            or (started and _same_code_shape(value, last))
        ):
            # "8tn0t-2ylv9", "0433 1938" (each group), "qknqt-xirsx-usgib" (letters in groups)
            if not started:
                yield from _lettered_codes_before(text, lettered, value)
            started, last = True, value
            yield start, end, "recovery_code", P_PROSE
        elif started:
            return
        else:
            lettered.append((start, end))


def _lettered_codes_before(text: str, lettered: list[tuple[int, int]], code: str) -> Iterator[Span]:
    """The codes of a list that come before its first with a digit and hold none ("qzhwmtkb
    rcfplxvd 4nw8ke2q"): the letters-only tokens right before it, in its shape."""
    for start, end in reversed(lettered):
        if not _same_code_shape(text[start:end], code):
            return
        yield start, end, "recovery_code", P_PROSE


def _code_line(text: str, start: int, value: str) -> bool:
    """A code in capitals alone at the start of a line ("HU3KQZWMLP" under "backup codes:")."""
    return text[start - 1 : start] == "\n" and _CAPITALS_CODE.fullmatch(value) is not None


def _same_code_shape(value: str, code: str) -> bool:
    """A code of a list that happens to hold no digit ("brx6mmqf, yhu8z3g3, pcjhbfeb"): letters of
    the case and the length of the code before it, that no language would say; its dashes where
    the code has its own ("n19t-2p0x, jjke-vqnm")."""
    if "-" in value and len(value) == len(code) and _dash_positions(value) == _dash_positions(code):
        value, code = value.replace("-", ""), code.replace("-", "")
    return (
        len(value) == len(code) >= 6
        and value.isalpha()
        and value.isascii()
        and (value.islower() == code.islower())
        # (a word has a vowel in four, and no four consonants in a row: "ioogffxjxf" is no word)
        and (4 * sum(c in "aeiouy" for c in value.lower()) < len(value) or _CONSONANTS.search(value.lower()))
    )


_CONSONANTS = re.compile(r"[^aeiouy]{4}")


def _dash_positions(value: str) -> list[int]:
    return [i for i, c in enumerate(value) if c == "-"]


def _shaped_tokens(text: str, long_tokens: list[re.Match[str]]) -> Iterator[Span]:
    """Tokens that look like a generated or rule-following password, wherever they stand:

    * lower and upper case, a digit and a symbol such as ``!@#$%&*+=?``, or capitalised words
      joined by ``_ . -`` with a number (``Willow.Glacier.5492``), 8-40 characters;
    * letters of both cases and digits only, 12-64 of them, that look random (entropy, few
      pronounceable chunks) and are not base64 of text or right after an identifier's name
      ("playlist 37i9dQZF...", "file id 10MX7IHR...").

    Paths, URLs, e-mail addresses, assignments ("KEY=..."), labels ("X-Hub-Signature-256:") and
    code are not. One pass finds the long tokens (``long_tokens``, the text's ``_LONG_TOKEN``
    matches); only those holding a digit are looked at.
    """
    for token in long_tokens:
        raw = token.group()
        if not _DIGIT.search(raw) or raw.endswith((":", "：")) or _ASSIGNMENT.match(raw):
            continue
        start, end = _core(text, token.start(), token.end())
        if text[end : end + 1] in ("!", "?") and text[end + 1 : end + 2] in (".", ",", ";"):
            end += 1  # "... so Nacho9331!.": the "!" is the password's, the "." the sentence's
        elif text.startswith("!", end) and _DASH_AFTER.match(text, end + 1):
            end += 1  # "It's Nacho9331! — with a capital N": a dash goes on with the sentence
        elif text[end : end + 1] in ("!", "?") and _table_cell(text, start, end + 1):
            end += 1  # "lucia.m<TAB>Otter.77!": a cell of a table ends no sentence
        value = text[start:end]
        kinds = _kinds(value)
        shaped = (
            kinds == 4 and 8 <= len(value) <= 40 and _password_shaped(value) and not _not_a_password(value)
        )
        generated = (
            kinds == 3 and value.isalnum() and 10 <= len(value) <= 64 and _random_secret(text, start, value)
        )
        if shaped or generated:
            yield start, end, "password", P_PROSE
        elif len(value) >= 40 and kinds >= 3 and _random_base64(text, start, value):
            yield start, end, "secret", P_PROSE
        elif _prefixed_key(text, start, value) or _prefixed_plain_key(text, start, value):
            yield start, end, "api_key", P_PROSE


def _table_cell(text: str, start: int, end: int) -> bool:
    """Whether ``start:end`` fills a cell of a tab-separated table: a tab before it, and a tab, the
    line's end or the text's after it."""
    return text[start - 1 : start] == "\t" and (end == len(text) or text[end] in "\t\r\n")


# A dash after a token's "!": the sentence goes on, so the "!" ended the token, not the sentence (a
# "?" before a dash still asks).
_DASH_AFTER = re.compile(r"[ \t]+[—–-][ \t]")


# A vendor's prefix ("rzp_live_", "r8_", "re_", "sl.u.", "sk."), then the random part of a key.
_KEY_PREFIX = re.compile(r"(?:[A-Za-z][a-z0-9]{0,9}[_.-]){1,3}")
_KEY_BODY = re.compile(r"[A-Za-z0-9_-]{16,200}")
# Object ids of payment APIs are a short prefix and 14-27 random characters; keys run longer.
_KEY_BODY_AFTER_SHORT_PREFIX = 28


def _prefixed_key(text: str, start: int, value: str) -> bool:
    """A key that a service prints with its own prefix: after the prefix, 16 or more characters
    of both cases and digits that look random. Publishable keys ("pk_") are public by design."""
    prefix = _KEY_PREFIX.match(value)
    if prefix is None or value.startswith("pk_"):
        return False
    body = value[prefix.end() :]
    separators = value.count("_") + value.count(".") + prefix.group().count("-")
    if len(body) < _KEY_BODY_AFTER_SHORT_PREFIX and separators < 2:
        return False  # "sub_CPVwVtOFoy2n8Dp9x2zYEHlE", "evt_...": a Stripe object's public id
    if not _KEY_BODY.fullmatch(body):
        return False
    letters_and_digits = body.replace("_", "").replace("-", "")
    return _kinds(letters_and_digits) == 3 and _random_secret(text, start, letters_and_digits)


# A vendor's prefix before a body of hex digits, or of capitals and digits: "sk_" and 48 hex
# digits, "squ_" and 40, "NRAK-" and 27 capitals and digits. Ids and digests are written so too
# ("req_...", "sha1-..."), so the prefix must not name one, and the message must speak of a key,
# a token or a credential. The prefix is a vendor's abbreviation (four letters at most, or capitals):
# an id named in words ("session_", "webhook_") is longer.
_SHORT_KEY_PREFIX, _UPPER_KEY_PREFIX, _PLAIN_KEY_BODY = (
    re.compile(r"[A-Za-z][a-z0-9]{0,3}[_.-]"),
    re.compile(r"[A-Z]{2,8}[_-]"),
    re.compile(r"[0-9a-f]{32,128}|[0-9A-F]{32,128}|(?=[A-Z]*\d)(?=\d*[A-Z])[A-Z0-9]{24,64}"),
)
_ID_PREFIX = re.compile(
    r"(?i)(?:^|[_.-])(?:id|ids|req|request|trace|span|run|job|build|commit|sha\d*|md5|hash|tx|txn|uuid|guid|evt"
    r"|event|msg|obj|file|img|image|layer|blob|order|inv|cus|sub|acct|org|user|usr|team|proj|app|cache"
    r"|doc|rev|ver|etag|cid|ref|ticket|case|node|pod|vm|instance|device|dev|test"
    # Stripe's object ids, which webhooks and dashboards show: a payment intent, a charge, a payment,
    # a payment method, a payout, a transfer, an invoice (item, line), a source, a setup intent, a
    # subscription item, a product, a plan, a dispute ("du_"; not "dp": Doppler's tokens start so), a
    # bank account, a card
    r"|pi|ch|py|pm|po|tr|in|ii|il|src|seti|si|prod|plan|du|ba|card)[_.-]$"
)


def _prefixed_plain_key(text: str, start: int, value: str) -> bool:
    prefix = _SHORT_KEY_PREFIX.match(value) or _UPPER_KEY_PREFIX.match(value)
    if prefix is None or _ID_PREFIX.search(prefix.group()) or value.startswith("pk_"):
        return False
    body = value[prefix.end() :]
    if not _PLAIN_KEY_BODY.fullmatch(body) or shannon(body) < 3.0:
        return False
    if _PUBLIC_ID_BEFORE.search(text, max(0, start - 24), start):
        return False  # "commit ...", "request ...": named as an id
    return key_talk(text.lower())


# A random key in base64 with its own symbols: 40+ characters ("...kIwohu09c9XsfzR9iazN8nsW6Mg2bpM7w==").
_BASE64_KEY = re.compile(r"[A-Za-z0-9+/]{38,}={0,2}")
# Public material that is base64 too: certificates, public keys, images, subresource hashes.
_PUBLIC_BASE64 = re.compile(
    r"begin certificate|public[*_ ]{0,4}key|ssh-(?:rsa|ed25519|dss)|ecdsa-sha2|base64,|sha(?:256|384|512)-"
)


def _random_base64(text: str, start: int, value: str) -> bool:
    if not _BASE64_KEY.fullmatch(value) or ("+" not in value and "/" not in value and "=" not in value):
        return False
    if _PUBLIC_BASE64.search(text[max(0, start - 200) : start].lower()) or value.startswith("AAAA"):
        return False
    if _PUBLIC_KEY_NAMED.search(text, max(0, start - _PUBLIC_KEY_REACH), start):
        return False  # "peer: uDuL+dh4...=" in `wg show`: a peer's public key
    return shannon(value) >= 4.5 and not _decodes_to_text(value)


def _decodes_to_text(value: str) -> bool:
    """Base64 of a document (a PDF's header, JSON, lines of text) rather than of random bytes."""
    raw = _b64decode(value)
    if raw is None:
        return False
    printable = sum(32 <= b < 127 or b in (9, 10, 13) for b in raw)
    return bool(raw) and printable >= 0.9 * len(raw)


# "my password, base64-encoded: UGluZWFwcGxl...", "the smtp password hex encoded: 4d61706c65...":
# an encoded value in a message about an encoded password.
_ENCODED = re.compile(r"base64|base-64|hex[- ]?encoded|in hex|as hex|_hex\b|encoded")
_PASSWORDISH = re.compile(r"pass(?!(?:ed|es|ing)\b)|login|credential|secret|pin\b|key|\bpwd?\b")
# "... decode it and you'll see, nothing secret": a message that says its encoded text is no secret
# does not speak of a secret by that word.
_SAID_NOT_SECRET = re.compile(
    r"\b(?:nothing|not(?: a)?|no|isn't|is not|nichts|kein|rien de|pas de|nada|niente|niets)\s+secret\w*"
)
_ENCODED_HINTS = ("hex", "base", "encoded")  # one is in every word _ENCODED finds: tested first, in C

_ENCODED_VALUE = re.compile(r"(?<![\w+/=])(?:[A-Za-z0-9+/]{12,}={0,2}|[0-9a-f]{16,})(?![\w+/=])")


def _speaks_of_encoding(lower: str) -> bool:
    return any(hint in lower for hint in _ENCODED_HINTS) and _ENCODED.search(lower) is not None


def _encoded_passwords(text: str) -> Iterator[Span]:
    for m in _ENCODED_VALUE.finditer(text):
        value = m.group()
        if _base64_of_text(value) or (len(value) % 2 == 0 and _hex_of_text(value)):
            yield m.start(), m.end(), "password", P_PROSE


def _hex_of_text(value: str) -> bool:
    try:
        decoded = bytes.fromhex(value).decode("utf-8")
    except ValueError:
        return False
    return decoded.isprintable()


# Long tokens, split at what separates values in code and tables (quotes, brackets, commas, pipes).
_LONG_TOKEN = re.compile(rf"[^\s,;|()\[\]{{}}\"'`<>\\{_NO_SPACE_SCRIPTS}]{{8,}}")
_DIGIT = re.compile(r"\d")
# NAME=..., name: ..., auth.rootPassword=... (a name of five characters at least, or dotted)
_ASSIGNMENT = re.compile(
    r"[A-Za-z_][\w-]{4,}[=:]|[A-Za-z_][\w-]*\.[\w.-]+[=:]|[a-z_][a-z0-9_]*=|[A-Z_][A-Z0-9_]*="
)
_JOINS = re.compile(r"[_.-]")
# Words joined with a number; or one capitalised word, a number and the underscore a password rule
# asked for ("Harbor2291_": a sentence's last word would not keep one)
_WORD_STYLE = re.compile(
    r"[A-Za-z][a-z]{2,}(?:[_.-][A-Za-z][a-z]{2,}){1,3}[_.-]?\d{2,}|\d{2,}[A-Z][a-z]{2,}(?:[_.-][A-Z]?[a-z]{2,}){1,3}"
    r"|[A-Z][a-z]{2,}\d{2,}_"
)
# What public identifiers are called: a random-looking token right after one of these is an id.
_ID_IS_BEFORE = re.compile(r"(?i)\b(?:id|ids|identifier)\b(?:\s+[a-z]+){0,4}\s+(?:is|are)\s*$")
# The fields of a JSON Web Key that are published with it (its id, thumbprint), a token's id, and
# a container's id as Kubernetes shows it: public wherever they stand (the learned net asks too).
_PUBLIC_FIELD = r"(?i:\b(?:kid|x5t|x5t#s256|jti)[\"']?\s*[:=]\s*[\"']?|\b(?:docker|containerd|cri-o)://)$"
_PUBLIC_FIELD_BEFORE = re.compile(_PUBLIC_FIELD)
_PUBLIC_ID_BEFORE = re.compile(
    # (also an id's field: "sso_id", "user-id"; a Vault AppRole's "secret_id" is its secret)
    r"(?i)(?:\b|(?<=[a-z][_-])(?<!secret_)(?<!secret-))"
    r"(?:ids?|playlists?|tracks?|albums?|videos?|files?|folders?|docs?|documents?|sheets?"
    r"|spreadsheets?|commits?|builds?|orders?|tickets?|invoices?|requests?|traces?|issues?|ref"
    r"|reference|asin|sku|isbn|tracking|booking|reservation|confirmation|channels?|posts?|tweets?"
    r"|messages?|threads?|links?|urls?|slugs?|hash|fingerprint|checksum|digest|uuid|guid|number|no\.?"
    r"|model|serial|version|release|tag|branch|image|container|pod|node|instance|cluster|project|uids?"
    # an address (a wallet's is public), a database's objects, a platform's object SID
    r"|address(?:es)?|adresse|dirección|direccion|endereço|indirizzo|adres|base|tables?|records?|rows?"
    r"|fields?|views?|workspaces?|datasets?|pages?|sids?)"
    # then a colon, or a command's output after the field it asked for ("{.metadata.uid}' → ...",
    # "{.metadata.uid}' returns ...")
    r"(?:[\s:#=]*|[}'\"`\s]*(?:→|->|=>|returns|gives|prints|outputs|shows)\s*)$|" + _PUBLIC_FIELD
)


def public_field_before(text: str, start: int) -> bool:
    """Whether the value at ``start`` is a field that is public by its format ("kid": "...")."""
    return _PUBLIC_FIELD_BEFORE.search(text, max(0, start - 24), start) is not None


# An AWS X-Ray trace id ("x-amzn-trace-id: Root=1-5759e988-bd862e3fe1be46a994272793"): a request's
# id, which a header prints to every log.
_TRACE_ID = re.compile(r"(?:Root|Self)=1-[0-9a-f]{8}-[0-9a-f]{24}")


# A release of a program with its build ("#49~22.04.1-Ubuntu", "3.2.1+build.7-Debian"): a version
# of three numbers, and words; no symbol a password rule asks for besides "#", "~" and "+".
_VERSION_RUN = re.compile(r"\d+\.\d+\.\d+")
_LETTER_RUN = re.compile(r"[A-Za-z]+")
_WORD_LETTERS = re.compile(r"[A-Z]?[a-z]{2,}|[a-z]|[A-Z]{2,6}")
_VERSION_SYMBOLS = frozenset("!@$%^&*=?")


def _release_name(value: str) -> bool:
    return (
        _VERSION_RUN.search(value) is not None
        and _VERSION_SYMBOLS.isdisjoint(value)
        and all(_WORD_LETTERS.fullmatch(run) for run in _LETTER_RUN.findall(value))
    )


def _not_a_password(value: str) -> bool:
    return (
        any(c in value for c in '/\\()[]{}<>"`')
        or _release_name(value)
        or _TRACE_ID.match(value) is not None
        or "://" in value
        or bool(_EMAIL.fullmatch(value))
        or value.startswith(("-", "@", "[REDACTED"))
        or bool(_NOT_A_SECRET.fullmatch(value))
    )


_ETHEREUM_ADDRESS = re.compile(r"0x[0-9a-fA-F]{40}")  # public (mixed case is its checksum)


def _bitcoin_address(value: str) -> bool:
    """A legacy Bitcoin address (Base58Check of 25 bytes from 1 or 3), or another coin's in the same
    format (TRON's "T...", Litecoin's "L...", Dogecoin's "D..."): public, made to be shared. (A
    private key in Base58Check, WIF, runs to 51-52 characters.)"""
    return 26 <= len(value) <= 35 and base58check(value)


# Hex with a prefix: a number ("0xE6E71F0F62F852D1", a key id) or an object's id that a service
# prints as its letters and a hex digest ("SM85bbb4...", "AC3f9e..."): both cases only in the prefix,
# so nothing random in the mix of cases.
_PREFIXED_HEX = re.compile(r"(?:0x|[A-Za-z]{1,4})(?:[0-9a-f]{16,40}|[0-9A-F]{16,40})")  # (a key: 64)


# A PEM block's armour ("-----END", "KEY-----"): the frame of a key, not the key.
_PEM_ARMOUR = re.compile(r"-{5}(?:BEGIN|END)|[A-Z]+-{5}")


# A Stripe object's id: its type's prefix and 14-32 random characters ("evt_1Pq8...", "cus_Nff...",
# "ch_3Mt..."), which webhooks, logs and the dashboard show; Stripe's keys start otherwise ("sk_live_",
# "rk_", "whsec_"), and a payment intent's client secret goes on after its id ("pi_..._secret_...").
_STRIPE_OBJECT_ID = re.compile(
    r"(?:evt|ch|cus|pi|pm|py|po|tr|in|ii|il|src|seti|si|sub|prod|price|plan|du|ba|card|txn|acct|req"
    r"|re|pyr|trr|dp|cn|fee|file|tok|btok|promo|mandate|sku|txi|ipi)"
    r"_[A-Za-z0-9]{14,32}"
)
# A Wi-Fi network's name as a router or an internet provider sets it: the maker's or the provider's
# name, a dash or an underscore, and a few letters and digits from the device's address, perhaps a
# band ("TP-Link_2541", "Vodafone-O9RB", "Livebox-7F3A_5GHz"): shown to everyone in range.
_ROUTER_NETWORK = re.compile(
    r"(?i:tp-?link|netgear|linksys|asus|d-?link|fritz!?box|vodafone|movistar|livebox|freebox|bbox|sfr"
    r"|bt-?hub|virginmedia|talktalk|orange|huawei|zte|xiaomi|tenda|belkin|telekom|magentaspot|plusnet"
    r"|xfinity|spectrum|ziggo|kpn|proximus|telenet|swisscom|upc|digi|jazztel|fastweb|totalplay|infinitum"
    r"|telstra|optus|mikrotik|keenetic|zyxel|mercusys|sagemcom|technicolor|hitron|arris|ubnt"
    r"|salt|sunrise|yallo|wind3|tim|iliad|sky|eir|vivo|claro|telmex)"
    # (a band or a model's name may come before the id: "Salt_5GHz_2B9C", "HUAWEI-B311-7A3D")
    r"(?i:[-_](?:2\.4|5|6)g(?:hz)?)?(?:[-_](?=[0-9A-Za-z]{0,5}\d)[0-9A-Za-z]{2,6}(?=[-_][0-9A-Fa-f]{4}\b))?"
    r"[-_](?=[0-9A-Za-z]{0,5}\d)[0-9A-Za-z]{2,6}(?i:[-_](?:2\.4|5|6)g(?:hz)?|[-_]ext|[-_]guest)?"
)


def public_shape(value: str) -> bool:
    """Whether a token found by its looks alone (a shaped token, the learned net) is public by its
    format: a wallet's address, hex with a prefix, a program's release, a PEM block's armour, base64
    of a sentence, a Stripe object's id, a router's network name."""
    return (
        _ETHEREUM_ADDRESS.fullmatch(value) is not None
        or _PEM_ARMOUR.fullmatch(value) is not None
        or _PREFIXED_HEX.fullmatch(value) is not None
        or _STRIPE_OBJECT_ID.fullmatch(value) is not None
        or _ROUTER_NETWORK.fullmatch(value) is not None
        or _bitcoin_address(value)
        or _release_name(value)
        or _base64_of_prose(value)
    )


_PROSE_BASE64 = re.compile(r"[A-Za-z0-9+/]{16,}={0,2}")
_SENTENCE_WORDS = 4
_PROSE_BASE64_LEAST = 24
# A short sentence of any language: a capital first, three words or more, and one word in lower
# case or a sign of a sentence ("Hola, ¿qué tal?", "Bonjour tout le monde"); a generator's
# passphrase is all lower case or all capitalised ("Correct-Horse-Battery"), and has no comma.
# Spanish opens an exclamation or a question with its own sign and closes it: two words are a
# sentence then ("¡Buen viaje!", "¿Qué tal?").
_SHORT_SENTENCE = re.compile(
    r"[A-Z][^\W\d_]*(?:[ ,;:'?!¿¡.-]+[^\W\d_]+){2,}[.!?]?"
    r"|¡[^\W\d_]+(?: [^\W\d_]+)+!|¿[^\W\d_]+(?: [^\W\d_]+)+\?"
)
_SENTENCE_SIGNS = re.compile(r"[ ,¿¡][a-zà-ÿ]|[,?!¿¡]")


def _base64_of_prose(value: str) -> bool:
    """Base64 of a sentence ("Hello from the team!" in a ConfigMap's binaryData, a banner): four
    words or more, one of them a word of grammar, which a passphrase of words does not hold; or a
    short sentence of any language (above)."""
    raw = _b64decode(value) if _PROSE_BASE64.fullmatch(value) else None
    try:
        decoded = raw.decode("utf-8") if raw else ""
    except UnicodeDecodeError:
        return False
    if _SHORT_SENTENCE.fullmatch(decoded) and _SENTENCE_SIGNS.search(decoded):
        return True
    words = decoded.split() if len(value) >= _PROSE_BASE64_LEAST else []
    if len(words) >= _SENTENCE_WORDS and any(w.lower() in _NOT_IN_A_PASSPHRASE for w in words):
        return True
    return decoded.startswith("{") and _plain_settings(decoded)


# A JSON object of plain settings, as a page's cursor or a view's state is base64 of one
# ('{"page":3,"limit":20,"order":"name"}'): no field named as a secret, and every value a number, a
# flag or a short string without a random-looking run (Laravel's encrypted '{"iv":...,"value":...}'
# and a service account's token hold long random strings, a docker config an "auth" field).
_SECRET_FIELD = re.compile(
    r"(?i)key|token|secret|pass|pwd|auth|cred|sig|priv|session|cookie|salt|otp|\bpin|\biv\b|mac"
)
_SETTING_STRING = re.compile(r"[\w .:/@-]{0,32}")
_RANDOM_RUN = re.compile(r"(?=[A-Za-z+/=_-]*\d)[A-Za-z0-9+/=_-]{16,}")


def _plain_settings(decoded: str) -> bool:
    try:
        data = json.loads(decoded)
    except ValueError:
        return False
    if not isinstance(data, dict) or not data:
        return False
    for name, item in data.items():
        if _SECRET_FIELD.search(name):
            return False
        if isinstance(item, str):
            if not _SETTING_STRING.fullmatch(item) or _RANDOM_RUN.search(item):
                return False
        elif not isinstance(item, (int, float, bool)) and item is not None:
            return False
    return True


# A key named public right before it ("my WireGuard public key is 0soF...=", "PublicKey = ..."):
# WireGuard's, age's or Nostr's public keys look as random as the private ones, and are shared.
# (`wg show` prints each peer as "peer: <its public key>", quoted after an arrow or a dash too)
_PUBLIC_KEY_NAMED = re.compile(
    r"(?i)(?:\bpub(?:lic)?[ _-]?key\b|(?:^|[^\w\s])[ \t]*peer)[\"']?(?:\s+(?:is|was)\b)?\s*[:=]?\s*[\"'`]?$",
    re.M,
)
_PUBLIC_KEY_REACH = 40
# A Solana account's address is base58 of 32 bytes, with no checksum: a random key of 43-44 letters
# and digits is also base58 one time in twenty, so only a message about addresses or wallets makes
# such a value an address.
_ADDRESS_TALK = re.compile(r"(?i)address|wallet|solana|\bsol\b|pubkey|public key|\bmint\b")


def public_key_named_before(text: str, start: int) -> bool:
    """Whether the value at ``start`` is said to be a public key right before it."""
    return _PUBLIC_KEY_NAMED.search(text, max(0, start - _PUBLIC_KEY_REACH), start) is not None


def _public_key_or_address(text: str, start: int, value: str) -> bool:
    """A random-looking value said to be a public key, or a Solana address in a message about one."""
    if public_key_named_before(text, start):
        return True
    return base58_of_32_bytes(value) and _ADDRESS_TALK.search(text) is not None


def _random_secret(text: str, start: int, value: str) -> bool:
    if public_shape(value) or _public_key_or_address(text, start, value):
        return False
    if text[start - 1 : start] == ":" or not looks_random(value, 12) or _base64_of_any_text(value):
        return False  # "SHA256:nThbg6k..." is a fingerprint
    if text.endswith(";base64,", max(0, start - 8), start):
        return False  # a data: URI's content (an inline image)
    if _ID_IS_BEFORE.search(text, max(0, start - 40), start):
        return False  # "the doc id in the link is 1W1jdH...": an identifier, said to be one
    return not _PUBLIC_ID_BEFORE.search(text, max(0, start - 24), start)


def _b64decode(value: str) -> bytes | None:
    try:
        return base64.b64decode(value + "=" * (-len(value) % 4), validate=True)
    except (binascii.Error, ValueError):
        return None


def _base64_of_text(value: str) -> bool:
    raw = _b64decode(value)
    try:
        decoded = raw.decode("utf-8") if raw is not None else ""
    except UnicodeDecodeError:
        return False
    return bool(decoded) and decoded.isascii() and decoded.isprintable()  # words or JSON, not random bytes


def _base64_of_any_text(value: str) -> bool:
    """Base64 of text, or of a sentence in any language ("Bitte die Rechnung prüfen" in a mail's
    base64 body): random bytes seldom decode as UTF-8, and then hold no space."""
    if _base64_of_text(value):
        return True
    raw = _b64decode(value)
    try:
        decoded = raw.decode("utf-8") if raw is not None else ""
    except UnicodeDecodeError:
        return False
    return " " in decoded and decoded.isprintable()


def _password_shaped(value: str) -> bool:
    """A strong symbol; words joined with a number, one of them capitalised ("walrus_Harbor_686",
    "Sakura_Kyoto0412"); or joined words and a number with a random chunk ("kX4v-Mire-Pond-73")."""
    if not _STRONG_SYMBOLS.isdisjoint(value):
        return True
    if _WORD_STYLE.fullmatch(value) and any(c.isupper() for c in value):
        return True
    # a generator's passphrase: capitalised words, a number and a random chunk; not a gamer tag
    # ("xX_Sn1per_Xx"), a network name ("Livebox-7F3A_5GHz") or an id with its prefix ("evt_fL5T...")
    parts = _JOINS.split(value)
    return (
        sum(part.istitle() and part.isalpha() and len(part) >= 3 for part in parts) >= 2
        and any(part.isdigit() and len(part) >= 2 for part in parts)
        and any(_kinds(part) == 3 for part in parts)
    )


def _seed_phrases(lower: str, found: list[str]) -> Iterator[Span]:
    """Runs of 12+ words of one of the BIP-39 lists (any language), whatever stands between them
    (numbers, commas, line breaks, ideographic spaces); runs of 6+ when the message speaks of a
    phrase, seed or words (a phrase sent in halves: "first 6 words: buffalo banana ...")."""
    words = _seed_words()
    named = _SEED_CUE.search(lower)
    least = _SEED_RUN_NAMED if named else _SEED_RUN
    if len(words.intersection(found)) < least - 1 or not _has_run(found, words, least):
        return  # a phrase of 12 words has 11 different ones at least (one C call: first), in a row
    run: list[str] = []
    run_start, run_end, commas = 0, 0, 0
    for m in _WHITESPACE_TOKEN.finditer(lower):
        token = m.group().strip(_EDGE + "0123456789")
        if not token:
            continue  # "1." between numbered words
        if token not in words:
            if run:  # the run ends here
                if _phrase_of(run, least, commas, named=named):
                    yield run_start, run_end, "seed_phrase", P_STRUCT
                run, commas = [], 0
            # a label glued to the first word: "助记词：badge", 'MNEMONIC="badge' (after "export", a word
            # of a list too)
            token = _CJK_LABEL.sub("", token)
            if token not in words:
                continue
        if not run:
            run_start = m.start() + m.group().find(token)
        run.append(token)
        run_end = m.end()
        commas += m.group().endswith(",")
    if _phrase_of(run, least, commas, named=named):
        yield run_start, run_end, "seed_phrase", P_STRUCT


def _phrase_of(run: list[str], least: int, commas: int, *, named: bool) -> bool:
    """Whether a run of list words is a wallet's phrase (long enough, drawn at random, and not a
    list of words written as one unless the message names a phrase)."""
    return len(run) >= least and _drawn_at_random(run) and (named or not _word_list(run, commas))


def _word_list(run: list[str], commas: int) -> bool:
    """Whether a run of list words is written as a list, word, comma, word ("Spelling list: stem,
    learn, source, ..."): a wallet's phrase so written is named as one (a seed, a phrase, a wallet)."""
    return 2 * commas >= len(run)


def _drawn_at_random(run: list[str]) -> bool:
    """Whether a run of list words may be a wallet's phrase: words drawn from 2048 hardly repeat (a
    quarter of twelve repeated: one phrase in millions), while BIP-39's published test vectors
    repeat theirs ("abandon abandon ... abandon about", "zoo zoo ... zoo wrong")."""
    return 4 * len(set(run)) >= 3 * len(run)


_SEED_RUN = 12
_SEED_RUN_NAMED = 6
_SEED_CUE = Substrings(
    word_list("""
    phrase|seed|mnemonic|words|recovery|wallet|助记词|助記詞|シード|フレーズ|ウォレット|시드|니모닉|지갑|фраз|
    frase|wörter|mots
    """)
)
# (a label glued to the first word: "助记词：badge", "seed:badge", or an assignment's name and its
# quote, 'MNEMONIC="badge')
_CJK_LABEL = re.compile(rf"^[{_NO_SPACE_SCRIPTS}]+(?=[a-z])|^[^:：]+[:：](?=\S)|^[\w.-]+=[\"'`]?(?=[a-z])")


_WHITESPACE_TOKEN = re.compile(r"\S+")


def _has_run(found: list[str], words: frozenset[str], least: int) -> bool:
    """Whether ``least`` of ``found`` (the text's words, numbers and symbols dropped) in a row are
    in ``words``: a quick test before the exact scan, which then keeps the separators in view."""
    return b"\x01" * least in bytes(map(words.__contains__, found))  # (a byte for each word, in C)


# A base32 secret (a 2FA setup key) written in groups of four: "U6JD FFHD QXOQ S4MB ..."
_BASE32_GROUPS = re.compile(r"\b[a-z2-7]{4}(?: [a-z2-7]{4}){3,}\b")  # searched in the lowercased text
# Three of its groups after spaces, which every match holds: a scan that starts with a space is
# skipped through in C, where the "\b" first is tried at every position.
_BASE32_TAIL = re.compile(r" [a-z2-7]{4} [a-z2-7]{4} [a-z2-7]{4}")


def _letter_words(lower: str) -> list[str]:
    """The words of ``lower`` with digits and ASCII symbols taken out."""
    raw = lower.encode("utf-8", "surrogatepass").translate(_NOT_LETTERS)
    return raw.decode("utf-8", "surrogatepass").split()


def _dashed_keys(text: str, lower: str) -> Iterator[Span]:
    tail = prefilter.may(prefilter.PRODUCT_KEY_TAIL, text) and _PRODUCT_KEY_TAIL.search(text)
    for m in _PRODUCT_KEY.finditer(text) if tail else ():
        value = m.group()
        if sum(c.isdigit() for c in value) >= 2 and sum(c.isalpha() for c in value) >= 2:
            yield m.start(), m.end(), "product_key", P_STRUCT
    if _LICENCE_STEMS.search(lower) and _LICENCE_CUES.search(lower):
        for m in _SHORT_PRODUCT_KEY.finditer(text):
            value = m.group()
            if (
                sum(c.isdigit() for c in value) >= 2
                and sum(c.isalpha() for c in value) >= 2
                and _LICENCE_CUES.search(lower, max(0, m.start() - _LICENCE_CUE_REACH), m.start())
            ):
                yield m.start(), m.end(), "product_key", P_STRUCT
    if not prefilter.may(prefilter.HEX_CODE_TAIL, text) or not _HEX_CODE_TAIL.search(text):
        return
    codes = [m for m in _HEX_CODE_PAIR.finditer(text) if any(c.isalpha() for c in m.group())]
    if len(codes) >= 2:  # one alone may be anything; a list of them is a set of recovery codes
        for m in _HEX_CODE_PAIR.finditer(text):
            yield m.start(), m.end(), "recovery_code", P_STRUCT


# A 2FA setup key named just before its groups ("typed the setup key: spu6 fpsn njae nkqj"): base32
# of random bytes may hold one digit or none; its groups are then letters no language says.
_SETUP_KEY_BEFORE = re.compile(r"(?:setup|secret|2fa|totp|otp|authenticator) key\W{0,3}$")
# The key an authenticator app offers in place of its QR code ("can't scan the QR code? enter this
# key instead: ...", "enter this key manually: ..."): a key named just before, in a message about a
# QR code.
_KEY_INSTEAD_OF_QR = re.compile(r"\bkey(?: instead| manually| by hand)?\W{0,3}$")


def _named_setup_key(lower: str, start: int, groups: list[str]) -> bool:
    named = _SETUP_KEY_BEFORE.search(lower, max(0, start - 24), start) is not None or (
        "qr" in lower and _KEY_INSTEAD_OF_QR.search(lower, max(0, start - 16), start) is not None
    )
    if not named:
        return False
    return 2 * sum(_UNSPOKEN.search(g) is not None for g in groups) >= len(groups)


# A value read out letter by letter with each letter's case said ("groß V, klein z, ...", "y minúscula,
# x minúscula, seis, ...", "y, o, four, capital I, eight, ..."; 2026-12-07): six characters at least,
# said one by one between commas, two of them with their case, which no list of words or options has.
_CASE_WORDS = word_list(
    "capital|small|lowercase|uppercase|lower-case|upper-case|lower case|upper case|big|groß|großes|großer|"
    "klein|kleines|kleiner|mayúscula|minúscula|majuscule|minuscule|maiúscula|maiuscola|minuscola|"
    "hoofdletter|kleine letter|versal|gemen|gemener|wielka|wielkie|mała|małe"
)
_CASE_NAMES = KeywordIndex(_CASE_WORDS)
_CASE = "|".join(sorted((re.escape(w) for w in _CASE_WORDS), key=len, reverse=True))
_SAID_WORD = "|".join(sorted((re.escape(w) for w in _SPOKEN if w.isalpha()), key=len, reverse=True))
_CASED_ITEM = (
    rf"(?:(?:{_CASE})[ \t]+[^\W_]|[^\W_][ \t]+(?:{_CASE})|(?:{_SAID_WORD})(?:[ \t]+(?:{_SAID_WORD}))?|[^\W_])"
)
_CASED_LETTERS = re.compile(
    rf"(?<![\w-]){_CASED_ITEM}(?:[ \t]*,[ \t]*{_CASED_ITEM}){{5,}}(?![\w-])", re.IGNORECASE
)
_CASED_ONE = re.compile(rf"(?:{_CASE})[ \t]+[^\W_]|[^\W_][ \t]+(?:{_CASE})", re.IGNORECASE)
_CASED_LEAST = 2


def _cased_letters(text: str, lower: str) -> Iterator[Span]:
    # (two characters with their case said at least, found from the case words' places: the whole
    # pattern, an alternation at every position, costs ten times more)
    cased = 0
    for start, _, _ in _CASE_NAMES.find(lower):
        before = len(text[:start].rstrip(" \t")) - 1
        if _CASED_ONE.match(text, start) or (before < start - 1 and _CASED_ONE.match(text, max(0, before))):
            cased += 1
    if cased < _CASED_LEAST:
        return
    for m in _CASED_LETTERS.finditer(text):
        items = [item.strip() for item in m.group().split(",")]
        cased = sum(_CASED_ONE.fullmatch(item) is not None for item in items)
        if cased >= _CASED_LEAST:
            yield m.start(), m.end(), "password", P_PROSE


# A Wi-Fi key as wpa_supplicant keeps it when it is not quoted: "psk=" and the 256-bit key derived
# from the passphrase, 64 hex digits (hostapd's "wpa_psk=" too); a hash is never named "psk".
_WPA_PSK_HEX = re.compile(r"(?i)(?<![\w-])(?:wpa_)?psk[ \t]*=[ \t]*([0-9a-f]{64})(?![\w-])")


def _touches_word(text: str, start: int, end: int) -> bool:
    """Whether the span continues a hyphenated word on either side ("-ABCD ... WXYZ-")."""
    return text[start - 1 : start] == "-" or text[end : end + 1] == "-"


# A password read out with its separators said as words ("Cactus dash thunder dash 5317", "quiet
# space juniper space harbor seven five"; 2026-12-06): words joined by two said separators at least,
# and the spelled digits after them, where a password is named.
_SAID_SEPARATOR = (
    r"(?:dash|hyphen|space|underscore|dot|period|slash|point|punkt|tiret|guion|guión|bindestrich"
    r"|unterstrich|leerzeichen|espace|espacio|trattino)"
)
_READ_OUT = re.compile(
    rf"(?<![\w-])[^\W_]+(?:[ \t]+{_SAID_SEPARATOR}[ \t]+[^\W_]+){{2,}}(?![\w-])", re.IGNORECASE
)
_SAID_SEPARATORS = KeywordIndex(
    word_list(
        "dash|hyphen|space|underscore|dot|period|slash|point|punkt|tiret|guion|guión|bindestrich|"
        "unterstrich|leerzeichen|espace|espacio|trattino"
    )
)


def _read_out(text: str, lower: str) -> Iterator[Span]:
    said = _SAID_SEPARATORS.find(lower)  # (from the message's shared pass: a regex scan costs more)
    if next(said, None) is None or next(said, None) is None or next(_NAMES.find(lower), None) is None:
        return
    for m in _READ_OUT.finditer(text):
        end = m.end()
        for word in _SPELLED.finditer(text, end):
            if text[end : word.start()].strip(" \t") or word.group().lower() not in _NUMBER_WORDS:
                break
            end = word.end()
        yield m.start(), end, "password", P_PROSE


def _obfuscated(text: str, lower: str, found: list[str], digits: int) -> Iterator[Span]:
    if (
        prefilter.may(prefilter.ONE_CHAR_TOKENS, text)
        and _TWO_ONE_CHAR_TOKENS.search(text)
        and _ONE_CHAR_TOKENS.search(text)
    ):
        yield from _spaced_out(text)
    if prefilter.may(prefilter.DOTTED_CHARS, text) and _DOTTED_CHARS.search(text):
        yield from _spaced_out(text, _DOTTED_OUT)
    base32 = digits and prefilter.may(prefilter.BASE32_TAIL, text) and _BASE32_TAIL.search(lower)
    for m in _BASE32_GROUPS.finditer(lower) if base32 else ():
        value = text[m.start() : m.end()]
        one_case = value.isupper() or value.islower()  # a key is shown in one case
        digits = sum(c.isdigit() for c in value)
        groups = value.split()
        lettered = sum(any(c.isalpha() for c in g) for g in groups) * 2 >= len(groups)  # not "4242 4242 ..."
        keyed = digits >= 2 or _named_setup_key(lower, m.start(), groups)
        if one_case and keyed and lettered and not _touches_word(text, m.start(), m.end()):
            yield m.start(), m.end(), "otp_secret", P_STRUCT
    if text.count("-") >= 2:
        yield from _dashed_keys(text, lower)
    # Six spelled digits at least; four where a password or a code is named anywhere in the
    # message ("seven two nine nine three, that's the gate code").
    if len(_NUMBER_WORDS.intersection(found)) < 2:
        return
    spelled = sum(w in _NUMBER_WORDS for w in found)
    if spelled < _SPELLED_NAMED:
        return
    least = _SPELLED_NAMED if next(_NAMES.find(lower), None) is not None else _SPELLED_ALONE
    if spelled < least:
        return
    for m in _SPELLED.finditer(text):
        if m.group().lower() in _NUMBER_WORDS:
            end = _spelled_run(text, m.start(), least=least)
            if end:
                yield m.start(), end, "password", P_PROSE


_SPELLED_ALONE = 6
_SPELLED_NAMED = 4


# Four one-character tokens in a row (cheap to find): where a spaced-out value can be.
_ONE_CHAR_TOKENS = re.compile(r"(?<!\S)\S[ -]\S[ -]\S[ -]\S(?![^\s-])")
# Two of them with a separator on each side, which any four hold: a pattern that starts with a
# character class is skipped through in C, where a look-behind is tried at every position.
_TWO_ONE_CHAR_TOKENS = re.compile(r"[ -]\S[ -]\S[ -]")


def _spaced_out(text: str, pattern: re.Pattern[str] = _SPACED_OUT) -> Iterator[Span]:
    for m in pattern.finditer(text):  # "g h p _ h E 3 N", "A-K-y-x-G-6-n-Q", "r.o.c.k.y.1.9"
        chars = m.group()[::2]
        # letters and digits, or three kinds of character ("# a C T K j u j z": no digit)
        if (any(c.isdigit() for c in chars) and any(c.isalpha() for c in chars)) or _kinds(chars) >= 3:
            yield m.start(), m.end(), "password", P_PROSE


# "user / password" pairs: an e-mail address or a user name, a slash, then the password.
_AFTER_SLASH = re.compile(r"/[ \t]?([^\s/]{6,64})")
_USER_BEFORE = re.compile(r"(?<![\w/.@-])([\w.+-]+@[\w-]+(?:\.[\w-]+)+|[A-Za-z][\w.-]{1,30})[ \t]?$")
# (a Wi-Fi network is given the same way, its name before the slash: "Guest Wi-Fi: Cafe-Guest / X")
# (and a login's data named in other languages: "Zugangsdaten", "identifiants", "登录"; a password's
# name in any language counts too, see _about_logins)
_LOGIN_CONTEXT = Substrings(
    word_list("""
    login|log in|sign in|user|account|admin|credential|creds|password|wifi|wi-fi|wlan|ssid|hotspot|
    zugangsdaten|anmeldedaten|identifiants|credenciales|credenziali|credenciais|inloggegevens|
    dane logowania|учетные данные|учётные данные|登录|登入|ログイン|로그인
    """)
)


def _about_logins(lower: str) -> bool:
    """Whether a message speaks of logins: a login's word, or a password's name in any language
    ("密码清单" heads a list of "site: user / password" lines)."""
    if _LOGIN_CONTEXT.search(lower):
        return True
    return any(name in _PASSWORD_NAME_SET for _, _, name in _NAMES.find(lower))


def _credential_pairs(text: str, lower: str) -> Iterator[Span]:
    """ "Netflix: me@example.com / Biscuit2094_", "the NAS is admin/Mariposa4484&%", "Wi-Fi:
    Cafe-Guest / maple-otter-42": the value after a user's or a network's slash, when it holds
    letters and digits (paths and "km/h" do not) or a generator's joined words, and the message is
    about logins or Wi-Fi, or the user is an e-mail address."""
    about_logins = _about_logins(lower)
    if not about_logins and "@" not in text:
        return  # (a value is taken only in a message about logins, or after an e-mail address)
    about_wifi = _WIFI_TALK.search(lower)
    for m in _AFTER_SLASH.finditer(text):
        start, end = _core(text, m.start(1), m.end(1))
        value = text[start:end]
        phrase = _unquoted_passphrase(text, start, _NUMBERED_PHRASE) or _unquoted_passphrase(text, start)
        if phrase:  # "jdoe / copper pixel quartz casa32": a password of words
            end = phrase
        elif not _pair_value(
            value,
            spaced=m.start(1) > m.start() + 1 and text[m.start() - 1 : m.start()] == " ",
            wifi=about_wifi,
        ):
            continue
        user = _USER_BEFORE.search(text, max(0, m.start() - 64), m.start())
        if user is not None and (about_logins or "@" in user.group(1)):
            yield start, end, "password", P_PROSE


_LETTERS_AND_DIGITS = re.compile(r"(?=[a-z]*\d)(?=\d*[a-z])[a-z0-9]{8,64}")
_CAPITALS_AND_DIGITS = re.compile(r"(?=[A-Z]*\d)(?=\d*[A-Z])[A-Z0-9]{8,64}")
_WIFI_TALK = Substrings(word_list("wifi|wi-fi|wlan|ssid|hotspot"))


def _pair_value(value: str, *, spaced: bool, wifi: bool = False) -> bool:
    """Whether the word after a user's slash is a password: a generator's words joined (their
    separators are a name's too: no other test), letters and digits mixed, or, with a space each
    side of the slash (a path has none: "dpage/pgadmin4"), small letters and digits (how a
    generator of "easy to type" passwords writes them: "wvvbso34nz8j"); and not a path, a file or a
    handle ("admin / @Fluffy468" is a password, though)."""
    if joined_word_passphrase(value):
        return True  # "creds are j.doe / amber.otter.violin"
    # a router's label prints its key in capitals and digits, or digits alone ("Wi-Fi: TP-Link_4F1E
    # / 80417723"): after a network's name, with spaces round the slash, they are its password
    if spaced and wifi and len(value) >= 8 and value.isdigit():
        return True
    if spaced and wifi and _random_letters(value):
        return True  # (or letters of both cases that no language writes: "TP-Link_4F1E / qWmRtzKpLvXe")
    easy = spaced and (
        _LETTERS_AND_DIGITS.fullmatch(value) is not None or _CAPITALS_AND_DIGITS.fullmatch(value) is not None
    )
    if (_kinds(value) < 3 or not _DIGIT.search(value)) and not easy:
        return False
    if _not_a_password(value) and not _SYMBOL_FIRST_PASSWORD.fullmatch(value):
        return False
    if _VERSIONED_REFERENCE.fullmatch(value):
        return False  # "uses: actions/checkout@v4": a GitHub Action or a package at a version
    return not ("." in value[-5:] and value.rsplit(".", 1)[1].isalpha())  # a file ("notes/draft2.txt")


_VERSIONED_REFERENCE = re.compile(r"[A-Za-z][\w.-]*@(?:v?\d+(?:\.\d+)*|[0-9a-f]{7,40}|main|master|latest)")


# A UUID, or a long run of hex digits: random, but ids and hashes look the same. Only a secret's
# name before it, on its line, makes it a secret ("heroku auth:token gives me 2e2ccc40-...",
# "bitcoin private key hex (no 0x): bb3c0b...").
_RANDOM_SHAPES = (  # each as its first character and the rest
    ("[0-9a-fA-F]", "[0-9a-fA-F]{7}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"),
    ("[0-9a-f]", "[0-9a-f]{31,127}"),
    ("[0-9A-F]", "[0-9A-F]{31,127}"),
    ("[A-Z2-7]", "[A-Z2-7]{15,63}"),  # (base32: a 2FA seed)
)
# A whole word, "0x" perhaps first, in one of the shapes: the matches of
# "(?<![\w-])(?:0x)?(?:shape|...)(?![\w-])", written to start with a character that can start one,
# which `re` skips to in C, and to look behind only there (that it starts a word, and which shapes
# it can start): a look-behind first is tried at every position. (A word of ASCII: Chinese and
# Japanese write a value against its particles, "Linodeは<64 hex digits>です".)
_UUID_OR_HEX = re.compile(
    r"[0-9A-Za-f](?<![A-Za-z0-9_-][0-9A-Za-f])(?:(?<=0)x(?:"
    + "|".join(first + rest for first, rest in _RANDOM_SHAPES)
    + ")|"
    + "|".join(f"(?<={first}){rest}" for first, rest in _RANDOM_SHAPES)
    + r")(?![A-Za-z0-9_-])"
)
# ("api" inside a path or a name, "/api/v1/items/", "billing-api-7f9c", names no key.)
_SECRET_CUE = re.compile(
    r"token|secret|(?<![/-])\bapi\b(?![/-])|api[ _-]?key|apikey|private[ _-]?key|auth\b|totp|2fa"
    r"|authenticator|authorization"
    r"|\bmfa|\botp|(?<![a-z])seed\b"  # (a one-time password's seed: "MFA_SEED=", "otp seed")
    r"|password|passwort"
    r"|credential|signing key|encryption key|sessid|sessionid|session[ _-]?(?:token|cookie|key)"
    r"|routing[ _-]key|webhook|\.key\b|master[ _-]?key"
    r"|シークレット|トークン|キー|秘密鍵|密钥|秘钥|密鑰|私钥|私鑰|令牌|시크릿|토큰|비밀 ?키|개인 ?키"
    r"|секрет|токен|ключ"
    r"|clé privée|chave privada|clave privada|chiave privata|privater schlüssel|klucz prywatny"
    # "key" in other languages (2026-12-06: "Azure OpenAI anahtarım <32 hex digits>", Turkish)
    r"|anahtar|schlüssel|sleutel|nøkkel|nøgle|nyckel|avain|kulcs|klucz|klíč|cheie|kunci|khóa|chave"
    r"|chiave|clave|\bclé|مفتاح|कुंजी|מפתח"
)
# A value asked about as a key or a token ("Is this a valid Slack key format? 496c0584...", "does
# this look like a real Stripe key?"): a provider's key, named so only by the question.
_KEY_ASKED = re.compile(
    r"\b(?:valid|real|correct|proper|working|legit|genuine)\b[^?\n]{0,30}"
    r"\b(?:key|token)s?\b[^?\n]{0,12}\?"
)
_CUE_WINDOW = 80  # characters before the value, on its line
# A message about a key, a token or a credential (for keys whose shape ids share)
_KEY_TALK = re.compile(_SECRET_CUE.pattern + r"|\bkeys?\b|\bcredentials?\b")
# A word that every match of _SECRET_CUE holds (a literal of each of its alternatives): a text
# without any is not searched. The alternation tries its sixty-odd words at every position (~20 us
# on an 80-character window, ~45 on a message); one pass of an automaton finds the words.
_SECRET_CUE_WORDS = word_list("""
    token|secret|api|private|auth|totp|2fa|mfa|otp|seed|password|passwort|credential|signing|encryption|sessid|
    session|routing|webhook|.key|master|シークレット|トークン|キー|秘密鍵|密钥|秘钥|密鑰|私钥|私鑰|令牌|
    시크릿|토큰|비밀|개인|секрет|токен|ключ|clé|chave|clave|chiave|schlüssel|klucz|anahtar|sleutel|
    nøkkel|nøgle|nyckel|avain|kulcs|klíč|cheie|kunci|khóa|مفتاح|कुंजी|מפתח
""")
_SECRET_CUE_HINTS = Substrings(_SECRET_CUE_WORDS)
_KEY_TALK_HINTS = Substrings((*_SECRET_CUE_WORDS, "key"))  # ("keys", "credentials": see above)


def _secret_cue(lower: str) -> bool:
    """Whether ``lower`` names a secret (_SECRET_CUE), tried only where one of its words starts."""
    return _matches_at_a_word(_SECRET_CUE, _SECRET_CUE_HINTS, lower)


def _matches_at_a_word(pattern: re.Pattern[str], words: Substrings, lower: str) -> bool:
    """``pattern.search(lower) is not None`` for _SECRET_CUE and _KEY_TALK, whose every match starts
    with one of ``words`` (a look-behind or a \\b before it reads nothing: "privater schlüssel" holds
    "schlüssel", itself a match): the pattern is tried where a word starts (from the message's
    shared pass), where a search tried its sixty-odd alternatives at every position (~20 µs on an
    80-character window, ~45 on a message)."""
    return any(pattern.match(lower, start) for start in words.starts(lower))


def key_talk(lower: str) -> bool:
    """Whether ``lower`` speaks of a key, a token or a credential (_KEY_TALK), searched only where
    one of its words is. (pieces.py asks it of a key written in pieces, for each run of groups of a
    message: the last text's answer is kept, the search costing ~10-45 µs on 300 characters.)"""
    global _KEY_TALK_LAST
    last = _KEY_TALK_LAST
    if last[0] is lower:
        return last[1]
    found = _matches_at_a_word(_KEY_TALK, _KEY_TALK_HINTS, lower)
    _KEY_TALK_LAST = (lower, found)  # (one tuple, read and replaced whole: thread-safe)
    return found


_KEY_TALK_LAST: tuple[str, bool] = ("", False)


_HEX_VALUE_DIGITS = 2  # a UUID or 32 hex digits hold more by far; a 2FA seed in base32 a few (2 of 16 often)


# The fewest characters a match of _UUID_OR_HEX holds (base32's 16; hex 32, a UUID 36, "0x" 18).
_RANDOM_VALUE_LEAST = 16


def _random_values(text: str, long_tokens: list[re.Match[str]]) -> Iterator[re.Match[str]]:
    """The matches of _UUID_OR_HEX, looked for only in the long tokens that can hold one: its
    characters are all a long token's, so each match lies in one, and a scan of those alone (with
    the character after each, which the match's end reads) finds the same matches in order, where
    a scan of the whole text tried its look-behind at most letters (~7 us per 300 characters)."""
    for token in long_tokens:
        if token.end() - token.start() >= _RANDOM_VALUE_LEAST:
            yield from _UUID_OR_HEX.finditer(text, token.start(), token.end() + 1)


_INTRODUCING_ENDS = (":", "：", ".", "。", "!")


def _named_random_values(text: str, lower: str, long_tokens: list[re.Match[str]]) -> Iterator[Span]:
    for m in _random_values(text, long_tokens):
        line_start = text.rfind("\n", 0, m.start()) + 1
        before = lower[max(line_start, m.start() - _CUE_WINDOW) : m.start()]
        if line_start and not before.strip():
            # a value alone on its line is named by the line before: "cat config/master.key\n...",
            # or by the sentence that ends the paragraph before, in a mail ("the auth token is:\n\n<value>")
            above = lower[:line_start].rstrip()
            if not above.endswith(_INTRODUCING_ENDS):
                above = lower[: line_start - 1]
            before = lower[max(above.rfind("\n") + 1, len(above) - _CUE_WINDOW) : m.start()]
        named = _secret_cue(before) or _KEY_ASKED.search(before) or _named_private_key(m, before)
        if not named or _PUBLIC_ID_BEFORE.search(text, max(0, m.start() - 24), m.start()):
            continue
        if _PUBLIC_HASH_BEFORE.search(before):
            continue
        yield m.start(), m.end(), "secret", P_PROSE


# A session's id where a session or its cookie is named on the line before it ("Session-Cookie
# (sessionid) ist ...", "ASP.NET_SessionId=..."): small letters and digits, as Django, PHP and
# ASP.NET write them; or a Rails cookie, signed: its data in base64, "--" and a 40-hex-digit HMAC.
_SESSION_CUE = re.compile(r"sessid|session[ _.-]?(?:id|cookie|token|key)|_session\b|cookie")
_SESSION_ID = re.compile(
    r"[a-z0-9](?<![\w-][a-z0-9])(?=[a-z0-9]*\d)(?=[a-z0-9]*[a-z])[a-z0-9]{19,63}(?![\w-])"
    r"|[A-Za-z0-9+/%]{16,}={0,2}--[0-9a-f]{40}(?![\w-])"
)


def _session_ids(text: str, lower: str) -> Iterator[Span]:
    for m in _SESSION_ID.finditer(text):
        line_start = text.rfind("\n", 0, m.start()) + 1
        before = lower[max(line_start, m.start() - _CUE_WINDOW) : m.start()]
        if _SESSION_CUE.search(before) and not _PUBLIC_HASH_BEFORE.search(before):
            yield m.start(), m.end(), "session_cookie", P_PROSE


# An Ethereum (secp256k1) private key, "0x" and 64 hex digits, where any "key" names it:
# `Account.from_key("0x...")`, "derived key #0: 0x..." (a transaction's hash, the same shape, is
# named "tx" or "hash": see ``_PUBLIC_HASH_BEFORE``).
def _named_private_key(m: re.Match[str], before: str) -> bool:
    return m.end() - m.start() == 66 and m.group().startswith("0x") and "key" in before


# Hashes and public ids are named too: "sha256 of the token", "commit", "checksum", "request id".
_PUBLIC_HASH_BEFORE = re.compile(
    r"\bsha(?:-?\d+)?\b|\bmd5\b|hash|checksum|digest|commit|fingerprint|request[ _-]?id|trace[ _-]?id"
    r"|correlation"
    r"|public[ _-]?key|address|tx(?:id)?\b|transaction|block|uuid|guid|\buid\b"
    # a request's or a trace's id, a hash, a commit, in other languages
    r"|请求 ?id|請求 ?id|请求编号|请求号|追踪 ?id|跟踪 ?id|リクエスト ?id|トレース ?id|요청 ?id|추적 ?id"
    r"|哈希|雜湊|ハッシュ|해시|提交|コミット|커밋|校验和"
    r"|id de (?:solicitud|requête|requete|requisição|requisicao|petición|rastreo)|anfrage-?id|request-?id"
    r"|id (?:richiesta|della richiesta)|id запроса|идентификатор запроса|istek kimliği|id żądania"
)
PUBLIC_HASH_BEFORE = _PUBLIC_HASH_BEFORE  # (and of a key's pieces: a fingerprint's groups are public)


# Security questions: the standard ones that banks and airlines ask, and the answer after them.
# The answer is a name ("Delacroix", "Mr. Whiskers", "Birchwood Lane", "Peugeot 205", "Pelusa58").
_SECURITY_QUESTION = re.compile(  # searched in the lowercased text
    r"(?:mother'?s maiden name|maiden name|(?:name of )?(?:your |my )?first (?:pet|dog|cat|car|school|"
    r"teacher|boss|job|concert)(?:'s name)?|street (?:i|you) grew up on|"
    r"favou?rite (?:childhood )?(?:teacher|book|movie|"
    r"food|band|city|sports team)|(?:father|mother|dad|mom|mum)'?s middle name|city (?:i was|you were) "
    r"born in|childhood (?:best )?friend(?:'s name)?|(?:high school|school) mascot|security (?:answers?|"
    r"questions?)|secret (?:answer|question)|pregunta (?:secreta|de seguridad)|question secrète|"
    r"sicherheitsfrage|geheimfrage|domanda (?:segreta|di sicurezza)|pergunta (?:secreta|de segurança)|"
    r"güvenlik soru\w*|nom de jeune fille|geburtsname|mädchenname|apellido de soltera|"
    r"nome d[ae] solteira|cognome da nubile|meisjesnaam|nazwisko panieńskie|девичья фамилия|"
    r"pytanie (?:bezpieczeństwa|pomocnicze)|säkerhetsfråga\w*|sikkerhedsspørgsmål\w*|"
    r"sikkerhetsspørsmål\w*|veiligheidsvraag|beveiligingsvraag|контрольн\w* вопрос\w*|秘密の質問|"
    r"安全问题|密保问题|보안 질문|câu hỏi bảo mật|bezpečnostní otázk\w*|street did you grow up on|"
    r"erst\w* haustier\w*|primera mascota|premier animal|primo animale|primeiro animal|"
    r"answer (?:to )?[\"'“‘][^\"'”’\n]{4,80}[\"'”’])"
)
# Each alternative of _SECURITY_QUESTION starts with one of these (its first words, or a prefix of
# them): the questions are matched where one occurs, found in the message's shared pass, where a
# scan with the alternation tried every alternative at every position (10-40 µs on a message that
# holds an anchor: "first", "secret" and "question" are common words).
_QUESTION_HEADS = _substrings(
    word_list("""
    mother|maiden|name of|your |my |first|street|favo|father|dad|mom|mum|city|childhood|high school|school|
    security|secret|pregunta|question|sicherheitsfrage|geheimfrage|domanda|pergunta|güvenlik|nom de|
    geburtsname|mädchenname|apellido|nome d|cognome|meisjesnaam|nazwisko|девичья|pytanie|säkerhetsfråga|
    sikkerhedssp|sikkerhetssp|veiligheidsvraag|beveiligingsvraag|контрольн|秘密の質問|安全问题|密保问题|
    보안 질문|câu hỏi|bezpečnostní|erst|primera|premier|primo|primeiro|answer
    """)
)


def _security_questions(lower: str, start: int) -> Iterator[re.Match[str]]:
    """``_SECURITY_QUESTION.finditer(lower, start)``: tried only where one of its heads occurs."""
    heads = sorted({end - length + 1 for end, length in matches(_QUESTION_HEADS, lower)})
    taken = start
    for at in heads:
        if at < taken:
            continue
        question = _SECURITY_QUESTION.match(lower, at)
        if question is not None:
            taken = question.end()
            yield question


# What comes between a question and its answer: a few words ("... de la banque : X") before a
# colon or an arrow, an aside in brackets, then the link and perhaps the word "answer".
_ANSWER = re.compile(
    r"(?:[^.?!\n:：→=]{0,60}?(?=[\s'\"»)\]]*(?:\([^()\n]{0,40}\))?[\s'\"»)\]]*(?:→|->|=>|=|:|：)))?"
    r"(?:[^.?!\n:：→=]{0,30}?(?=\s(?:is|was|es|est|ist)\s))?"
    r"[\s'\"»)\]]*(?:\((?:[^()\n]{0,40})\))?[\s'\"»)\]]*((?:(?:→|->|=>|=|:|：|—|\bis\b|\bwas\b|\bes\b|"
    r"\best\b|\bist\b|\bè\b|\bé\b|\bje\b|\blà\b)\s*)+)(?:(?:the\s+)?(?:answer|respuesta|réponse|antwort|risposta|"
    r"resposta|antwoord|svar|odpowiedź|cevab\w*|odpověď|trả lời(?: là)?)\s*(?:is|es|est|ist|je|là|:|=)?\s*)?"
    r"[\"'«“]?"
    r"((?:Mrs?\.?|Ms\.?|Dr\.?)?\s?[A-Z0-9À-Þ][\w'’-]*"
    r"(?:[ ](?:(?:de|del|la|le|da|di|du|dos|das|van|von|der|den|y)[ ])?[A-Z0-9À-Þ][\w'’-]*){0,4}"
    r"|(?<=[:：→=] )[^\W\d_][\w'’-]{3,40})"
)


# Where a question is asked for an account, not told as a story ("my first car was a Honda").
_SECURITY_WORDS_PATTERN = (
    r"secur|secret|bank|recover|verif|login|sign[ -]?in|segur|sécur|sicher|güvenlik|bezpiecz|bezpečn"
    r"|bảo mật|säker|sikker|veilig|beveilig|контрольн|secrète|secreta|segreta"
)
# Words that make a label such as "Answer:" a security answer's ("Quiz question ... Answer: Paris"
# is not one).
_SECURITY_WORDS = re.compile(_SECURITY_WORDS_PATTERN)
_SECURITY_CONTEXT = re.compile(_SECURITY_WORDS_PATTERN + r"|account|answer|airline|pytanie|fråga")


# A word every question above holds: found first (one cheap scan), the question is then looked
# for around it only.
_QUESTION_ANCHOR = _substrings(
    word_list("""
    maiden|first|grew up|favorite|favourite|middle name|born in|childhood|mascot|secur|secret|pregunta|
    question|frage|domanda|pergunta|fille|geburts|mädchen|soltera|solteira|nubile|meisjes|panieńsk|
    девичь|pytanie|fråga|spørgsmål|spørsmål|vraag|вопрос|質問|问题|질문|soru|answer to|câu hỏi|otázk|grow up|
    answer '|answer "|answer ‘|answer “
    """)
)


# An answer given under its own label, in a message about a security question: "Antwort (von
# mir damals eingegeben): Krümel", "Mình trả lời là Trưng Vương", "-> Larchmont Ave".
_ANSWER_LABEL = re.compile(
    r"(?i)(?:\b(?:answer|antwort|respuesta|réponse|risposta|resposta|odpověď|ответ|cevab\w*|jawaban|trả lời)"
    r"\b[^\n:：?]{0,50}?(?:\bis\b|\bje\b|\bes\b|\best\b|\bist\b|\blà\b|:|：|->|→|=)|[?？]\s*(?:->|→|=>))"
    r"\s*[«\"'“]?([^\W_][^\n\"'”»,.;:()!?]{1,40})"
)


_ANSWER_HINTS = (
    "answer", "antwort", "respuesta", "réponse", "risposta", "resposta", "odpověď", "ответ", "cevab",
    "jawaban", "trả lời", "->", "→", "=>",
)  # fmt: skip


def _labelled_answers(text: str) -> Iterator[Span]:
    for m in _ANSWER_LABEL.finditer(text):
        words = m.group(1).split()[:4]
        value = " ".join(words)
        if len(value) >= 3 and words[0].lower() not in _NOT_ANSWERS:
            yield m.start(1), m.start(1) + len(value), "security_answer", P_PROSE


def _security_answers(text: str, lower: str) -> Iterator[Span]:
    anchor = _first_of(_QUESTION_ANCHOR, lower)
    if anchor < 0:
        return
    about_accounts: bool | None = None  # (read once a question is found: most messages hold none)
    labelled = any(hint in lower for hint in _ANSWER_HINTS)
    if labelled and (
        _SECURITY_WORDS.search(lower) or next(_security_questions(lower, max(0, anchor - 30)), None)
    ):
        yield from _labelled_answers(text)
    labelled = prefilter.may(prefilter.QUESTION_LABEL, text) and _QUESTION_LABEL.search(text)
    if labelled and _SECURITY_WORDS.search(lower):  # not an FAQ about an account
        yield from _qa_answers(text)
    for m in _security_questions(lower, max(0, anchor - 30)):
        if about_accounts is None:
            about_accounts = _SECURITY_CONTEXT.search(lower) is not None
        given = _GIVEN_ANSWER.match(text, m.end())
        answer_given = given.group(1) if given is not None else ""
        if given is not None and (" " in answer_given or answer_given.lower() not in _NOT_ANSWERS):
            yield given.start(1), given.end(1), "security_answer", P_PROSE  # "(first pet) I put Mochi"
            continue
        answer = _ANSWER.match(text, m.end())
        if answer is None:
            bare = _BARE_ANSWER.match(text, m.end()) if about_accounts else None
            if bare is not None:  # "mother's maiden name Brannigan, first school École Jules Ferry"
                yield bare.start(1), bare.end(1), "security_answer", P_PROSE
            continue
        if not about_accounts and not any(c in answer.group(1) for c in "=:→>—"):
            continue  # "my first car was a Corolla": a story, unless set as an answer
        start, end = _core(text, answer.start(2), answer.end(2))
        value = text[start:end].strip()
        if len(value) >= 3 and value.lower() not in _NOT_ANSWERS:
            yield start, end, "security_answer", P_PROSE


# An answer the user says they gave, right after the question: "(first pet) I put Mochi", "? I said
# The Phantom Tollbooth", "... with Coimbra", "puse Biscuit McFluff", "j'ai mis Minou".
_GIVEN_ANSWER = re.compile(
    r"[^.!\n]{0,60}?(?i:\b(?:i|we)\s+(?:always\s+|just\s+|originally\s+)?(?:put|said|answered|gave|used|typed|"
    r"entered|wrote|chose|picked|set)(?:\s+(?:it\s+(?:as|to)|in|down|as))?|\bwith|\bpuse|\bescrib[íi]|"
    r"\brespond[íi]|\bj'ai\s+(?:mis|répondu|écrit)|\bho\s+(?:messo|scritto|risposto)|\bcoloquei|\bescrevi|"
    r"\bhabe\s+ich|\bik\s+(?:heb|vulde))\s+(?:(?:my|mi|mon|ma|mein|meine)\s+\w+\s*,\s*)?[\"'«“‘]?"
    r"((?:Mrs?\.?|Ms\.?|Dr\.?|St\.)?\s?[A-ZÀ-Þ][\w'’-]*(?:[ ](?:(?:de|del|la|le|da|di|du|van|von|y)[ ])?"
    r"[A-ZÀ-Þ][\w'’-]*){0,3})"
)
# A name right after the question, with no link, where the message is about an account's questions.
_BARE_ANSWER = re.compile(r"[ \t]+((?:Mrs?\.?|Ms\.?|Dr\.?)?\s?[A-ZÀ-Þ][\w'’-]+(?:[ ][A-ZÀ-Þ][\w'’-]+){0,3})")
# Questions and answers under the labels "Q:" and "A:" ("Q: first car? A: rusty Fiat Panda").
_QUESTION_LABEL = re.compile(r"Q(?<!\wQ)\s?[:：.]")  # ("Q" first: `re` finds it in C)
_ANSWER_UNDER_A = re.compile(
    r"(?<!\w)A\s?[:：]\s*([^\W_][^\n\"'”»,.;:()!?]{1,40}?)(?=\s*(?:$|[\n.;,!]|Q\s?[:：.]))"
)


def _qa_answers(text: str) -> Iterator[Span]:
    for m in _ANSWER_UNDER_A.finditer(text):
        if m.group(1).split()[0].lower() not in _NOT_ANSWERS:
            yield m.start(1), m.end(1), "security_answer", P_PROSE


# Words that may follow a question without being its answer ("security question: I", "... is The").
_NOT_ANSWERS = frozenset(("the", "i", "it", "my", "a", "an", "yes", "no", "what", "which", "who", "how"))


# An app password as Google and Apple show it: four groups of four small letters, after its name.
_APP_PASSWORD = re.compile(r"(?<![\w-])[a-z]{4}(?: [a-z]{4}){3}(?![\w-])")
_APP_PASSWORD_CUE_CHARS = 40


_APP_PASSWORD_CUES = Substrings(
    word_list("""
    pass|пароль|contraseña|mot de passe|passwort|senha|parola|wachtwoord|hasło|heslo|şifre|密码|密碼|
    パスワード|비밀번호
    """)
)


# The name Google and Apple give such a password ("app password", "app-specific password"): where
# the message says it, the four groups are one wherever they stand (a config line, then "the Gmail
# app password has spaces").
_APP_PASSWORD_NAME = re.compile(
    r"app[ -](?:specific[ -])?passwor|app-passwort|anwendungspasswort|mot de passe d'application"
    r"|contraseña de aplicación|senha de app|password (?:per le |dell')?app|пароль приложени"
    r"|应用专用密码|应用密码|アプリ ?パスワード|앱 ?비밀번호"
)


# The three groups after a space that every app password holds: a pattern that starts with a literal
# space is skipped through in C (1 µs on 300 characters), where the whole one tries its look-behind
# at every position (6 µs).
_APP_PASSWORD_GROUPS = re.compile(r" [a-z]{4} [a-z]{4} [a-z]{4}")


def _app_passwords(text: str, lower: str) -> Iterator[Span]:
    if not prefilter.may(prefilter.APP_PASSWORD_GROUPS, text) or _APP_PASSWORD_GROUPS.search(text) is None:
        return
    named = _APP_PASSWORD_NAME.search(lower) is not None
    for m in _APP_PASSWORD.finditer(text):
        if _said_in_words(m.group()):
            continue  # "please don't send them over chat": four words of four letters, no password
        if named or _APP_PASSWORD_CUES.search(lower[max(0, m.start() - _APP_PASSWORD_CUE_CHARS) : m.start()]):
            yield m.start(), m.end(), "password", P_PROSE


def _said_in_words(groups: str) -> bool:
    """Whether two of an app password's four groups are words (English's small words, or a BIP-39
    list's): its 16 letters are drawn at random, and a group of four random letters is one of those
    words once in a few hundred, two of four once in tens of thousands."""
    return sum(group in _four_letter_words() for group in groups.split()) >= 2


@functools.cache
def _four_letter_words() -> frozenset[str]:
    import stopwordsiso

    words = set(stopwordsiso.stopwords("en")) | _seed_words()
    return frozenset(word for word in words if len(word) == 4 and word.isalpha())


# A table whose header names a column of passwords or codes ("site | user | password", a CSV's
# "name,login,pwd"): that column of every row below holds one.
_CELL_SEPARATORS = ("|", "\t", ",", ";")


def _password_columns(text: str, lower: str) -> Iterator[Span]:
    lines = lower.split("\n")
    offset = 0
    for index, line in enumerate(lines):
        column, separator = _secret_column(line)
        # A header is first: the line above is no row of the table (its cells are not as many; a
        # sentence with a comma introduces a CSV export)
        if column is not None and not (index and lines[index - 1].count(separator) == line.count(separator)):
            yield from _column_cells(text, offset + len(line) + 1, lines[index + 1 :], column, separator)
            return
        offset += len(line) + 1


def _secret_column(header: str) -> tuple[int | None, str]:
    for separator in _CELL_SEPARATORS:
        cells = [cell.strip() for cell in header.strip().strip("|").split(separator)]
        if len(cells) < 2:
            continue
        named = [
            column
            for column, cell in enumerate(cells)
            if cell in _PASSWORD_NAME_SET or cell in _CODES or cell in ("pwd", "pass", "pw")
        ]
        if named:
            # ("title,url,login,password": a "login" column holds the user's name, beside a password's)
            return next((column for column in named if cells[column] != "login"), named[0]), separator
    return None, ""


def _column_cells(text: str, offset: int, lines: list[str], column: int, separator: str) -> Iterator[Span]:
    for line in lines:
        row = text[offset : offset + len(line)]
        lead = len(row) - len(row.lstrip().lstrip("|")) if separator == "|" else 0
        cells = row[lead:].split(separator)
        if len(cells) > column and not set(row.strip()) <= set("|-: \t"):
            at = offset + lead + sum(len(cell) + 1 for cell in cells[:column])
            cell = cells[column]
            start = at + len(cell) - len(cell.lstrip())
            start, end = _core(text, start, start + len(cell.strip()))
            value = text[start:end]
            if len(value) >= 4 and " " not in value and not is_placeholder(value):
                yield start, end, "password", P_PROSE
        offset += len(line) + 1


# A password-reset tool's output: "Password for the [user] user successfully reset.\nNew value: X"
# (elasticsearch-reset-password and its kind print the generated password so, on a line alone).
_RESET_NEW_VALUE = re.compile(r"(?im)^[ \t]*new value:[ \t]*(\S{8,128})[ \t]*$")
_RESET_CUE = re.compile(r"password\b[^\n]{0,60}\breset\b|\breset[ -]password\b|\breset the password\b")


def detect(text: str, lower: str) -> Iterator[Span]:
    # (each step skipped where what it needs is missing: redaction runs on every message)
    digits = count_digits(text)
    yield from _named_values(text, lower)
    if _APP_PASSWORD_CUES.search(lower):
        yield from _app_passwords(text, lower)
    if "BEGIN LICENSE" in text:
        yield from _licence_blocks(text)
    if text.count("\n") >= 2:
        # A list's, an arrow list's and a table's values are taken under a name of a password or a
        # code (in a label, the header above, a column's name): none of those words, none of them.
        if _NAMES.occurs(lower):
            yield from _credential_list(text, lower)
            yield from _arrow_list(text, lower)
            if any(separator in text for separator in _CELL_SEPARATORS):
                yield from _password_columns(text, lower)
        yield from _chat_answers(text, lower)
    if any(hint in lower for hint in _COMPOUND_HINTS):
        yield from _compound_code_names(text, lower)
    long_tokens = list(_LONG_TOKEN.finditer(text)) if digits else []  # (every value below holds a digit)
    if digits >= _HEX_VALUE_DIGITS:
        yield from _named_random_values(text, lower, long_tokens)
    yield from _security_answers(text, lower)
    if _speaks_of_encoding(lower) and _PASSWORDISH.search(_SAID_NOT_SECRET.sub(" ", lower)):
        yield from _encoded_passwords(text)
    if "/" in text:
        yield from _credential_pairs(text, lower)
    if "if " in lower and ("try " in lower or "use " in lower):
        yield from _alternatives(text, lower)
    if _TRIED_HINTS.search(lower) and _ALTERNATIVE_CUES.search(lower):
        yield from _tried_values(text, lower)
    yield from _unnamed_changes(text, lower)
    if "sess" in lower:
        yield from _session_ids(text, lower)
    if "new value:" in lower and "password" in lower:
        for m in _RESET_NEW_VALUE.finditer(text):
            if _RESET_CUE.search(lower, max(0, m.start() - 400), m.start()):
                yield m.start(1), m.end(1), "password", P_PROSE
    if "psk" in lower:
        for m in _WPA_PSK_HEX.finditer(text):
            yield m.start(1), m.end(1), "password", P_PROSE
    if _JOIN_CUES.search(lower):
        yield from _pieces(text)
    if _PIECE_NAMES.occurs(lower):
        yield from _named_pieces(text, lower)
    if digits:  # every shaped token holds a digit
        yield from _shaped_tokens(text, long_tokens)
    yield from _read_out(text, lower)
    if _CASE_NAMES.occurs(lower):
        yield from _cased_letters(text, lower)
    found = _letter_words(lower)
    yield from _obfuscated(text, lower, found, digits)
    yield from _seed_phrases(lower, found)
