# ruff: noqa: E501, E731
"""redaction_lookalikes_tune: written after the check half, different phrasings and formats."""

import sys
from pathlib import Path

# the value helpers are the check half's (one copy for both halves)
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "redaction_lookalikes_check" / "gen"))
from common import V, b64text, luhn_ok, write

v = V(20261207)
B = []
a = B.append

# hashes / commits / checksums
a(f"Revert commit {v.hexs(40)} – it broke the login page on Safari.")
a(f"PR #{v.digits(4)} was squashed into {v.hexs(10)}, where did my other commits go?")
a(f"git show {v.hexs(12)} --stat lists 14 files changed, 302 insertions(+), 88 deletions(-)")
a(f"Merge: {v.hexs(7)} {v.hexs(7)}\nAuthor: Priya <priya@example.com>\nDate: Tue Dec 1 10:02:11 2026 +0100")
a(f"SHA256 (node-v20.11.1-darwin-arm64.tar.gz) = {v.hexs(64)}")
a(f"Get-FileHash .\\setup.exe -Algorithm SHA256\n\nAlgorithm  Hash\n---------  ----\nSHA256     {v.HEX(64)}")
a(f"certutil -hashfile backup.zip MD5 printed {v.hexs(32)}, same as on the NAS.")
a(f"checksum mismatch: expected {v.hexs(64)}, got {v.hexs(64)} – corrupted download?")
a(
    f'yarn.lock:\n"chalk@^4.1.0":\n  version "4.1.2"\n  resolved "https://registry.yarnpkg.com/chalk/-/chalk-4.1.2.tgz#{v.hexs(40)}"\n  integrity {v.sri()}'
)
a(
    f'<script src="https://cdn.jsdelivr.net/npm/bootstrap@5.3.3/dist/js/bootstrap.bundle.min.js" integrity="sha384-{v.b64(64)}" crossorigin="anonymous"></script>'
)
a(f"image: registry.gitlab.com/acme/worker@sha256:{v.hexs(64)}")
a(f"Digest: sha256:{v.hexs(64)}\nStatus: Downloaded newer image for redis:7-alpine")
a(f"Der Commit-Hash ist {v.hexs(40)}, den brauche ich für das Release-Ticket.")
a(f"El checksum SHA-1 del archivo es {v.hexs(40)} según la página de descargas.")
a(f"Il digest dell'immagine è sha256:{v.hexs(64)}.")
a(f'cargo Cargo.lock: checksum = "{v.hexs(64)}" for serde 1.0.203')
a(f"go.sum line: golang.org/x/text v0.14.0 h1:{v.b64(43)}=")
a(f"Poetry lock has hash sha256:{v.hexs(64)} for urllib3-2.2.1-py3-none-any.whl")
a(f"CRC32 of the frame is 0x{v.HEX(8)}, the receiver computes 0x{v.HEX(8)}")
a(f"The perceptual hash of both photos is {v.hexs(16)} so they're duplicates.")
a(f"Terraform state lineage {v.uuid()}, serial 214")

# ids
a(f"Request ID: {v.uuid()} – Microsoft error AADSTS50011, redirect URI mismatch.")
a(f"X-Request-Id {v.hexs(32)} came back with a 502 from the upstream.")
a(f"The trace_id is {v.hexs(32)} and span_id {v.hexs(16)} in Jaeger, look at the slow span.")
a(
    f'{{"level":"warn","ts":"2026-12-02T11:47:09Z","request_id":"{v.uuid()}","user_id":{v.digits(6)},"msg":"rate limited"}}'
)
a(f"Datadog trace {v.digits(19)} shows the N+1 query.")
a(f"Google Cloud operation id operation-{v.digits(13)}-{v.hexs(13)}-{v.hexs(8)}-{v.hexs(8)}")
a(f"CloudWatch log stream 2026/12/03/[$LATEST]{v.hexs(32)}")
a(f"Idempotency-Key: {v.uuid()} – do I need a new one per retry?")
a(f"Numer zgłoszenia w serwisie: {v.uuid()}")
a(f"ID запроса {v.uuid()}, ошибка 500 на проде.")
a(f"Event id evt_{v.alnum(24)} from the Stripe webhook was delivered twice.")
a(f"Session replay id {v.uuid()} in LogRocket shows the user clicking 'pay' twice.")
a(f"Azure correlation ID {v.uuid()} and activity ID {v.uuid()} from the portal error.")
a(f"ULID {v.alnum_up(26)} sorts by time, right?")
a(f"Snowflake id {v.digits(19)} from the tweet URL – can I get the timestamp from it?")

