/// The OpenAPI 3.1 description of the route API, served at `GET /openapi.yaml`.
///
/// Written by hand from DESIGN §3.3; keep it in step with ``RouteController`` and
/// ``SignatureMiddleware`` (the tests check that every path and status is mentioned).
enum OpenAPIDocument {
    static let yaml = #"""
openapi: 3.1.0
info:
  title: Waymark route API
  version: 2.0.0
  summary: Stores encrypted GPS routes that the server cannot read.
  description: |
    Clients upload routes encrypted with the photographer's passphrase (the envelope),
    find them again by a lookup key derived from the QR nonce, and delete them with a
    delete token only the passphrase holder can derive.

    Every request to /api/v1 and /route is signed (request signature version 2):
    X-API-Key (the consumer key), X-API-Timestamp (Unix seconds), X-API-Nonce (16 to 64
    characters of A-Za-z0-9_-, fresh for every request, retries included),
    X-API-Signed-Headers (the lowercase names of the signed headers, ";"-separated, in
    signing order; may be empty) and
    X-API-Sig = lowercase hex HMAC-SHA256(key = UTF-8 of the consumer secret,
    message = "waymark-sig-v2\n" METHOD "\n" PATH?QUERY "\n" TIMESTAMP "\n" NONCE "\n"
    hex(SHA-256(body)) "\n", followed by name ":" value "\n" for each signed header, its value
    with spaces and tabs trimmed), where PATH?QUERY is the request target exactly as sent
    (no "?" without a query) and an empty body hashes as the empty string.
    Content-Type, Idempotency-Key, X-Delete-Token, X-Delete-Token-Hash and X-Route-Lookup
    must be signed whenever present (else unsigned_header). A timestamp more than 300 s away
    from the server's clock, or a nonce this key already used inside that window, is
    refused; a retry is a new request with a fresh nonce and the same Idempotency-Key.
    A request without X-API-Nonce gets signature_version: version 2 is required.

