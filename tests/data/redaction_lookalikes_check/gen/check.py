# ruff: noqa: E501, E731
"""redaction_lookalikes_check: written first; only ever measured."""

import sys

from common import V, b64text, luhn_ok, write

v = V(20261206)
B = []
a = B.append

# --- commit SHAs, hashes, checksums
a(f"git bisect says the regression came in with {v.hexs(40)}, can you help me read that diff?")
a(f"Cherry-pick {v.hexs(7)} and {v.hexs(7)} onto release/2.4 please, the rest can wait.")
a(
    f"`git log --oneline -3`\n{v.hexs(7)} fix flaky retry test\n{v.hexs(7)} bump deps\n{v.hexs(7)} Merge pull request #412 from feature/csv-export"
)
a(f"The tag v3.1.0 points at commit {v.hexs(40)} but the changelog says otherwise, weird.")
a(
    f"$ sha256sum ubuntu-24.04.1-live-server-amd64.iso\n{v.hexs(64)}  ubuntu-24.04.1-live-server-amd64.iso\ndoes this match the published SHA256SUMS?"
)
a(f"md5 of the export file is {v.hexs(32)}, same as yesterday so nothing changed")
a(f"SHA-1 checksum of the firmware blob: {v.hexs(40)} (from the vendor's download page)")
a(
    f'Here\'s the lockfile entry that keeps changing:\n"node_modules/lodash": {{\n  "version": "4.17.21",\n  "resolved": "https://registry.npmjs.org/lodash/-/lodash-4.17.21.tgz",\n  "integrity": "{v.sri()}"\n}}'
)
a(f"FROM python:3.12-slim@sha256:{v.hexs(64)}\nwhy does pinning by digest break renovate?")
a(f"docker images --digests shows {v.hexs(64)[:12]} for the app image, digest sha256:{v.hexs(64)}")
a(
    f"Die Prüfsumme (SHA-256) der heruntergeladenen Datei lautet {v.hexs(64)} – stimmt das mit der Webseite überein?"
)
a(f"Le hash du fichier est {v.hexs(40)}, je l'ai comparé avec celui du site.")
a(f"blake2b digest of the dataset shard: {v.hexs(64)}")
a(f"pip install --require-hashes keeps failing on this line:\nrequests==2.32.3 --hash=sha256:{v.hexs(64)}")
a(f'The ETag header came back as "{v.hexs(32)}" on both requests, so caching works.')
a(
    f"IPFS CID for the paper PDF: bafybei{''.join(v.pick('abcdefghijklmnopqrstuvwxyz234567') for _ in range(52))}"
)
a(f"torrent infohash {v.hexs(40)} – it's the Debian netinst image, totally legit")

# --- UUIDs, request/trace ids
a(f"Support asked for the request id, it's {v.uuid()}. Error happened around 14:05 UTC.")
a(f"traceparent: 00-{v.hexs(32)}-{v.hexs(16)}-01\nCan you explain what each part of this header means?")
a(f"Span {v.hexs(16)} in trace {v.hexs(32)} takes 3.2s, all in the DB call.")
a(f'2026-11-30T08:14:22.431Z ERROR [worker-3] job={v.uuid()} attempt=4 msg="timeout waiting for lock"')
a(f"x-amzn-RequestId: {v.uuid()}\nx-amz-cf-id: {v.alnum(56)}==\nwhy is cloudfront returning 403 for this?")
a(f"Die Vorgangsnummer vom Support ist {v.uuid()}, bitte notieren.")
a(f"Correlation-ID {v.uuid()} shows up in both the gateway and the billing service logs.")
a(
    f"My Azure subscription id is {v.uuid()} and tenant {v.uuid()} – which role do I need to create a resource group?"
)
a(f"GA4 client_id from the cookie: {v.digits(10)}.{v.digits(10)}")
a(f"Sentry event {v.hexs(32)} – stack trace points at utils/date.py line 88")
a(f"kubectl get pod shows uid {v.uuid()} restarting every 5 minutes, OOMKilled")
a(f"El identificador de la transacción es {v.uuid()}; el banco dice que aún está pendiente.")