# orders, tickets, bookings
a(f"Order #{v.digits(4)}-{v.digits(4)}-{v.digits(4)} from the webshop never shipped, customer is angry.")
a(f"Your flight BA{v.digits(4)} LHR-JFK, booking code {v.alnum_up(6)}, e-ticket 125{v.digits(10)}")
a(f"Royal Mail tracking {v.alnum_up(2)}{v.digits(9)}GB says 'we have your item'.")
a(f"La referencia de la reserva es {v.alnum_up(8)} y el número de vuelo IB{v.digits(4)}.")
a(f"Référence de dossier SNCF {v.alnum_up(6)}, train TGV {v.digits(4)} Paris → Lyon.")
a(f"GitHub issue #{v.digits(5)} and Linear ticket ENG-{v.digits(4)} describe the same bug.")
a(f"ServiceNow incident INC{v.digits(7)} – priority 2, assigned to network team.")
a(f"PostNL track & trace 3S{v.alnum_up(4)}{v.digits(9)}, bezorging vandaag.")
a(f"Invoice number 2026/{v.digits(4)}, due 31.12.2026, amount €1,249.00")
a(f"Purchase order PO{v.digits(8)} needs approval from finance before Friday.")
a(f"Airbnb reservation HM{v.alnum_up(8)} – host cancelled, am I refunded automatically?")
a(f"Número de pedido {v.digits(10)}, o código de rastreio é NL{v.digits(9)}BR.")
a(f"快递单号 SF{v.digits(13)}，显示已签收但我没收到。")
a(f"Case ID {v.digits(5)}-{v.digits(8)} with AWS support about the quota increase.")
a(f"Concert ticket order {v.digits(9)}, section 112, row K, seats 7-8.")
a(f"Claim number CLM-{v.digits(7)}-{v.alnum_up(2)} for the water damage, adjuster visits Monday.")
a(f"Aktenzeichen {v.digits(3)} C {v.digits(4)}/26 – der Termin beim Amtsgericht ist am 12.01.")
a(f"Customer number {v.digits(8)} at the electricity provider, meter reading due.")

# versions/builds
a("Is 1.0.0-alpha.1 < 1.0.0-alpha.beta < 1.0.0-beta.2 < 1.0.0 in semver precedence?")
a("python 3.11.9, Django 5.0.6, celery 5.4.0, redis-py 5.0.4 – the worker hangs on startup.")
a(f"Build {v.digits(4)}.{v.digits(3)}.{v.digits(2)} of the desktop app, channel beta, commit {v.hexs(8)}")
a(f"CircleCI pipeline {v.uuid()} workflow build-and-test failed on the lint job.")
a("Chrome Version 131.0.6778.86 (Official Build) (arm64) shows the layout bug.")
a("Kernel 6.8.0-49-generic #49~22.04.1-Ubuntu SMP, driver nvidia 550.120")
a(f"Azure DevOps build 2026{v.digits(4)}.{v.digits(1)} artifact drop_{v.hexs(8)}")
a("Gradle 8.7, AGP 8.4.1, Kotlin 1.9.23, compileSdk 34, minSdk 24")

