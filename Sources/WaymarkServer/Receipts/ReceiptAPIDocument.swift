/// The OpenAPI text of the photo receipts (DESIGN §3.10), spliced into ``OpenAPIDocument/yaml``:
/// `paths` at the end of its `paths:` section (indented two spaces, each ending in a newline),
/// `schemas` at the end of `components.schemas` (indented four spaces).
enum ReceiptAPIDocument {
    static let paths = #"""
  /api/v1/photos/{photo_id}/receipt:
    get:
      operationId: photoReceipt
      summary: "The server's signed receipt of a photo (Ed25519 over the SHA-256 of its bytes and of its metadata), to its owner and to officers and admins."
      description: |
        The signature is Ed25519 (RFC 8032) over the UTF-8 bytes of
        "waymark-photo-receipt-v1\n" photoId "\n" sha256Image "\n" sha256Metadata "\n" receivedAt "\n",
        each exactly as this answer writes it. sha256Metadata is the SHA-256 of the metadata
        object's canonical JSON (RFC 8785: no whitespace, members sorted, numbers as JavaScript's
        JSON.stringify writes them). `waymark verify-receipt` checks a receipt; pin the key of
        GET /api/v1/receipts/public-key. Another account's photo answers 404, as one that does not exist.
      security:
        - bearer: []
        - sessionCookie: []
      parameters:
        - {name: photo_id, in: path, required: true, schema: {type: string}}
      responses:
        "200":
          description: The receipt, as canonical JSON.
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/PhotoReceipt"
        "401":
          $ref: "#/components/responses/NotSignedIn"
        "404":
          description: "No such photo, or not the account's and the account is no officer or admin (not_found); a photo stored before the server signed receipts (no_receipt)."
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/Error"
        "500":
          $ref: "#/components/responses/InternalError"
  /api/v1/receipts/public-key:
    get:
      operationId: receiptPublicKey
      summary: "The server's Ed25519 public key that signs photo receipts, for an agency to pin; no account needed."
      security: []
      responses:
        "200":
          description: The key.
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/ReceiptPublicKey"
        "500":
          $ref: "#/components/responses/InternalError"

"""#

    static let schemas = #"""
    PhotoReceipt:
      type: object
      required: [algorithm, metadata, photoId, publicKey, receivedAt, sha256Image, sha256Metadata, signature]
      additionalProperties: false
      properties:
        algorithm: {type: string, enum: [Ed25519]}
        photoId: {type: string, format: uuid}
        sha256Image: {type: string, pattern: "^[0-9a-f]{64}$", description: SHA-256 of the uploaded bytes.}
        sha256Metadata: {type: string, pattern: "^[0-9a-f]{64}$", description: SHA-256 of the metadata's canonical JSON (RFC 8785).}
        receivedAt: {type: string, format: date-time, description: "When the server stored the photo, UTC with milliseconds."}
        signature: {type: string, contentEncoding: base64, description: The 64-byte Ed25519 signature.}
        publicKey: {type: string, contentEncoding: base64, description: The 32-byte Ed25519 public key that signed it.}
        metadata:
          $ref: "#/components/schemas/ReceiptMetadata"
    ReceiptMetadata:
      type: object
      description: What the server stored with the photo when it arrived, every member present (null when the photo has no value).
      required: [accuracy, altitude, azimuth, capturedAt, centroid, height, latitude, longitude, mime, ownerId, photoId, receivedAt, tilt, title, width]
      additionalProperties: false
      properties:
        accuracy: {type: ["number", "null"]}
        altitude: {type: ["number", "null"]}
        azimuth: {type: ["number", "null"]}
        capturedAt: {type: number, description: Unix seconds.}
        centroid:
          type: ["object", "null"]
          required: [latitude, longitude, samples]
          additionalProperties: false
          properties:
            latitude: {type: number}
            longitude: {type: number}
            samples: {type: integer}
        height: {type: integer}
        latitude: {type: ["number", "null"]}
        longitude: {type: ["number", "null"]}
        mime: {type: string}
        ownerId: {type: string, format: uuid}
        photoId: {type: string, format: uuid}
        receivedAt: {type: string, format: date-time}
        tilt: {type: ["number", "null"]}
        title: {type: string}
        width: {type: integer}
    ReceiptPublicKey:
      type: object
      required: [publicKey, algorithm]
      additionalProperties: false
      properties:
        publicKey: {type: string, contentEncoding: base64, description: The raw 32-byte Ed25519 public key.}
        algorithm: {type: string, enum: [Ed25519]}

"""#
}