# --- order/invoice/booking/tracking/flight/ticket numbers
a(f"My Amazon order {v.digits(3)}-{v.digits(7)}-{v.digits(7)} still says 'preparing for shipment'.")
a(f"Invoice INV-2026-{v.digits(5)} was paid twice, how do I ask for a refund politely?")
a(f"UPS tracking 1Z{v.alnum_up(6)}{v.digits(10)} has been stuck in Louisville for three days.")
a(f"Booking reference {v.alnum_up(6)}, flight LH{v.digits(3)} FRA→SFO on 14 Dec, seat 32A.")
a(f"DHL Sendungsnummer {v.digits(10)} – Zustellung laut App morgen zwischen 10 und 14 Uhr.")
a(f"Ticket #{v.digits(6)} in Zendesk: customer can't log in after password reset. Can you draft a reply?")
a(f"Jira FIN-{v.digits(4)} and FIN-{v.digits(4)} are duplicates, close the second one.")
a(
    f"Numéro de commande : {v.alnum_up(3)}-{v.digits(8)}. Le colis Colissimo {v.digits(2)}{v.alnum_up(2)}{v.digits(9)}FR n'est jamais arrivé."
)
a(f"Hotel confirmation number {v.digits(10)} for two nights in Lisbon, check-in 3pm.")
a(f"USPS tracking: 9400 {v.digits(4)} {v.digits(4)} {v.digits(4)} {v.digits(4)} {v.digits(2)}")
a(f"Il numero della pratica è {v.digits(4)}/{v.digits(6)}/AB, mi serve per il rimborso.")
a(f"PNR {v.alnum_up(6)} – can I still change the return leg to Sunday?")
a(f"FedEx {v.digits(12)} delivered to the wrong address, who do I call?")
a(f"Case number {v.digits(8)} with Apple support about the cracked screen.")
a(f"注文番号は {v.digits(3)}-{v.digits(7)}-{v.digits(7)} です。まだ発送されていません。")
a(f"Bestellnummer {v.digits(9)}, Rechnung RE-{v.digits(6)}, Kundennummer K{v.digits(7)}")
a(f"E-ticket number {v.digits(3)}-{v.digits(10)}, the airline says the refund takes 6 weeks.")
a(f"Zamówienie nr {v.digits(8)} z Allegro, paczkomat kod odbioru wyślą SMS-em.")

# --- build ids / versions
a(f"Build #{v.digits(5)} on Jenkins failed at the integration stage; build id {v.uuid()}.")
a(f"GitHub Actions run {v.digits(11)} job {v.digits(11)} – the cache key is node-modules-{v.hexs(64)}")
a("We're on 2.14.0-rc.3+build.5121, upgrading to 2.14.1 next sprint. Any breaking changes?")
a("Versions: node v20.11.1, npm 10.2.4, typescript 5.4.5, react 18.3.1, next 14.2.3")
a(f"Xcode build 15E{v.digits(3)}, iOS 17.4.1 (21E237), still crashing on launch.")
a(f"Docker image tag ghcr.io/acme/api:{v.hexs(7)}-{v.digits(10)}")
a(f"Cloud Build ID {v.uuid()} produced artifact gs://acme-builds/api/{v.hexs(12)}.tar.gz")
a("Android versionCode 20241203 and versionName 4.12.0 – why does Play Console reject the upload?")