# public keys, fingerprints
a(f"Here is my public SSH key for the deploy user: {v.ed25519_pub()} deploy@ci")
a(
    f"ECDSA key fingerprint is SHA256:{v.b64(43)}.\nAre you sure you want to continue connecting (yes/no/[fingerprint])?"
)
a(f"Meine PGP-Schlüssel-ID ist 0x{v.HEX(16)}, Fingerabdruck {v.HEX(40)}.")
a(f'Pin this cert: pin-sha256="{v.b64(43)}=" – it\'s the public key hash for HPKP.')
a(f"TLS cert serial number {v.HEX(32)}, issuer Let's Encrypt R11, valid until Mar 2027.")
a(f"WireGuard peer public key: {v.b64(43)}= (that's the server's public one, shared with every client)")
a(f"minisign public key: RW{v.b64(54)} – use it to verify the release.")
a(f"The SSH-RSA host key MD5 fingerprint is {':'.join(v.hexs(2) for _ in range(16))}")
a(
    f"Nostr npub1{''.join(v.pick('qpzry9x8gf2tvdw0s3jn54khce6mua7l') for _ in range(58))} is my public profile, follow me!"
)
a(
    f"-----BEGIN CERTIFICATE-----\n{v.b64(64)}\n{v.b64(64)}\n{v.b64(40)}==\n-----END CERTIFICATE-----\nWhy does the browser say this cert is untrusted?"
)

# crypto public addresses
a(f"My ENS points to {v.eth()} – send the NFT there.")
a(f"Bitcoin legacy address 1{v.b58(33)} received 0.004 BTC, confirmations 3.")
a(f"Ethereum transaction {('0x' + v.hexs(64))} failed with 'out of gas'.")
a(f"USDT (TRC20) address T{v.b58(33)} for the invoice payment.")
a(f"Block hash 0000000000000000000{v.hexs(45)} at height 871{v.digits(3)}")
a(f"Mi dirección de Ethereum es {v.eth()}, es pública, no pasa nada.")

# failing-checksum references
a(f"Kundenreferenz {v.card_bad_luhn('4')} auf der Rechnung – gehört die zu uns?")
a(f"The IBAN field example in our form placeholder is {v.iban_bad('GB', 18)}; it fails mod-97 on purpose.")
a(
    f"Transaction reference {' '.join([v.card_bad_luhn('3')[i : i + 4] for i in range(0, 16, 4)])} on the bank statement."
)
a(f"Membership number {v.card_bad_luhn('9')} for the gym, they want it on the cancellation letter.")
a(f"Payment was made with Mastercard ending 4{v.digits(3)}, auth code {v.alnum_up(6)}.")
a(f"Référence de virement {v.alnum_up(4)}{v.digits(12)}, motif : loyer décembre")
a("BLZ 100 500 00, BIC BELADEBEXXX – that's the Berliner Sparkasse routing info for the event account.")
a("Sort code 20-00-00 is just Barclays' generic one, what is mine?")
a(f"Card shown on screen: XXXX-XXXX-XXXX-{v.digits(4)}, exp **/**")

# ISBN/EAN
a("Bitte bestell mir ISBN 978-3-16-148410-0 in der Bibliothek.")
a("The EAN-13 code 5901234123457 – how is its check digit computed?")
a("ISSN 0028-0836 is Nature, 0036-8075 is Science.")
a("GTIN 00012345600012 on the pallet label, SSCC 00340123450000000008")
a("Le livre a l'ISBN 2-07-036822-X, édition Folio.")
a("ISMN 979-0-2600-0043-8 for the sheet music")
a("ORCID 0000-0002-1825-0097 is the example from their docs.")