    Every error is JSON {"error": "<code>", "reason": "<human text>"}.
servers:
  - url: http://127.0.0.1:8080
security:
  - apiKey: []
    apiTimestamp: []
    apiNonce: []
    apiSignedHeaders: []
    apiSignature: []
paths:
  /healthz:
    get:
      operationId: health
      summary: Liveness check (not signed).
      security: []
      responses:
        "200":
          description: The server is up.
          content:
            application/json:
              schema:
                type: object
                required: [status]
                properties:
                  status:
                    type: string
                    const: ok
  /openapi.yaml:
    get:
      operationId: openAPIDocument
      summary: This document (not signed).
      security: []
      responses:
        "200":
          description: The OpenAPI document.
          content:
            application/yaml:
              schema:
                type: string
  /api/v1/routes:
    post:
      operationId: createRoute
      summary: Store an encrypted route.
      parameters:
        - $ref: "#/components/parameters/IdempotencyKey"
      requestBody:
        required: true
        content:
          application/json:
            schema:
              $ref: "#/components/schemas/CreateRouteRequest"
      responses:
        "201":
          $ref: "#/components/responses/RouteCreated"
        "400":
          $ref: "#/components/responses/BadRequest"
        "401":
          $ref: "#/components/responses/Unauthorized"
        "409":
          $ref: "#/components/responses/Conflict"
        "413":
          $ref: "#/components/responses/PayloadTooLarge"
        "500":
          $ref: "#/components/responses/InternalError"
    get:
      operationId: findRouteByLookup
      summary: The newest route stored under a lookup key.
      parameters:
        - name: lookup
          in: query
          required: true
          schema:
            $ref: "#/components/schemas/Hex64"
      responses:
        "200":
          $ref: "#/components/responses/RouteRecord"
        "400":
          $ref: "#/components/responses/BadRequest"
        "401":
          $ref: "#/components/responses/Unauthorized"
        "404":
          $ref: "#/components/responses/NotFound"
        "500":
          $ref: "#/components/responses/InternalError"
  /api/v1/routes/{route_id}:
    parameters:
      - name: route_id
        in: path
        required: true
        schema:
          $ref: "#/components/schemas/RouteID"
    get:
      operationId: getRoute
      summary: A stored route by id.
      responses:
        "200":
          $ref: "#/components/responses/RouteRecord"
        "401":
          $ref: "#/components/responses/Unauthorized"
        "404":
          $ref: "#/components/responses/NotFound"
        "500":
          $ref: "#/components/responses/InternalError"
    delete:
      operationId: deleteRoute
      summary: Delete a route on proof of ownership.
      description: |
        Deletes the route when SHA-256 of the token's 32 bytes equals the stored
        deleteTokenHash. A route stored without a deleteTokenHash cannot be deleted.
      parameters:
        - name: X-Delete-Token
          in: header
          required: true
          description: The delete token, 64 hexadecimal digits.
          schema:
            type: string
            pattern: "^[0-9a-fA-F]{64}$"
      responses:
        "204":
          description: Deleted.
        "400":
          $ref: "#/components/responses/BadRequest"
        "401":
          $ref: "#/components/responses/Unauthorized"
        "403":
          $ref: "#/components/responses/Forbidden"
        "404":
          $ref: "#/components/responses/NotFound"
        "500":
          $ref: "#/components/responses/InternalError"
  /route:
    post:
      operationId: createRouteBase64
      summary: Store an encrypted route (the original specification's form).
      parameters:
        - $ref: "#/components/parameters/IdempotencyKey"
        - name: X-Route-Lookup
          in: header
          required: false
          schema:
            $ref: "#/components/schemas/Hex64"
        - name: X-Delete-Token-Hash
          in: header
          required: false
          description: Without it the route can never be deleted.
          schema:
            $ref: "#/components/schemas/Hex64"
      requestBody:
        required: true
        content:
          text/plain:
            schema:
              type: string
              contentEncoding: base64
              description: The envelope JSON as standard Base64 text.
      responses:
        "201":
          $ref: "#/components/responses/RouteCreated"
        "400":
          $ref: "#/components/responses/BadRequest"
        "401":
          $ref: "#/components/responses/Unauthorized"
        "409":
          $ref: "#/components/responses/Conflict"
        "413":
          $ref: "#/components/responses/PayloadTooLarge"
        "500":
          $ref: "#/components/responses/InternalError"
components:
  securitySchemes:
    apiKey:
      type: apiKey
      in: header
      name: X-API-Key
      description: The consumer key (created with `waymark keys create`).
    apiTimestamp:
      type: apiKey
      in: header
      name: X-API-Timestamp
      description: Unix seconds; at most 300 s away from the server's clock.
    apiNonce:
      type: apiKey
      in: header
      name: X-API-Nonce
      description: 16 to 64 characters of A-Za-z0-9_-, fresh for every request (128 random bits suggested).
    apiSignedHeaders:
      type: apiKey
      in: header
      name: X-API-Signed-Headers
      description: The lowercase names of the signed headers, ";"-separated, in signing order; may be empty.
    apiSignature:
      type: apiKey
      in: header
      name: X-API-Sig
      description: Lowercase hex HMAC-SHA256 of the request, as described above.
  parameters:
    IdempotencyKey:
      name: Idempotency-Key
      in: header
      required: false
      description: |
        Makes retries safe: a repeated request with the same key from the same consumer
        answers the same 201 and stores nothing new; the same key with different content
        answers 409.
      schema:
        type: string
        pattern: "^[!-~]{1,255}$"
        description: 1 to 255 visible ASCII characters.
  schemas:
    Hex64:
      type: string
      pattern: "^[0-9a-f]{64}$"
    RouteID:
      type: string
      pattern: "^[A-Za-z0-9_-]{22}$"
      description: 16 random bytes as unpadded base64url.
    Base64:
      type: string
      contentEncoding: base64
      pattern: "^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$"
    Salt:
      allOf:
        - $ref: "#/components/schemas/Base64"
      minLength: 16
      maxLength: 1368
      description: 10 to 1024 random bytes (Waymark writes 16); the server accepts from 8.
    KDF:
      oneOf:
        - type: object
          required: [alg, n, r, p, salt]
          properties:
            alg:
              const: scrypt
            n:
              type: integer
              enum: [2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072, 262144, 524288]
              description: A power of two; with r, at most 1 GiB of memory (128 · n · r bytes).
            r:
              type: integer
              minimum: 1
              maximum: 16
            p:
              type: integer
              minimum: 1
              maximum: 16
            salt:
              $ref: "#/components/schemas/Salt"
        - type: object
          required: [alg, iterations, salt]
          properties:
            alg:
              const: pbkdf2-sha256
            iterations:
              type: integer
              minimum: 1
              maximum: 100000000
            salt:
              $ref: "#/components/schemas/Salt"
    RouteEnvelope:
      type: object
      required: [v, kdf, aead, iv, ct]
      properties:
        v:
          const: 1
        kdf:
          $ref: "#/components/schemas/KDF"
        aead:
          const: aes-256-gcm
        iv:
          type: string
          contentEncoding: base64
          pattern: "^[A-Za-z0-9+/]{16}$"
          description: 12 bytes.
        ct:
          allOf:
            - $ref: "#/components/schemas/Base64"
          minLength: 24
          description: AES-256-GCM ciphertext followed by the 16-byte tag.
    CreateRouteRequest:
      type: object
      required: [envelope, lookup, deleteTokenHash]
      properties:
        envelope:
          $ref: "#/components/schemas/RouteEnvelope"
        lookup:
          $ref: "#/components/schemas/Hex64"
        deleteTokenHash:
          $ref: "#/components/schemas/Hex64"
    RouteCreated:
      type: object
      required: [route_id, creation_time]
      properties:
        route_id:
          $ref: "#/components/schemas/RouteID"
        creation_time:
          type: integer
          description: Unix seconds.
    RouteRecord:
      type: object
      required: [route_id, creation_time, envelope]
      properties:
        route_id:
          $ref: "#/components/schemas/RouteID"
        creation_time:
          type: integer
        envelope:
          $ref: "#/components/schemas/RouteEnvelope"
    Error:
      type: object
      required: [error, reason]
      properties:
        error:
          type: string
          description: A stable code.
        reason:
          type: string
          description: What happened and what to do, for people.
  responses:
    RouteCreated:
      description: Stored (or, for a retry with the same Idempotency-Key, stored before).
      headers:
        Location:
          schema:
            type: string
      content:
        application/json:
          schema:
            $ref: "#/components/schemas/RouteCreated"
    RouteRecord:
      description: The stored route.
      content:
        application/json:
          schema:
            $ref: "#/components/schemas/RouteRecord"
    BadRequest:
      description: |
        Malformed input; the reason names the field. Codes: invalid_json, invalid_envelope,
        invalid_lookup, invalid_delete_token_hash, invalid_delete_token, invalid_idempotency_key,
        invalid_request.
      content:
        application/json:
          schema:
            $ref: "#/components/schemas/Error"
    Unauthorized:
      description: |
        The signature was refused. Codes: missing_signature, signature_version (no
        X-API-Nonce: version 2 is required), unknown_key (unknown or revoked), bad_signature,
        unsigned_header (a header that must be signed is not), stale_timestamp,
        replayed_request (the nonce was used before).
      content:
        application/json:
          schema:
            $ref: "#/components/schemas/Error"
    Forbidden:
      description: "The delete token is wrong (wrong_delete_token), or the route has no delete-token hash (not_deletable)."
      content:
        application/json:
          schema:
            $ref: "#/components/schemas/Error"
    NotFound:
      description: "No such route (not_found). Unknown paths answer the same way."
      content:
        application/json:
          schema:
            $ref: "#/components/schemas/Error"
    Conflict:
      description: "The Idempotency-Key was used with different content (idempotency_key_reused)."
      content:
        application/json:
          schema:
            $ref: "#/components/schemas/Error"
    PayloadTooLarge:
      description: "The body is larger than 8 MiB (payload_too_large)."
      content:
        application/json:
          schema:
            $ref: "#/components/schemas/Error"
    InternalError:
      description: "The server failed (internal_error); details are in its log."
      content:
        application/json:
          schema:
            $ref: "#/components/schemas/Error"
"""#
}