# --- public keys, fingerprints, certificates
a(f"Add my public key to the server please:\n{v.ed25519_pub()} maria@laptop")
a(f"The host key fingerprint is SHA256:{v.b64(43)}. Is it safe to type yes?")
a(
    f"GPG key fingerprint: {' '.join(v.HEX(4) for _ in range(5))}  {' '.join(v.HEX(4) for _ in range(5))} – you can verify my signed commits with it."
)
a(f"Certificate SHA-256 fingerprint {v.fp_colon()}, expires 2027-03-01. Which CA issued it?")
a(f"openssl x509 -noout -fingerprint -sha1 says SHA1 Fingerprint={v.fp_colon(20)}")
a(
    f"-----BEGIN PUBLIC KEY-----\n{v.b64(64)}\n{v.b64(64)}\n{v.b64(64)}\n{v.b64(24)}IDAQAB\n-----END PUBLIC KEY-----\nis this RSA 2048? how can I tell?"
)
a(f"Key ID {v.HEX(16)} on keys.openpgp.org, that's my public signing key.")
a(f'The JWKS endpoint returns kid "{v.alnum(43)}" – how do I pick the right key to verify?')
a(
    f"age public key for the backups: age1{''.join(v.pick('qpzry9x8gf2tvdw0s3jn54khce6mua7l') for _ in range(58))}"
)
a(f"Le certificat a pour numéro de série {v.fp_colon(16)} selon le navigateur.")

# --- crypto addresses
a(f"Send the refund in ETH to my address {v.eth()} please, not the old one.")
a(f"Donations welcome: BTC {v.btc_bech32()}")
a(f"The contract is deployed at {v.eth()} on Sepolia, can you help me verify it on Etherscan?")
a(f"Tx hash 0x{v.hexs(64)} is still pending after an hour, gas was 12 gwei.")
a(f"Meine Solana-Adresse zum Empfangen: {v.b58(44)}")
a(
    f"Litecoin address ltc1q{''.join(v.pick('qpzry9x8gf2tvdw0s3jn54khce6mua7l') for _ in range(38))} is where the pool pays out."
)

# --- IBAN-like/card-like failing checksum, references
a(f"Reference number on the bank transfer: {v.card_bad_luhn('5')} – the accountant needs it for matching.")
a(
    f"The sample IBAN in the form was {v.iban_bad('DE')}, but validation says it's invalid, which is what I expected for a fake."
)
a(f"Loyalty card no. {v.card_bad_luhn('6')} – points from last trip are missing.")
a(f"Mandatsreferenz {v.alnum_up(3)}{v.digits(12)}, Gläubiger-ID DE98ZZZ{v.digits(11)}")
a(f"Verwendungszweck: Rechnung {v.digits(7)} / Kunde {v.digits(6)}")
a(f"Payment ref {v.alnum_up(2)}{v.digits(14)} appears on my statement, what is it?")
a(f"the card ending in {v.digits(4)} was declined at the pharmacy, expiry 09/28")
a(f"Masked card on the receipt: **** **** **** {v.digits(4)}, approval code {v.digits(6)}")
a(f"SWIFT/BIC of the receiving bank is DEUTDEFF, the beneficiary is Acme GmbH, reference PO-{v.digits(6)}")

# --- ISBN / ISSN / EAN
a("ISBN 978-0-13-468599-1 is the second edition of that book, right?")
a("Can you format this citation? Journal ISSN 1476-4687, vol 615, pp 123-130.")
a(f"EAN barcode on the box: 4006381333931, GTIN-14 1{v.digits(13)}")
a("ISBN-10 0-306-40615-2 vs ISBN-13 978-0-306-40615-7 – how are they related?")
a("UPC 036000291452 scans as the wrong product in our till.")
a("DOI 10.1038/s41586-020-2649-2 — please summarise the abstract.")
a("arXiv:2312.00752v2 and PMID 34265844 are the two papers I mentioned.")

