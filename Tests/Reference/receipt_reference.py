#!/usr/bin/env python3
"""Checks a Waymark photo receipt with tools nobody here wrote (DESIGN §3.10).

    receipt_reference.py RECEIPT.json [--image FILE] [--public-key BASE64]

Prints one JSON object: {"signature", "metadata", "image", "key"}, each "ok", "bad" or
"unchecked", and "canonical", the metadata's canonical text as node wrote it.

- signature: PyNaCl's Ed25519 (libsodium) over the receipt's message,
  "waymark-photo-receipt-v1\n" photoId "\n" sha256Image "\n" sha256Metadata "\n" receivedAt "\n";
- metadata: hashlib's SHA-256 of the metadata object's RFC 8785 canonical JSON, written by
  node's own JSON.stringify with members sorted by UTF-16 code units (what RFC 8785 specifies),
  and the metadata's photoId and receivedAt equal to the receipt's;
- image: hashlib's SHA-256 of the file against sha256Image;
- key: the receipt's publicKey against the given one.
"""

import argparse
import base64
import binascii
import hashlib
import json
import subprocess
import sys

import nacl.exceptions
import nacl.signing

CANONICAL_JS = r"""
const sort = v => Array.isArray(v) ? v.map(sort)
  : (v !== null && typeof v === "object") ? Object.fromEntries(Object.keys(v).sort().map(k => [k, sort(v[k])]))
  : v;
let text = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", d => text += d).on("end", () => process.stdout.write(JSON.stringify(sort(JSON.parse(text).metadata))));
"""


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("receipt")
    parser.add_argument("--image")
    parser.add_argument("--public-key")
    args = parser.parse_args()

    with open(args.receipt, "rb") as f:
        raw = f.read()
    receipt = json.loads(raw)
    result = {"image": "unchecked", "key": "unchecked"}

    message = ("waymark-photo-receipt-v1\n%s\n%s\n%s\n%s\n" % (
        receipt["photoId"], receipt["sha256Image"], receipt["sha256Metadata"], receipt["receivedAt"])).encode("utf-8")
    try:
        key = nacl.signing.VerifyKey(base64.b64decode(receipt["publicKey"], validate=True))
        key.verify(message, base64.b64decode(receipt["signature"], validate=True))
        result["signature"] = "ok"
    except (nacl.exceptions.BadSignatureError, nacl.exceptions.ValueError, ValueError, TypeError, binascii.Error):
        result["signature"] = "bad"

    canonical = subprocess.run(["node", "-e", CANONICAL_JS], input=raw, capture_output=True, check=True).stdout
    result["canonical"] = canonical.decode("utf-8")
    metadata = receipt["metadata"]
    same = metadata.get("photoId") == receipt["photoId"] and metadata.get("receivedAt") == receipt["receivedAt"]
    result["metadata"] = "ok" if same and hashlib.sha256(canonical).hexdigest() == receipt["sha256Metadata"] else "bad"

    if args.image:
        with open(args.image, "rb") as f:
            result["image"] = "ok" if hashlib.sha256(f.read()).hexdigest() == receipt["sha256Image"] else "bad"
    if args.public_key:
        result["key"] = "ok" if args.public_key == receipt["publicKey"] else "bad"

    json.dump(result, sys.stdout)


if __name__ == "__main__":
    main()