# phones / addresses / coords
a("Please call +1 (212) 555-0187 ext. 42 tomorrow morning.")
a("Il mio numero è +39 347 123 4567, scrivimi su WhatsApp.")
a("Adresse: 12 rue de Rivoli, 75004 Paris, tél. +33 1 42 76 40 40")
a("Mój telefon: +48 601 234 567, kod pocztowy 00-950 Warszawa.")
a("Telefon: +90 532 123 45 67, posta kodu 34710 Kadıköy.")
a("GPS: -33.8568, 151.2153 – that's the Opera House.")
a("UTM 33U 389847 5819753 for the campsite.")
a("Our office: 1600 Amphitheatre Pkwy, Mountain View, CA 94043, +1 650-253-0000")
a("電話番号は 03-1234-5678、郵便番号は 150-0001 です。")
a("Canadian postal code K1A 0B1 and Dutch 1012 JS – how to validate both in a regex?")

# colours/css/js/maths/notation
a("Theme tokens: --primary: #6750A4; --on-primary: #FFFFFF; --surface: #FFFBFE; --outline: #79747E;")
a("What hex is Pantone 2728 C? I have #0047BB from a site.")
a(
    "@media (max-width:768px){.nav{flex-direction:column}.nav a{padding:12px 16px;border-bottom:1px solid #e5e7eb}}"
)
a(
    "(()=>{const a=document.querySelectorAll('[data-t]');a.forEach(e=>e.addEventListener('click',()=>e.classList.toggle('on')))})();"
)
a("1.d4 d5 2.c4 e6 3.Nc3 Nf6 4.Bg5 Be7 5.e3 O-O 6.Nf3 h6 – Queen's Gambit Declined?")
a("Position after move 30: 8/5pk1/6p1/3R4/8/6P1/5PK1/3r4 w - - 0 30, is it a draw?")
a("SGF: (;GM[1]FF[4]SZ[19]KM[6.5];B[qd];W[dc];B[pq];W[oc];B[dp])")
a("The mRNA sequence AUGGCUAGCUUCGGAUCCAAGUAA codes for how many amino acids?")
a("CRISPR guide: GACGCATAAAGATGAGACGCTGG – the PAM is TGG, right?")
a("Prove that sum_{k=1}^{n} k^3 = (n(n+1)/2)^2 by induction.")
a("e = 2.71828182845904523536028747135266249775724709369995")
a("Base conversion: 0b101101 = 0x2D = 0o55 = 45")
a("Sorting 9f3a, 1b2c, 7e4d, a0a0 as hex numbers gives what order?")
a("A hex dump line: 00000010: 0200 3e00 0100 0000 6010 0000 0000 0000  ..>.....`.......")
a("Bingo card: B 7 12 3 | I 22 19 | N 40 free 33 | G 51 48 | O 70 66")

# base64
a(f"Decode please: {b64text('The quarterly report is due on the fifteenth, not the tenth.')}")
a(
    f"The QR code contains this base64 blob: {b64text('BEGIN:VCARD VERSION:3.0 FN:Jan Novak TEL:+420 601 123 456 END:VCARD')}"
)
a("background-image:url(data:image/gif;base64,R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==)")
_p = b64text('{"sku":"MUG-BLUE-350","qty":3,"warehouse":"LEJ-2"}')
a(f"Kafka message value (base64): {_p}")
a(f"Was bedeutet dieser Base64-Text? {b64text('Treffen wir uns um acht am Bahnhof?')}")
a(f"font-face src: url(data:font/woff2;base64,d09GMgABAAAAA{v.b64(120)}) format('woff2')")