# --- phone numbers, postcodes, coordinates, addresses
a("Call me on +44 20 7946 0958 or my mobile 07700 900123 after 6.")
a("Meine Nummer: +49 151 23456789, Büro 030 1234567-0")
a("Ship it to 221B Baker Street, London NW1 6XE, UK.")
a("Coordinates of the trailhead: 46.5586° N, 7.9789° E (or 46.558600, 7.978900).")
a("The zip is 94103 and the phone is (415) 555-0132.")
a("Postleitzahl 10115 Berlin, Straße der Pariser Kommune 8")
a("Téléphone : 06 12 34 56 78, code postal 75011 Paris")
a("plus code 8FVC9G8F+6W, what3words ///filled.count.soap")
a("telefone (11) 98765-4321, CEP 01310-100 São Paulo")
a("Geohash u33dc0cpn for the office, lat/long 52.5163, 13.3777")
a("我的电话是 138 0013 8000，邮编 100080。")

# --- colours, css, js, math, notation
a("Palette: #1E88E5, #FFC107, #43A047, #E53935 and background #FAFAFA. Does it pass WCAG AA?")
a("rgb(34, 139, 34) vs hsl(120deg 61% 34%) vs #228B22 – same colour?")
a(
    ".btn{display:inline-flex;align-items:center;padding:.5rem 1rem;border-radius:4px;background:#0d6efd;color:#fff}.btn:hover{background:#0b5ed7}"
)
a(
    '!function(e,t){"object"==typeof exports?module.exports=t():e.Util=t()}(this,function(){var n=0;return{id:function(){return ++n}}});'
)
a("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 – which opening is this?")
a("FEN: rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2")
a("Go game record: ;B[pd];W[dp];B[pq];W[dd];B[fq];W[cn] – is this a standard opening?")
a("DNA: ATGGCCATTGTAATGGGCCGCTGAAAGGGTGCCCGATAG – translate it to protein please.")
a("Primer sequence 5'-GCTAGCTAGGCTTACGATCGATCGGATCCAAG-3', Tm?")
a("Solve: 3x^2 - 12x + 9 = 0, then integrate e^(2x)·sin(x) dx.")
a("The matrix [[0.7071, -0.7071], [0.7071, 0.7071]] is a 45 degree rotation, right?")
a("pi to 30 digits is 3.141592653589793238462643383279, I memorised it for fun")
a("Rubik's cube scramble: R U R' U' F2 D L2 B' R2 U2 F' – how do I solve the cross?")
a("Sudoku row: 5 3 _ _ 7 _ _ _ _, 6 _ _ 1 9 5 _ _ _")
a("Unicode code points U+1F600 U+1F603 and UTF-8 bytes F0 9F 98 80")
a("MAC address 3C:22:FB:9A:4E:11 keeps getting a new IP from DHCP")
a("IPv6 2001:db8:85a3::8a2e:370:7334 and IPv4 203.0.113.42 are both in the allowlist")

# --- base64 of ordinary text/images
a(f"What does this base64 say? {b64text('Please remember to water the plants on Thursday and Friday.')}")
a(
    f'img src="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk{v.b64(12)}AAAAAElFTkSuQmCC" is a 1x1 pixel?'
)
_p = b64text('{"event":"order.created","order_id":1042,"total":19.99}')
a(f"The webhook payload body is base64: {_p} – how do I decode it in Python?")
_p = b64text(
    '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><circle cx="5" cy="5" r="4"/></svg>'
)
a(f"data:image/svg+xml;base64,{_p}")
a(
    f"Email attachment part:\nContent-Transfer-Encoding: base64\n\n{b64text('Hallo Anna, anbei die Einkaufsliste: Milch, Brot, Eier, Käse.')}"
)
a(f"base64 -d <<< {b64text('hello world from the build server')} prints what?")

