"""Families read from redaction_tune18's misses (2026-12-05, eighth session), each written again
with invented values in the team's own phrasing, and look-alikes of each that must stay whole:
test_redaction_families.py checks both lists with its own."""

TUNE18_SECRETS = [
    # an identity number filed under its name, its check digit slipped (fails Verhoeff)
    ("Visitor log\nName: R. Menon\nAadhaar: 5821 4409 7316\nHost: reception", "5821 4409 7316"),
    # a number just before the word that names it, passing that word's checksum
    ("3174051508920007 - that one is my NIK, for the BPJS form", "3174051508920007"),
    # UK sort code and account number together, in either order, named or not
    ("refund to J. Okafor, 20-32-06 / 41829957 when you can", "20-32-06"),
    ("refund to J. Okafor, 20-32-06 / 41829957 when you can", "41829957"),
    ("acct 55667788, sort code 11-02-93 - the joint one", "11-02-93"),
    # a passport number in the machine-readable zone, its check digits passing
    (
        "scanner output:\nP<CANMBEKI<<THANDO<<<<<<<<<<<<<<<<<<<<<<<<<<<\n"
        "C7K41P2X93CAN8803171F3109029<<<<<<<<<<<<<<02",
        "C7K41P2X9",
    ),
    # password labels in more languages, and their link words
    ("আমার ইমেইলের পাসওয়ার্ড হল mango_river271", "mango_river271"),
    ("Lösenordet till mejl:en är kanelbulle4471", "kanelbulle4471"),
    ("Modem şifresi: $ükrü1975ev", "$ükrü1975ev"),
    ("Wifi parool on kuusk2024mets", "kuusk2024mets"),
    # two values offered as alternatives
    ("if Marble7714 doesn't work, try gingersnap2290 for the wifi", "Marble7714"),
    ("if Marble7714 doesn't work, try gingersnap2290 for the wifi", "gingersnap2290"),
    # a password changed from one value to another
    ("changed the router password from harbor4471 to meadow9902 yesterday", "harbor4471"),
    ("changed the router password from harbor4471 to meadow9902 yesterday", "meadow9902"),
    # spelled with a dot between every character, or sent in two pieces to join
    ("she read it out as q.u.i.l.l.9.3.0.4 over the phone", "q.u.i.l.l.9.3.0.4"),
    ("sending it in two parts, without the space: Copper7 fox#19", "Copper7 fox#19"),
    # provider keys known by their shape alone
    (
        "newsletter sending broke after I pasted ccc3fc1626e53a13043b026c48bbf33f-us14 into the form",
        "ccc3fc1626e53a13043b026c48bbf33f-us14",
    ),
    ("push with oy2ujzde8gxd6ncf10epf91dhodzdoc9is0j8ht9lgmxg9 please", "oy2ujzde8gxd6ncf10epf91dhodzdo"),
    (
        "I pushed CFPAT-C3J27XDCG2LmlZGEONYlgCtjfIZ4SOcMz9CPVNPkNa1 to a public gist",
        "CFPAT-C3J27XDCG2LmlZGEONYlgCtjfIZ4SOcMz9CPVNPkNa1",
    ),
    (
        "the merchant's access_token$sandbox$ywb3wkh5dnsipzz5$25ec84d8dbc74254770f58904dba41ec leaked in CI",
        "access_token$sandbox$ywb3wkh5dnsipzz5$25ec84d8dbc74254770f58904dba41ec",
    ),
    # a secret set for a repository: gh's --body, or GitHub's Name/Value form
    ("gh secret set SENTRY_AUTH_TOKEN --body 8d2c5e9a1f0b4d7c", "8d2c5e9a1f0b4d7c"),
    ("Actions secret\nName: PAGERDUTY_TOKEN\nValue: 4be0a2c9d17f38e6", "4be0a2c9d17f38e6"),
    # a password of words after a few words and a colon
    ("the diceware passphrase for the NAS: mantis cobalt ripple pepper glade", "mantis cobalt ripple pepper"),
    ("Emergency Kit (1Password) lists: quartz-falcon-mellow-tundra-raisin", "quartz-falcon-mellow-tundra"),
    # a lock said to open with its code
    ("the padlock on the shed opens with 3308", "3308"),
    # the account given with its routing number
    ("direct deposit into 4471902265 (routing 021000021) please", "4471902265"),
    # identity numbers in every row of an INSERT, under a column that names them
    (
        "INSERT INTO patients (name, dob, gov_id) VALUES\n ('Ana', '1990-01-01', '88071544'),\n"
        " ('Ben', '1985-02-02', 'M4412098K');",
        "M4412098K",
    ),
]  # fmt: skip

TUNE18_LOOK_ALIKES = [
    # a sort code alone names a bank's branch; a date has its shape
    "sort code 20-00-00 belongs to Barclays, right?",
    "the meeting moved from 12-05-26 to Friday, room 41829957 is booked",
    # an identity word after a number that fails its checksum; a number said to fail after its name
    "ticket 9999999999999999 asks for my NIK",
    "the portal says Aadhaar 3412 8865 2210 fails the check, so I mistyped it",
    # alternatives that are versions or hosts
    "if python3.12 doesn't work try python3.11",
    "if server01 doesn't work try server02",
    # dotted abbreviations and numbers; words to join that are no password
    "U.S.A. and the U.K. signed it in 1.3.6.1.4.1.311",
    "the form comes in two parts: Part A and Part B",
    # a name that is no secret's, over its value
    "Repository variable\nName: LOG_LEVEL\nValue: verbose",
    "Name: monkey\nValue: 12bananas",
    # prose after a passphrase's name and a colon
    "the emergency kit has: water bottles, bandages and tape",
    "the gate opens with a remote since 2019",
    # documented test values, said to be tests or examples
    "Stripe's docs list 4000 0566 5566 5556 as the Visa debit test card",
    "ISO 13616 example: GB29 NWBK 6016 1331 9268 19 (a sample IBAN)",
    # an AWS X-Ray trace id
    "x-amzn-trace-id: Root=1-65f1c2ab-9d0e4b7a1c3f5e8d2a6b4c90;Parent=53995c3f42cd8ad8;Sampled=1",
]