# logs and URLs
a(
    f"Dec  3 07:12:44 web01 sshd[{v.digits(5)}]: Accepted publickey for deploy from 198.51.100.7 port 51234 ssh2: ED25519 SHA256:{v.b64(43)}"
)
a(
    f"[2026-12-03 07:15:02] production.ERROR: SQLSTATE[40001] deadlock (order_id={v.digits(7)}, tx={v.hexs(12)})"
)
a("https://news.example.com/article/8841?utm_source=twitter&utm_medium=social&utm_content=thread&page=2")
a(f"https://app.example.com/reports?id={v.digits(6)}&from=2026-11-01&to=2026-11-30&tz=Europe%2FBerlin")
a(
    f"https://www.booking.com/hotel/pt/casa-azul.html?aid={v.digits(6)}&checkin=2026-12-20&checkout=2026-12-23&group_adults=2"
)
a(f"https://calendar.google.com/calendar/event?eid={v.b64(48).replace('+', 'A').replace('/', 'B')}")
a(
    f"Stack Overflow link: https://stackoverflow.com/questions/{v.digits(8)}/how-to-reset-a-password-field-in-react?noredirect=1&lq=1"
)
a(f"https://twitter.com/someone/status/{v.digits(19)}?s=20&t={v.alnum(22)}")
a(f"https://www.figma.com/file/{v.alnum(22)}/Onboarding-v3?node-id=12-345&t=view")
a(f"GET /v1/orders?cursor={b64text('created_at:2026-11-30T10:00:00Z')}&limit=100 returns an empty list")
a(f'k8s event: Pulled image "nginx:1.27" in 2.1s, container id containerd://{v.hexs(64)}')
a(
    f"git clone https://github.com/{v.pick(['tiangolo', 'pallets', 'psf'])}/project.git && git checkout {v.hexs(40)}"
)

# placeholders
a("Put your key in config.yaml as api_key: <REPLACE_ME> and never commit it.")
a("Authorization: Bearer <token>  — what goes in <token> for the client credentials flow?")
a('export AWS_SECRET_ACCESS_KEY="..."  # get it from the console')
a('password = os.environ["DB_PASSWORD"]  # don\'t hardcode it')
a("The README says to run `login --token $NPM_TOKEN`, where is $NPM_TOKEN supposed to come from?")
a("Contraseña: [tu contraseña aquí]")
a("Set SLACK_WEBHOOK_URL=https://hooks.slack.com/services/XXX/YYY/ZZZ in your env.")
a("pwd: •••••••• – the screenshot hides it, just tell me how to change it.")
a("client_secret: %CLIENT_SECRET% is substituted by the Windows installer.")
a("API_TOKEN=your-token-here\nAPI_URL=https://api.example.com")
a("password: !vault |\n  $ANSIBLE_VAULT;1.1;AES256 (the encrypted blob follows, I'll not paste it)")
a("Passwort: xxxxxxxx (ich hab's unkenntlich gemacht)")
a("token=REDACTED&user=alice in the log, so the redaction middleware works.")
a('secret: "{{ .Values.auth.secret }}" in the Helm template renders empty.')

# docs / code about secrets
a("secrets:\n  API_KEY: ${{ secrets.API_KEY }}\n  SENTRY_DSN: ${{ vars.SENTRY_DSN }}")
a("Why does bcrypt truncate passwords longer than 72 bytes?")
a("Our password manager policy: 20 random characters, unique per site, 2FA everywhere.")
a("My wife keeps asking me for the Wi-Fi password, should I just print a QR code for guests?")
a("if (!token) { throw new Error('missing token'); } – is this enough validation?")
a("DB_PASSWORD=\nREDIS_PASSWORD=\nSMTP_PASSWORD=\n(all empty in .env.example)")
a("Was ist sicherer: ein langes Passwort oder ein kurzes mit Sonderzeichen?")
a("Comment stocker un jeton d'API en toute sécurité dans une application mobile ?")
a("¿Dónde guardo el token de acceso? ¿En una variable de entorno o en un archivo?")
a("Qual é a diferença entre senha e PIN no aplicativo do banco?")
a("如何安全地存储用户密码？用 argon2 还是 bcrypt？")
a("비밀번호를 잊어버렸어요. 어떻게 재설정하나요?")
a("Password reset emails take 10 minutes to arrive, is that normal for SES?")
a("The JWT secret should be at least 256 bits for HS256, how do I generate one?")
a("vault kv get -field=password secret/app/db  – prints nothing, permissions?")
a("Hasło do konta bankowego zmieniam co kwartał, czy to ma sens?")
a("PIN code reset at the branch took ten minutes, they mail the new one.")