# --- log lines, URLs with harmless query params
a(
    f'nginx: 203.0.113.9 - - [05/Dec/2026:10:12:01 +0000] "GET /api/v2/items?page=3&per_page=50&sort=desc HTTP/1.1" 200 5123 "-" "Mozilla/5.0" rt=0.042 req_id={v.hexs(32)}'
)
a(
    "https://shop.example.com/products/blue-mug?utm_source=newsletter&utm_medium=email&utm_campaign=winter_sale&ref=hp"
)
a("https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=42s – watch from there")
a(
    f"https://docs.google.com/spreadsheets/d/1{v.alnum(43)}/edit#gid=0 is the planning sheet (it's view-only anyway)"
)
a(f"https://example.atlassian.net/browse/OPS-{v.digits(4)}?focusedCommentId={v.digits(6)}")
a("Link: https://maps.google.com/?q=48.8584,2.2945&z=17")
a(f"INFO 2026-12-01 09:00:03,117 celery.worker: Task tasks.send_digest[{v.uuid()}] succeeded in 0.83s")
a(f"W1205 10:22:01.331 controller.go:114] reconcile deployment/api (uid={v.uuid()}) requeue after 30s")
a(f"https://github.com/acme/api/pull/1287/commits/{v.hexs(40)}")
a(f"https://www.amazon.de/dp/B0{v.alnum_up(8)}?ref_=ast_sto_dp&th=1&psc=1")
a(f"fbclid={v.alnum(60)} is glued to every link people share, can I strip it?")
a("https://example.org/search?q=password+reset+email+not+arriving&lang=en&page=2")
a(f"Cloudflare Ray ID: {v.hexs(16)}-FRA – the 520 error page showed that.")

# --- placeholders
a("Set OPENAI_API_KEY=<your-api-key-here> in .env and restart the dev server.")
a('curl -H "Authorization: Bearer $TOKEN" https://api.example.com/v1/me')
a('password: "********" is what the config dump shows, the real one is masked, good.')
a("Replace YOUR_SECRET_KEY and YOUR_CLIENT_ID in the snippet with your own values.")
a("DATABASE_URL=postgres://user:password@localhost:5432/mydb is the template from the README, right?")
a('api_key = "xxxxxxxxxxxxxxxxxxxxxxxx"  # fill in')
a("export GITHUB_TOKEN=${GITHUB_TOKEN:?must be set}")
a("token: {{ vault_api_token }} – this Ansible var is resolved at runtime")
a("Use `aws configure` and paste your access key when prompted, the docs show AKIA... as a prefix.")
a("Passwort: <hier eintragen> – so steht es in der Vorlage.")
a("mot de passe : ******** (masqué dans la capture d'écran)")
a("SECRET_KEY=changeme is obviously not for production, what should I generate instead?")
a("stripe key goes here: sk_test_... (I'll paste it later, not now)")
a("headers: { 'X-API-Key': process.env.API_KEY }")

# --- docs / code about secrets without value
a("How long should a password be in 2026? NIST says at least 8, but we require 14 with no complexity rules.")
a(
    "env:\n  DB_PASSWORD: ${{ secrets.DB_PASSWORD }}\n  NPM_TOKEN: ${{ secrets.NPM_TOKEN }}\nwhy is the secret empty in forked PRs?"
)
a("password=\nusername=\nhost=db.internal\n(the password line is empty on purpose, it comes from vault)")
a("I forgot my Netflix password again, how do I reset it without the old email?")
a("Is it safe to store the refresh token in localStorage or should it be an httpOnly cookie?")
a("Our policy: rotate API keys every 90 days, never commit .env, use the secrets manager.")
a("def check_password(plain: str, hashed: bytes) -> bool:\n    return bcrypt.checkpw(plain.encode(), hashed)")
a("Kennwort vergessen? Klicken Sie auf 'Passwort zurücksetzen' und folgen Sie der E-Mail.")
a("La contraseña debe tener al menos 12 caracteres, una mayúscula y un número.")
a("パスワードを忘れたので、リセットのリンクを送ってください。")
a("Пароль от вайфая спроси у администратора, я его не помню.")
a("spring.datasource.password=${DB_PASS}\nspring.datasource.username=${DB_USER}")
a("The token expires after 3600 seconds, so the client refreshes it at 3000.")
a('kubectl create secret generic db-creds --from-literal=password="$(pass show db/prod)"')
a("What's the difference between an API key, an OAuth client secret and a JWT signing key?")
a("Şifremi unuttum, e-posta ile sıfırlama bağlantısı gelmiyor.")
a("Kata sandi harus diganti setiap 90 hari menurut kebijakan kantor.")

