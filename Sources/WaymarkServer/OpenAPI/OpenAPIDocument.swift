/// The OpenAPI 3.1 description of the API, served at `GET /openapi.yaml`.
///
/// Written by hand from DESIGN §3.3 and §3.5. It cannot drift from the server unnoticed: a test
/// compares its paths and methods with the application's route table (`app.routes`), and
/// schemathesis (`scripts/api-check`) checks every answer against it.
enum OpenAPIDocument {
    static let yaml = #"""
openapi: 3.1.0
info:
  title: Waymark API
  version: 2.1.0
  summary: Accounts, device keys, and encrypted GPS routes that the server cannot read.
  description: |
    Accounts (DESIGN §3.5): register or sign in to get a session token (wmt_…), sent as
    Authorization: Bearer (apps) or in the waymark_session cookie (the web pages). A write
    from another site's page (a foreign Origin, or Sec-Fetch-Site: cross-site) is refused
    with 403 cross_site_request unless it carries a bearer token or a request signature.
    Ten failed sign-ins for one username or client address within 15 minutes answer 429.

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
              schema: {}
  /pair:
    get:
      operationId: pairingPage
      summary: "How a phone trusts this server's certificate authority, then opens the HTTPS address (a page, EN/DE by Accept-Language or ?lang=). Served here with --tls off (it then says how HTTPS is turned on); with TLS on, on the plain-HTTP port (--http-port) only."
      security: []
      parameters:
        - name: lang
          in: query
          required: false
          schema: {type: string}
          description: "en or de; anything else falls back to Accept-Language."
      responses:
        "200":
          description: The page.
          content:
            text/html:
              schema: {type: string}
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
  /api/v1/accounts:
    post:
      operationId: createAccount
      summary: Register an account (unless the server's registration is closed); signs it in.
      security: []
      requestBody:
        required: true
        content:
          application/json:
            schema:
              $ref: "#/components/schemas/NewAccount"
      responses:
        "201":
          $ref: "#/components/responses/Session"
        "400":
          $ref: "#/components/responses/AccountBadRequest"
        "403":
          $ref: "#/components/responses/AccountForbidden"
        "409":
          description: "The username is taken (username_taken); usernames are unique ignoring case."
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/Error"
        "413":
          $ref: "#/components/responses/PayloadTooLarge"
        "429":
          description: "Ten accounts were made from this client address within the hour (too_many_attempts)."
          headers:
            Retry-After:
              description: Seconds until another account may be made.
              schema:
                type: integer
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/Error"
        "500":
          $ref: "#/components/responses/InternalError"
  /api/v1/sessions:
    post:
      operationId: signIn
      summary: Sign in; answers a session token and sets the session cookie.
      security: []
      requestBody:
        required: true
        content:
          application/json:
            schema:
              $ref: "#/components/schemas/SignIn"
      responses:
        "200":
          $ref: "#/components/responses/Session"
        "400":
          $ref: "#/components/responses/AccountBadRequest"
        "401":
          description: "The username or the password is wrong (wrong_credentials); the two are not told apart."
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/Error"
        "403":
          $ref: "#/components/responses/AccountForbidden"
        "413":
          $ref: "#/components/responses/PayloadTooLarge"
        "429":
          description: "An attempt for this username is being checked, or it failed ten times within 15 minutes and must wait a growing delay (1 s, 2 s, 4 s …), or this client address failed 30 times (too_many_attempts)."
          headers:
            Retry-After:
              description: Seconds until another attempt is allowed.
              schema:
                type: integer
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/Error"
        "500":
          $ref: "#/components/responses/InternalError"
  /api/v1/sessions/current:
    delete:
      operationId: signOut
      summary: Sign out; the token or cookie stops working at once.
      security:
        - bearer: []
        - sessionCookie: []
      responses:
        "204":
          description: Signed out; the cookie is cleared.
        "401":
          $ref: "#/components/responses/NotSignedIn"
        "403":
          $ref: "#/components/responses/AccountForbidden"
        "500":
          $ref: "#/components/responses/InternalError"
  /api/v1/me:
    get:
      operationId: me
      summary: The signed-in account.
      security:
        - bearer: []
        - sessionCookie: []
      responses:
        "200":
          description: The account.
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/User"
        "401":
          $ref: "#/components/responses/NotSignedIn"
        "500":
          $ref: "#/components/responses/InternalError"
  /api/v1/keys:
    post:
      operationId: createDeviceKey
      summary: A consumer key and secret for a device of the signed-in account; the secret is shown only now.
      security:
        - bearer: []
        - sessionCookie: []
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [name]
              properties:
                name:
                  type: string
                  minLength: 1
                  maxLength: 100
                  pattern: '^[^\x00-\x1F\x7F-\x9F]*[^\x00-\x1F\x7F-\x9F\s][^\x00-\x1F\x7F-\x9F]*$'
                  description: 1 to 100 characters, not only spaces (trimmed), without control characters.
      responses:
        "201":
          description: The new key.
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/NewDeviceKey"
        "400":
          $ref: "#/components/responses/AccountBadRequest"
        "401":
          $ref: "#/components/responses/NotSignedIn"
        "403":
          $ref: "#/components/responses/AccountForbidden"
        "413":
          $ref: "#/components/responses/PayloadTooLarge"
        "500":
          $ref: "#/components/responses/InternalError"
    get:
      operationId: listDeviceKeys
      summary: The signed-in account's device keys that are not revoked (never their secrets).
      security:
        - bearer: []
        - sessionCookie: []
      responses:
        "200":
          description: The keys, oldest first.
          content:
            application/json:
              schema:
                type: object
                required: [items, next]
                properties:
                  items:
                    type: array
                    items:
                      $ref: "#/components/schemas/DeviceKey"
                  next:
                    type: ["string", "null"]
        "401":
          $ref: "#/components/responses/NotSignedIn"
        "500":
          $ref: "#/components/responses/InternalError"
  /api/v1/keys/{key}:
    parameters:
      - name: key
        in: path
        required: true
        schema:
          type: string
    delete:
      operationId: revokeDeviceKey
      summary: Revoke one of the signed-in account's device keys; requests signed with it are refused at once.
      security:
        - bearer: []
        - sessionCookie: []
      responses:
        "204":
          description: Revoked.
        "401":
          $ref: "#/components/responses/NotSignedIn"
        "403":
          $ref: "#/components/responses/AccountForbidden"
        "404":
          description: "No such key among the account's (not_found); another account's key answers the same."
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/Error"
        "500":
          $ref: "#/components/responses/InternalError"
  /api/v1/config:
    get:
      operationId: webAppConfig
      summary: What the web app needs to know of this server (the map tiles' URL templates and attributions, the personal data vaults).
      security: []
      responses:
        "200":
          description: "The settings: the maps' tiles (the route map's Roadmap), the route map's Terrain and Satellite tiles, null when the server has none, and the personal data vaults the /vault page may use, the first its default."
          content:
            application/json:
              schema:
                type: object
                required: [tiles, terrainTiles, satelliteTiles, vaults, sky, pairing]
                properties:
                  tiles:
                    $ref: "#/components/schemas/MapTiles"
                  terrainTiles:
                    oneOf:
                      - $ref: "#/components/schemas/MapTiles"
                      - {type: "null"}
                  satelliteTiles:
                    oneOf:
                      - $ref: "#/components/schemas/MapTiles"
                      - {type: "null"}
                  vaults:
                    type: array
                    minItems: 1
                    items: {type: string, format: uri, pattern: "^https?://[^/]+(/.*[^/])?$"}
                  sky: {type: boolean, description: "Whether the server has orbit data for /api/v1/sky (waymark serve --tle)."}
                  pairing:
                    description: "With TLS on, where a phone is paired (the /pair page on the plain-HTTP port, which /account shows as a QR code) and the HTTPS address it then opens; null with --tls off."
                    oneOf:
                      - type: object
                        required: [pairAddress, secureAddress]
                        properties:
                          pairAddress: {type: string, format: uri, pattern: "^http://[^/]+/pair$"}
                          secureAddress: {type: string, format: uri, pattern: "^https://[^/]+/$"}
                      - {type: "null"}
  /api/v1/qr/decode:
    post:
      operationId: decodeQRCodes
      summary: "Read the QR codes in a photo (the /vault page's sign-in where the browser has no BarcodeDetector); no account needed, nothing kept or logged."
      security: []
      requestBody:
        required: true
        content:
          image/*:
            schema: {type: string, format: binary, description: "A JPEG, PNG, WebP or HEIC image; at most 16 MiB and 100 megapixels."}
          application/octet-stream:
            schema: {type: string, format: binary}
      responses:
        "200":
          description: "The texts of the QR codes read, in the order found; empty when the image shows none. Not cached (Cache-Control: no-store): they may hold passwords."
          headers:
            Cache-Control:
              schema: {const: no-store}
          content:
            application/json:
              schema:
                type: object
                required: [texts]
                additionalProperties: false
                properties:
                  texts:
                    type: array
                    items: {type: string}
        "403":
          description: "Sent from another site's page (cross_site_request)."
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/Error"
        "413":
          description: "Over 16 MiB (payload_too_large) or 100 megapixels (too_many_pixels)."
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/Error"
        "415":
          description: "Another Content-Type than image/* or application/octet-stream (unsupported_media_type), or bytes that are no JPEG, PNG, WebP, HEIC or TIFF image (not_an_image)."
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/Error"
        "422":
          description: "The image is damaged or incomplete (broken_image)."
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/Error"
        "500":
          $ref: "#/components/responses/InternalError"
        "503":
          description: "Too many images being read at once (busy); Retry-After says when to try again."
          headers:
            Retry-After:
              schema: {type: integer}
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/Error"
  /api/v1/sky:
    get:
      operationId: sky
      summary: "The GPS, Galileo, GLONASS and BeiDou satellites above a place at a time, from the orbit data (TLE files) the server was started with; no account needed, nothing stored."
      description: |
        Positions come from SGP4 on the element sets of `waymark serve --tle FILE`; they get less
        accurate the further the time lies from the sets' epochs (epochAgeDays).
      security: []
      parameters:
        - {name: latitude, in: query, required: true, schema: {type: number, minimum: -90, maximum: 90}}
        - {name: longitude, in: query, required: true, schema: {type: number, minimum: -180, maximum: 180}}
        - {name: altitude, in: query, required: false, description: "Metres above the WGS-84 ellipsoid (default 0).", schema: {type: number, minimum: -500, maximum: 10000}}
        - {name: time, in: query, required: false, description: "ISO 8601 with its zone, 1957 to 2100 (default: now).", schema: {type: string, format: date-time}}
        - {name: constellation, in: query, required: false, description: "Default all.", schema: {type: string, enum: [gps, galileo, glonass, beidou, all]}}
      responses:
        "200":
          description: "Every satellite of the chosen constellation(s) above the horizon, highest first; those that cannot be propagated to the time are left out."
          content:
            application/json:
              schema:
                type: object
                required: [time, elements, satellites]
                additionalProperties: false
                properties:
                  time: {type: string, format: date-time, description: The instant shown, in UTC.}
                  elements:
                    type: object
                    description: "The server's element sets of the chosen constellation(s): how many, and their oldest and newest epochs (null when there are none)."
                    required: [satellites, oldestEpoch, newestEpoch]
                    additionalProperties: false
                    properties:
                      satellites: {type: integer, minimum: 0}
                      oldestEpoch: {type: ["string", "null"], format: date-time}
                      newestEpoch: {type: ["string", "null"], format: date-time}
                  satellites:
                    type: array
                    items:
                      type: object
                      required: [name, catalogNumber, constellation, azimuth, elevation, epochAgeDays]
                      additionalProperties: false
                      properties:
                        name: {type: string}
                        catalogNumber: {type: integer, minimum: 0}
                        constellation: {type: string, enum: [gps, galileo, glonass, beidou]}
                        azimuth: {type: number, minimum: 0, exclusiveMaximum: 360, description: Degrees clockwise from true north.}
                        elevation: {type: number, exclusiveMinimum: 0, maximum: 90, description: Degrees above the horizon.}
                        epochAgeDays: {type: number, minimum: 0, description: "Days between the time and the element set's epoch."}
        "400":
          description: "A parameter is missing, malformed or out of range (invalid_query; the reason names it)."
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/Error"
        "404":
          description: "The server was started without orbit data (no_orbit_data): start it with --tle FILE."
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/Error"
        "500":
          $ref: "#/components/responses/InternalError"
  /api/v1/photos/clusters/{z}/{x}/{y}:
    get:
      operationId: photoClusters
      summary: The photos of one XYZ (Web Mercator) tile grouped into clusters of about 64 px, as GeoJSON.
      security:
        - {}
        - bearer: []
        - sessionCookie: []
      parameters:
        - {name: z, in: path, required: true, schema: {type: integer, minimum: 0, maximum: 20}}
        - {name: x, in: path, required: true, schema: {type: integer, minimum: 0}}
        - {name: y, in: path, required: true, schema: {type: integer, minimum: 0}}
      responses:
        "200":
          description: "A FeatureCollection of Points: clusters {cluster: true, count, photo, bbox} and single photos {cluster: false, photo, title}."
          content:
            application/geo+json:
              schema:
                type: object
                required: [type, features]
                properties:
                  type: {const: FeatureCollection}
                  features: {type: array}
        "304":
          description: Not modified (ETag).
        "404":
          description: "No such tile (not_found): x and y must be below 2^z."
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/Error"
        "500":
          $ref: "#/components/responses/InternalError"
  /api/v1/photos:
    post:
      operationId: uploadPhoto
      summary: Upload a photo (multipart/form-data, signed in); the same Idempotency-Key answers the same photo.
      security:
        - bearer: []
        - sessionCookie: []
      parameters:
        - name: Idempotency-Key
          in: header
          required: false
          schema: {type: string, pattern: "^[!-~]{1,255}$"}
      requestBody:
        required: true
        content:
          multipart/form-data:
            schema:
              type: object
              required: [photo]
              dependentRequired:
                latitude: [longitude]
                longitude: [latitude]
              properties:
                photo: {type: string, format: binary, description: "JPEG, HEIC, PNG, WebP, TIFF or a camera RAW; at most 100 MB and 100 megapixels."}
                title: {type: string, maxLength: 200, pattern: '^[^\x00-\x1F\x7F-\x9F]*$', description: "Empty: PShare: YYYY-MM-DD HH:MM:SS of the capture time."}
                capturedAt: {type: string, format: date-time, description: "The phone's time with its zone (Unix seconds are read too, within the same years). Without it: the camera's time, else the upload's."}
                latitude: {type: number, minimum: -90, maximum: 90}
                longitude: {type: number, minimum: -180, maximum: 180}
                altitude: {type: number, minimum: -1000, maximum: 100000}
                accuracy: {type: number, minimum: 0, maximum: 100000}
                azimuth: {type: number, minimum: 0, maximum: 360}
                tilt: {type: number, minimum: -90, maximum: 90}
                visibility: {type: string, enum: [public, private]}
                centroid: {type: string, pattern: '^\{"latitude":-?(90(\.0+)?|[1-8]?[0-9](\.[0-9]+)?),"longitude":-?(180(\.0+)?|(1[0-7][0-9]|[1-9]?[0-9])(\.[0-9]+)?),"samples":([1-9][0-9]{0,2}|1000)\}$', description: "An inspection photo's centroid as JSON {latitude, longitude, samples 1..1000}; any other value is 400 invalid_field."}
                usePhotoPlace: {type: string, enum: ["true", "false"], description: "Publish the photo's own GPS position as its place when no latitude and longitude are given."}
      responses:
        "201":
          description: Stored (or stored before under the same Idempotency-Key).
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/Photo"
        "400":
          description: "A field is malformed or the photo part is missing (invalid_field, missing_photo, invalid_multipart, invalid_idempotency_key)."
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/Error"
        "401":
          $ref: "#/components/responses/NotSignedIn"
        "403":
          $ref: "#/components/responses/AccountForbidden"
        "413":
          description: "Over 100 MB (payload_too_large) or 100 megapixels (too_many_pixels)."
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/Error"
        "415":
          description: "Not multipart/form-data, or the file is no image Waymark accepts, whatever its name (unsupported_media_type, not_an_image), or a camera RAW file with no usable embedded preview (raw_without_preview)."
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/Error"
        "422":
          description: "The image is damaged or incomplete (broken_image)."
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/Error"
        "500":
          $ref: "#/components/responses/InternalError"
  /api/v1/photos/{photo_id}/image/{size}:
    get:
      operationId: photoImage
      summary: "A JPEG derivative (thumb 256 px square, medium 1024 px, large 2048 px), upright, with no metadata; WebP when Accept names image/webp (Vary: Accept)."
      security:
        - {}
        - bearer: []
        - sessionCookie: []
      parameters:
        - {name: photo_id, in: path, required: true, schema: {type: string}}
        - {name: size, in: path, required: true, schema: {type: string, enum: [thumb, medium, large]}}
      responses:
        "200":
          description: The image; ETag, long Cache-Control, Range.
          content:
            image/jpeg:
              schema: {type: string, format: binary}
            image/webp:
              schema: {type: string, format: binary}
        "206":
          description: A range of the image.
        "304":
          description: Not modified.
        "404":
          description: "No such photo or size, or another account's private photo (not_found)."
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/Error"
        "416":
          description: The range is not satisfiable.
        "500":
          $ref: "#/components/responses/InternalError"
  /api/v1/photos/{photo_id}/original:
    get:
      operationId: photoOriginal
      summary: The uploaded bytes, to the owner only.
      security:
        - bearer: []
        - sessionCookie: []
      parameters:
        - {name: photo_id, in: path, required: true, schema: {type: string}}
      responses:
        "200":
          description: The original file, with the type its content showed at upload.
          content:
            image/*:
              schema: {type: string, format: binary}
            application/octet-stream:
              schema: {type: string, format: binary}
        "206":
          description: A range of it.
        "304":
          description: Not modified.
        "401":
          $ref: "#/components/responses/NotSignedIn"
        "404":
          description: "Not the account's photo, or no such photo (not_found)."
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/Error"
        "416":
          description: The range is not satisfiable.
        "500":
          $ref: "#/components/responses/InternalError"
  /api/v1/photos/nearby:
    get:
      operationId: photosNearby
      summary: Photos within a radius (geodesic, WGS-84) that the viewer may see, nearest or newest first, by pages.
      security:
        - {}
        - bearer: []
        - sessionCookie: []
      parameters:
        - {name: latitude, in: query, required: true, schema: {type: number, minimum: -90, maximum: 90}}
        - {name: longitude, in: query, required: true, schema: {type: number, minimum: -180, maximum: 180}}
        - {name: radius, in: query, required: false, description: "Metres (default 1609.344, one mile).", schema: {type: number, exclusiveMinimum: 0, maximum: 50000}}
        - {name: sort, in: query, required: false, schema: {type: string, enum: [distance, recent]}}
        - {name: limit, in: query, required: false, schema: {type: integer, minimum: 1, maximum: 500}}
        - {name: from, in: query, required: false, description: "Taken at or after (ISO 8601 with zone, or Unix seconds).", schema: {type: string, format: date-time}}
        - {name: to, in: query, required: false, description: "Taken at or before.", schema: {type: string, format: date-time}}
        - {name: cursor, in: query, required: false, description: "The next value of the previous page (opaque; one this server did not give answers 400 invalid_cursor; empty means none).", schema: {type: string}}
      responses:
        "200":
          description: One page of photos, each with its distance in metres.
          content:
            application/json:
              schema:
                type: object
                required: [items, next]
                properties:
                  items:
                    type: array
                    items:
                      $ref: "#/components/schemas/Photo"
                  next:
                    type: ["string", "null"]
        "400":
          description: "A parameter is missing or out of range (invalid_query, invalid_cursor)."
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/Error"
        "500":
          $ref: "#/components/responses/InternalError"
  /api/v1/photos/{photo_id}:
    patch:
      operationId: editPhoto
      summary: Change the title, the visibility or the place of one's own photo (latitude and longitude both null remove the place).
      security:
        - bearer: []
        - sessionCookie: []
      parameters:
        - {name: photo_id, in: path, required: true, schema: {type: string}}
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              dependentRequired:
                latitude: [longitude]
                longitude: [latitude]
              properties:
                title: {type: string, maxLength: 200, pattern: '^[^\x00-\x1F\x7F-\x9F]*$'}
                visibility: {type: string, enum: [public, private]}
                usePhotoPlace: {type: boolean, description: "With visibility public on a private photo: true publishes its place, false removes it; absent, a place read from the photo's own GPS tags is removed and one the owner gave stays."}
                latitude: {type: ["number", "null"], minimum: -90, maximum: 90}
                longitude: {type: ["number", "null"], minimum: -180, maximum: 180}
      responses:
        "200":
          description: The photo as it is now.
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/Photo"
        "400":
          description: "A field is malformed (invalid_json, invalid_request, invalid_title, invalid_visibility, invalid_place)."
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/Error"
        "401":
          $ref: "#/components/responses/NotSignedIn"
        "403":
          $ref: "#/components/responses/AccountForbidden"
        "404":
          description: "Not the account's photo, or no such photo (not_found)."
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/Error"
        "409":
          description: "The photo was sent with an inspection task; as evidence it cannot be changed (photo_sent)."
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/Error"
        "413":
          $ref: "#/components/responses/PayloadTooLarge"
        "500":
          $ref: "#/components/responses/InternalError"
    delete:
      operationId: deletePhoto
      summary: Delete one's own photo; its file goes when no photo refers to it.
      security:
        - bearer: []
        - sessionCookie: []
      parameters:
        - {name: photo_id, in: path, required: true, schema: {type: string}}
      responses:
        "204":
          description: Deleted.
        "401":
          $ref: "#/components/responses/NotSignedIn"
        "403":
          $ref: "#/components/responses/AccountForbidden"
        "404":
          description: "Not the account's photo, or no such photo (not_found)."
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/Error"
        "409":
          description: "The photo was sent with an inspection task: it is evidence and is never deleted (photo_sent)."
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/Error"
        "500":
          $ref: "#/components/responses/InternalError"
    get:
      operationId: getPhoto
      summary: One photo, or its PDF (/api/v1/photos/{id}.pdf); another account's private photo answers 404.
      description: |
        /api/v1/photos/{id}.pdf answers the photo as a PDF to download (DESIGN §3.10; one route,
        as Vapor's router matches whole segments): one A4 page, more when the data is long, with
        the title; the photo (its large derivative, embedded as the JPEG it is); its id, owner,
        capture and upload times, latitude, longitude, altitude, accuracy, azimuth, tilt,
        centroid and samples, size, type and task; the signed receipt (SHA-256 of the image and
        of the metadata, time received, Ed25519 signature and public key) with how to check it
        (waymark verify-receipt); and two vector maps drawn by the server, without tiles: the
        accuracy circle, the camera's view wedge and the centroid around the photo's point, and
        the nearest places of the offline gazetteer ("No position" for a photo without a place).
        The receipt and the task are in it only for the photo's owner, officers and admins, who
        may read them elsewhere too.
      security:
        - {}
        - bearer: []
        - sessionCookie: []
      parameters:
        - {name: photo_id, in: path, required: true, description: "The photo's id; followed by .pdf, its PDF.", schema: {type: string}}
      responses:
        "200":
          description: The photo (JSON), or its PDF for an id ending in .pdf.
          headers:
            Content-Disposition:
              description: "For the PDF: attachment; filename=\"<the photo's title>.pdf\"; filename*=UTF-8''… (the title made safe for file names)"
              schema: {type: string}
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/Photo"
            application/pdf:
              schema: {type: string, format: binary}
        "404":
          description: "No such photo, or one the viewer may not see (not_found)."
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/Error"
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
\#(TaskAPIDocument.paths)\#(FieldPathAPIDocument.paths)\#(ReceiptAPIDocument.paths)\#(SceneAPIDocument.paths)components:
  securitySchemes:
    bearer:
      type: http
      scheme: bearer
      description: A session token (wmt_…) from POST /api/v1/accounts or /api/v1/sessions; `Token token="wmt_…"` is accepted too.
    sessionCookie:
      type: apiKey
      in: cookie
      name: waymark_session
      description: The same token in the cookie the web pages use.
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
    NewAccount:
      type: object
      required: [username, password]
      properties:
        username:
          type: string
          pattern: "^[A-Za-z0-9_.-]{3,32}$"
          description: 3 to 32 of a-z, 0-9, _, . and - (stored lowercased; unique ignoring case).
        password:
          type: string
          minLength: 10
          description: At least 10 characters, at most 1,024 bytes of UTF-8.
        displayName:
          type: ["string", "null"]
          maxLength: 100
          pattern: '^[^\x00-\x1F\x7F-\x9F]*$'
          description: The name others see, without control characters; blank or null means the username.
        email:
          description: An e-mail address; empty or null means none.
          anyOf:
            - type: string
              format: email
              maxLength: 254
              pattern: '^[^\x00-\x1F\x7F-\x9F]*$'
            - const: ""
            - type: "null"
    SignIn:
      type: object
      required: [username, password]
      properties:
        username:
          type: string
        password:
          type: string
    User:
      type: object
      required: [id, username, displayName, email, role, createdAt]
      properties:
        id:
          type: string
          format: uuid
        username:
          type: string
        displayName:
          type: string
        email:
          type: ["string", "null"]
        role:
          type: string
          enum: [user, officer, admin]
        createdAt:
          type: integer
          description: Unix seconds.
    Session:
      type: object
      required: [user, token]
      properties:
        user:
          $ref: "#/components/schemas/User"
        token:
          type: string
          pattern: "^wmt_[A-Za-z0-9_-]{43}$"
    DeviceKey:
      type: object
      required: [key, name, createdAt]
      properties:
        key:
          type: string
        name:
          type: string
        createdAt:
          type: integer
    NewDeviceKey:
      type: object
      required: [key, secret, name, createdAt]
      properties:
        key:
          type: string
        secret:
          type: string
        name:
          type: string
        createdAt:
          type: integer
    Photo:
      type: object
      required: [id, owner, title, capturedAt, uploadedAt, width, height, bytes, mime, sha256, visibility, urls]
      properties:
        id: {type: string, format: uuid}
        owner:
          type: object
          required: [id, username, displayName]
          properties:
            id: {type: string}
            username: {type: string}
            displayName: {type: string}
        title: {type: string}
        capturedAt: {type: number, description: Unix seconds.}
        uploadedAt: {type: number}
        latitude: {type: ["number", "null"]}
        longitude: {type: ["number", "null"]}
        altitude: {type: ["number", "null"]}
        accuracy: {type: ["number", "null"]}
        azimuth: {type: ["number", "null"]}
        tilt: {type: ["number", "null"]}
        width: {type: integer}
        height: {type: integer}
        bytes: {type: integer}
        mime: {type: string}
        sha256: {type: string}
        visibility: {type: string, enum: [public, private]}
        urls:
          type: object
          required: [thumb, medium, large]
          properties:
            thumb: {type: string}
            medium: {type: string}
            large: {type: string}
            original: {type: ["string", "null"]}
        distance: {type: ["number", "null"], description: Metres from the searched place (search answers only).}
        centroid:
          type: object
          description: "Only on an inspection photo sent with one: the centre of the convex hull of the phone's last fixes (DESIGN §3.10)."
          required: [latitude, longitude, samples]
          additionalProperties: false
          properties:
            latitude: {type: number, minimum: -90, maximum: 90}
            longitude: {type: number, minimum: -180, maximum: 180}
            samples: {type: integer, minimum: 1, maximum: 1000}
    MapTiles:
      type: object
      required: [url, attribution]
      properties:
        url: {type: string, description: "A URL template with {z}, {x} and {y}."}
        attribution: {type: string}
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
\#(TaskAPIDocument.schemas)\#(FieldPathAPIDocument.schemas)\#(ReceiptAPIDocument.schemas)\#(SceneAPIDocument.schemas)  responses:
    Session:
      description: Signed in; the token is also set as the waymark_session cookie (HttpOnly, SameSite=Lax).
      headers:
        Set-Cookie:
          schema:
            type: string
      content:
        application/json:
          schema:
            $ref: "#/components/schemas/Session"
    AccountBadRequest:
      description: |
        Malformed input; the reason names the field. Codes: invalid_json, invalid_request,
        invalid_username, invalid_password, invalid_display_name, invalid_email, invalid_name.
      content:
        application/json:
          schema:
            $ref: "#/components/schemas/Error"
    AccountForbidden:
      description: "A write from another site's page (cross_site_request), or registration is closed (registration_closed)."
      content:
        application/json:
          schema:
            $ref: "#/components/schemas/Error"
    NotSignedIn:
      description: "No valid session token or cookie (not_signed_in)."
      content:
        application/json:
          schema:
            $ref: "#/components/schemas/Error"
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