# serials / models / plates
a(f"Samsung TV model QE55Q80CATXXU, serial {v.alnum_up(14)}, firmware 1402.5")
a("Car registration: B-XY 2024 E (electric), insured with policy number 74-1.234.567-8")
a("My motorbike plate is 7ABC123 in California, renewal due in March.")
a(f"Bosch part number 0 986 {v.digits(3)} {v.digits(3)}, fits the 2015 Passat.")
a(f"Router model TL-WR841N v14, MAC 50:C7:BF:{v.HEX(2)}:{v.HEX(2)}:{v.HEX(2)}, serial {v.digits(13)}")
a(f"Engine number {v.alnum_up(3)}{v.digits(6)} and chassis VF1{v.alnum_up(5)}{v.digits(9)}")
a("Targa AB 123 CD, la multa è arrivata a casa.")
a(f"Printer HP LaserJet M404dn, product number W1A53A, serial VNB{v.alnum_up(7)}")
a(f"Battery cell LG INR18650 MJ1, lot {v.alnum_up(10)}")
a("Matrícula 1234 BCD, el coche está en el parking del aeropuerto.")

# misc ids
a(f"Stripe product prod_{v.alnum(14)} and subscription sub_{v.alnum(24)} got out of sync.")
a(f"Twilio message SID SM{v.hexs(32)} shows status 'undelivered'.")
a(f"Firebase UID {v.alnum(28)} has no custom claims set.")
a(f"Auth0 user id auth0|{v.hexs(24)} can't log in.")
a(f"Cognito user pool id eu-west-1_{v.alnum(9)} and app client id {v.alnum(26).lower()}")
a(f"The OAuth client ID is {v.digits(12)}-{v.alnum(32).lower()}.apps.googleusercontent.com (the public one).")
a(f"Google Tag Manager GTM-{v.alnum_up(7)}, Meta Pixel {v.digits(15)}")
a(f"Notion page id {v.hexs(32)} embeds the roadmap.")
a(f"Airtable base app{v.alnum(14)}, table tbl{v.alnum(14)}")
a(f"Vercel deployment dpl_{v.alnum(28)} is the one that broke images.")
a(f"Postgres OID {v.digits(5)}, relfilenode {v.digits(5)}, txid {v.digits(10)}")
a(f"Kubernetes node ip-10-0-{v.digits(2)}-{v.digits(3)}.eu-west-1.compute.internal is NotReady.")
a(f"Terraform resource aws_security_group.sg-0{v.hexs(16)} has drift")
a(f"My Steam ID is 7656119{v.digits(10)}, add me for co-op.")
a(f"Telegram group id -100{v.digits(10)}, bot can't read messages there.")
a(f"Apple Team ID {v.alnum_up(10)}, bundle id com.acme.notes")
a(f"Patent number US {v.digits(2)},{v.digits(3)},{v.digits(3)} B2 covers the hinge design.")
a(f"Die Steuernummer der Firma steht im Impressum: 143/{v.digits(3)}/{v.digits(5)}")
a(f"VAT number on the invoice: DE{v.digits(9)} (public, printed on every invoice).")
a(f"Container ID {v.hexs(12)} exited with code 137.")
a(f"Heap dump saved to /tmp/java_pid{v.digits(5)}.hprof, 2.3 GB")
a(f"Dataset DOI 10.5281/zenodo.{v.digits(7)}, version v2")
a(f"Meeting: https://meet.google.com/{v.alnum(3).lower()}-{v.alnum(4).lower()}-{v.alnum(3).lower()} at 10:30")
a(f"Tesla order RN{v.digits(9)}, delivery window 12-19 Jan.")
a(f"The exam registration number is {v.digits(10)}, results come out on 20 Feb.")
a(f"Blood test sample barcode {v.digits(12)} – the lab lost it?")
a(f"Library card barcode 2{v.digits(13)} expired, can I renew online?")
a("Hash of the empty string: e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")