# --- serials, model numbers, plates
a(f"The laptop is a ThinkPad T14 Gen 4, model 21HD003KGE, serial PF4{v.alnum_up(5)}.")
a(f"Fridge model RB38A7B6AS9/EF, serial number {v.alnum_up(15)} – the warranty form wants both.")
a("My car's plate is KA-MX 1234, parked in level -2.")
a("Licence plate AB12 CDE got a parking ticket, can I appeal?")
a(f"VIN WVWZZZ1KZ{v.alnum_up(2)}{v.digits(6)} – what year is this Golf?")
a(f"Dell service tag {v.alnum_up(7)}, express service code {v.digits(11)}")
a(f"Part number 0{v.digits(2)}-{v.digits(4)}-{v.digits(3)}, revision C, for the washing machine pump")
a("Nummernschild M-AB 4821, der Wagen steht vor dem Haus.")
a(f"iPhone IMEI {v.digits(15)} – the carrier needs it to unlock the phone.")
a(f"Windows product ID 00330-{v.digits(5)}-{v.digits(5)}-AAOEM from winver")

# --- misc look-alikes
a(f"Wi-Fi network name is FRITZ!Box 7590 {v.alnum_up(2)}, it's the guest network that's slow.")
a(f"Zoom meeting ID {v.digits(3)} {v.digits(4)} {v.digits(4)} at 3pm, I'll send the link.")
a(f"Slack channel C0{v.alnum_up(9)} and user U0{v.alnum_up(9)} – why can't the bot post there?")
a(f"Stripe customer cus_{v.alnum(14)} and invoice in_{v.alnum(24)} – the charge failed with card_declined.")
a(f"The Stripe publishable key pk_test_ is safe in the frontend, right? Our price id is price_{v.alnum(24)}.")
a(f"Google Analytics measurement ID G-{v.alnum_up(10)} on every page.")
a(f"AWS account 1234{v.digits(8)}, region eu-central-1, bucket arn:aws:s3:::acme-logs-{v.digits(4)}")
a(f"arn:aws:iam::{v.digits(12)}:role/github-actions-deploy can't assume the role, trust policy issue?")
a(f"EC2 instance i-0{v.hexs(16)} in subnet subnet-0{v.hexs(16)} has no public IP.")
a(f"YouTube video id {v.alnum(11)}, playlist PL{v.alnum(32)}")
a(f"Spotify track spotify:track:{v.alnum(22)} – what's the BPM?")
a(f"Discord server id {v.digits(18)}, channel {v.digits(19)}")
a(f"Steam friend code {v.digits(9)}, add me!")
a("Lottery numbers this week: 4 11 23 35 41 49, Zusatzzahl 7")
a(f"Reddit post id t3_{v.alnum(6).lower()}, comment t1_{v.alnum(7).lower()}")
a(f"MongoDB ObjectId(\"{v.hexs(24)}\") doesn't show up in find(), but it's in the collection.")
a(f"The Firebase project id is acme-prod-{v.digits(5)} and the app id 1:{v.digits(12)}:web:{v.hexs(22)}")
a(f"Google Maps place_id ChIJ{v.alnum(23)} for our office.")
a(f"Workspace folder id 1{v.alnum(32)} contains the design files.")
a(f"Ollama pulled llama3:8b, digest {v.hexs(12)} size 4.7 GB")
a(f"Conda env hash {v.hexs(32)}; pip freeze shows numpy==1.26.4")
a(f"Our Postgres LSN is {v.HEX(1)}/{v.HEX(8)} and the replica lags 2 GB behind.")
a("The verification code expires in 10 minutes – I didn't get the SMS at all, can you help?")
a("Sample JWT header from the docs: eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9 – what does it decode to?")
a(f"Hugging Face model revision {v.hexs(40)} of mistralai/Mistral-7B-v0.1")
a(f"S3 object key uploads/2026/12/{v.uuid()}/avatar.png returns 404")
a(f"The session lasted 00:47:13 and the recording file is rec_{v.digits(8)}_{v.hexs(8)}.mp4")
a(f"Serial-Nr. des Stromzählers: 1ESY{v.digits(10)}, Zählerstand 41 237 kWh")

benign = B
S = []
s = lambda m, secs, kinds: S.append((m, secs, kinds))
pw = "Tulpen!Regen" + v.digits(3)
s(f"my bank login password is {pw}, remember it", [pw], ["password"])
k = "AKIA" + v.alnum_up(16)
sk = v.b64(40).replace("+", "x").replace("/", "y")
s(
    f"aws creds for the sandbox: aws_access_key_id = {k}\naws_secret_access_key = {sk}",
    [k, sk],
    ["aws_access_key_id", "aws_secret_access_key"],
)
g = "ghp_" + v.alnum(36)
s(f"use this token to push: {g}", [g], ["github_token"])
st = "sk_live_" + v.alnum(24)
s(f"STRIPE_SECRET_KEY={st}", [st], ["stripe_secret_key"])
db = v.alnum(16)
s(f"DATABASE_URL=postgres://app:{db}@db.acme.internal:5432/app", [db], ["db_password"])
sl = f"xoxb-{v.digits(12)}-{v.digits(13)}-{v.alnum(24)}"
s(f"slack bot token {sl}", [sl], ["slack_token"])
wifi = "Sonnenblume" + v.digits(4) + "!"
s(f"Das WLAN-Passwort für Gäste ist {wifi}", [wifi], ["wifi_password"])
oa = "sk-proj-" + v.alnum(48)
s(f"here's my openai key {oa} can you check why it's rate limited", [oa], ["openai_api_key"])
mdp = "Chat" + v.alnum(6) + "#" + v.digits(2)
s(f"mon mot de passe gmail c'est {mdp}", [mdp], ["password"])
card = None
while True:
    c = "4" + v.digits(15)
    if luhn_ok(c):
        card = c
        break
cs = f"{card[:4]} {card[4:8]} {card[8:12]} {card[12:]}"
s(f"charge my visa {cs} exp 04/29 cvc 7{v.digits(2)}", [cs], ["card_number"])
pin = v.digits(4)
s(f"my ATM PIN is {pin}, don't tell anyone", [pin], ["pin"])
gl = "glpat-" + v.alnum(20)
s(f"GITLAB_TOKEN={gl}", [gl], ["gitlab_token"])
pk_body = v.b64(64)
s(
    f"-----BEGIN OPENSSH PRIVATE KEY-----\n{pk_body}\n{v.b64(64)}\n-----END OPENSSH PRIVATE KEY-----",
    [pk_body],
    ["private_key"],
)
rp = v.alnum(12)
s(f"redis://default:{rp}@cache.acme.internal:6379/0", [rp], ["redis_password"])
ant = "sk-ant-api03-" + v.alnum(80)
s(f"ANTHROPIC_API_KEY={ant}", [ant], ["anthropic_api_key"])
ctr = "Mariposa" + v.digits(3) + "$"
s(f"la contraseña del router es {ctr}", [ctr], ["password"])
npm = "npm_" + v.alnum(36)
s(f"//registry.npmjs.org/:_authToken={npm}", [npm], ["npm_token"])
tw = v.hexs(32)
s(f"twilio auth token: {tw}", [tw], ["twilio_auth_token"])
jp = "Sakura" + v.digits(4) + "!"
s(f"社内VPNのパスワードは {jp} です", [jp], ["password"])
hf = "hf_" + v.alnum(34)
s(f"HF_TOKEN={hf} for the private model", [hf], ["huggingface_token"])

write(sys.argv[1], benign, S)
print(len(benign), len(S))