benign = B
S = []
s = lambda m, secs, kinds: S.append((m, secs, kinds))
pw = "Kestrel-" + v.alnum(6) + "9!"
s(f"remember my work laptop password: {pw}", [pw], ["password"])
k = "AKIA" + v.alnum_up(16)
sk = v.b64(40).replace("+", "q").replace("/", "w")
s(
    f"[default]\naws_access_key_id={k}\naws_secret_access_key={sk}",
    [k, sk],
    ["aws_access_key_id", "aws_secret_access_key"],
)
g = "github_pat_" + v.alnum(22) + "_" + v.alnum(59)
s(f"fine-grained PAT for the bot: {g}", [g], ["github_token"])
st = "rk_live_" + v.alnum(24)
s(f"stripe restricted key {st} for the reporting job", [st], ["stripe_restricted_key"])
db = v.alnum(14)
s(f"mysql://root:{db}@10.0.3.12:3306/shop", [db], ["db_password"])
sl = f"https://hooks.slack.com/services/T{v.alnum_up(8)}/B{v.alnum_up(10)}/{v.alnum(24)}"
s(f"post alerts to {sl}", [sl.rsplit("/", 1)[1]], ["slack_webhook"])
wifi = "Kaffeetasse" + v.digits(3) + "?"
s(f"WLAN-Schlüssel: {wifi}", [wifi], ["wifi_password"])
oa = "sk-" + v.alnum(48)
s(f"OPENAI_API_KEY={oa}", [oa], ["openai_api_key"])
mdp = "Lune" + v.alnum(5) + "!" + v.digits(3)
s(f"le mot de passe du compte admin est {mdp}", [mdp], ["password"])
while True:
    c = "5" + v.pick("12345") + v.digits(14)
    if luhn_ok(c):
        break
cs = f"{c[:4]}-{c[4:8]}-{c[8:12]}-{c[12:]}"
s(f"mastercard number {cs}, cvv 4{v.digits(2)}", [cs], ["card_number"])
pin = v.digits(6)
s(f"the door code / PIN for the building is {pin}", [pin], ["pin"])
gl = "glpat-" + v.alnum(20)
s(f"git remote set-url origin https://oauth2:{gl}@gitlab.com/acme/api.git", [gl], ["gitlab_token"])
body = v.b64(64)
s(
    f"-----BEGIN RSA PRIVATE KEY-----\n{body}\n{v.b64(64)}\n-----END RSA PRIVATE KEY-----",
    [body],
    ["private_key"],
)
mp = v.alnum(18)
s(f"MONGO_URI=mongodb+srv://admin:{mp}@cluster0.ab12c.mongodb.net/app", [mp], ["db_password"])
ant = "sk-ant-api03-" + v.alnum(80)
s(f"claude key: {ant}", [ant], ["anthropic_api_key"])
ctr = "Girasol" + v.digits(4) + "*"
s(f"mi contraseña de netflix es {ctr}", [ctr], ["password"])
tg = f"{v.digits(10)}:AA{v.alnum(33)}"
s(f"telegram bot token {tg}", [tg], ["telegram_bot_token"])
sg = "SG." + v.alnum(22) + "." + v.alnum(43)
s(f"SENDGRID_API_KEY={sg}", [sg], ["sendgrid_api_key"])
ru = "Zvezda" + v.digits(4) + "#"
s(f"мой пароль от почты {ru}", [ru], ["password"])
hf = "hf_" + v.alnum(34)
s(f"huggingface-cli login --token {hf}", [hf], ["huggingface_token"])

write(sys.argv[1], benign, S)
print(len(benign), len(S))
