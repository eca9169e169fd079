// Generated from the API contract (Sources/WaymarkAPI/Contract/*.yaml) by `make contract`:
// do not edit. api.js calls operations by their operationId from this table, and tsc checks
// every request and answer against the types below. A Swift test fails when this file is
// not what the contract makes.

/**
 * @typedef {object} Error
 * @property {'bad_request' | 'bad_signature' | 'broken_image' | 'busy' | 'conflict' | 'cross_site_request' | 'forbidden' | 'headers_too_large' | 'idempotency_key_reused' | 'internal_error' | 'invalid_assignee' | 'invalid_cursor' | 'invalid_delete_token' | 'invalid_delete_token_hash' | 'invalid_display_name' | 'invalid_due_date' | 'invalid_email' | 'invalid_envelope' | 'invalid_field' | 'invalid_idempotency_key' | 'invalid_instructions' | 'invalid_json' | 'invalid_lookup' | 'invalid_metadata' | 'invalid_multipart' | 'invalid_name' | 'invalid_note' | 'invalid_password' | 'invalid_path' | 'invalid_place' | 'invalid_query' | 'invalid_reason' | 'invalid_request' | 'invalid_title' | 'invalid_username' | 'invalid_visibility' | 'method_not_allowed' | 'missing_image' | 'missing_metadata' | 'missing_photo' | 'missing_signature' | 'no_orbit_data' | 'no_receipt' | 'not_an_image' | 'not_deletable' | 'not_encrypted' | 'not_found' | 'not_signed_in' | 'part_of_scene' | 'payload_too_large' | 'photo_sent' | 'raw_without_preview' | 'registration_closed' | 'replayed_request' | 'signature_version' | 'stale_timestamp' | 'task_already_sent' | 'task_busy' | 'task_not_editable' | 'task_not_sent' | 'too_many_attempts' | 'too_many_pixels' | 'too_many_points' | 'unauthorized' | 'unknown_assignee' | 'unknown_host' | 'unknown_key' | 'unsigned_header' | 'unsupported_media_type' | 'uri_too_long' | 'username_taken' | 'wrong_credentials' | 'wrong_delete_token'} error A stable code, one of this list (APIErrorCode in Sources/WaymarkAPI); the web app has words for each in every language.
 * @property {string} reason What happened and what to do, for people.
 */

/**
 * An instant as the API writes it: RFC 3339 in UTC with milliseconds, e.g. 2026-06-01T10:00:00.000Z.
 * @typedef {string} Instant
 */

/**
 * @typedef {object} MapTiles
 * @property {string} url A URL template with {z}, {x} and {y}.
 * @property {string} attribution
 */

/**
 * @typedef {string} Hex64
 */

/**
 * 16 random bytes as unpadded base64url.
 * @typedef {string} RouteID
 */

/**
 * @typedef {string} Base64
 */

/**
 * 10 to 1024 random bytes (Waymark writes 16); the server accepts from 8.
 * @typedef {Base64} Salt
 */

/**
 * @typedef {{
 *   alg: 'scrypt',
 *   n: 2 | 4 | 8 | 16 | 32 | 64 | 128 | 256 | 512 | 1024 | 2048 | 4096 | 8192 | 16384 | 32768 | 65536 | 131072 | 262144 | 524288,
 *   r: number,
 *   p: number,
 *   salt: Salt,
 * } | {
 *   alg: 'pbkdf2-sha256',
 *   iterations: number,
 *   salt: Salt,
 * }} KDF
 */

/**
 * @typedef {object} RouteEnvelope
 * @property {1} v
 * @property {KDF} kdf
 * @property {'aes-256-gcm'} aead
 * @property {string} iv 12 bytes.
 * @property {Base64} ct AES-256-GCM ciphertext followed by the 16-byte tag.
 */

/**
 * @typedef {object} CreateRouteRequest
 * @property {RouteEnvelope} envelope
 * @property {Hex64} lookup
 * @property {Hex64} deleteTokenHash
 */

/**
 * @typedef {object} RouteCreated
 * @property {RouteID} route_id
 * @property {number} creation_time Unix seconds.
 */

/**
 * @typedef {object} RouteRecord
 * @property {RouteID} route_id
 * @property {number} creation_time
 * @property {RouteEnvelope} envelope
 */

/**
 * @typedef {object} CurrentSession
 * @property {User | null} user
 */

/**
 * @typedef {object} NewAccount
 * @property {string} username 3 to 32 of a-z, 0-9, _, . and - (stored lowercased; unique ignoring case).
 * @property {string} password At least 10 characters, at most 1,024 bytes of UTF-8.
 * @property {string | null} [displayName] The name others see, without control characters; blank or null means the username.
 * @property {string | '' | null} [email] An e-mail address; empty or null means none.
 */

/**
 * @typedef {object} SignIn
 * @property {string} username
 * @property {string} password
 */

/**
 * @typedef {object} User
 * @property {string} id
 * @property {string} username
 * @property {string} displayName
 * @property {string | null} email
 * @property {'user' | 'officer' | 'admin'} role
 * @property {Instant} createdAt
 */

/**
 * @typedef {object} Session
 * @property {User} user
 * @property {string} token
 */

/**
 * @typedef {object} DeviceKey
 * @property {string} key
 * @property {string} name
 * @property {Instant} createdAt
 */

/**
 * @typedef {object} NewDeviceKey
 * @property {string} key
 * @property {string} secret
 * @property {string} name
 * @property {Instant} createdAt
 */

/**
 * @typedef {object} Photo
 * @property {string} id
 * @property {{
 *     id: string,
 *     username: string,
 *     displayName: string,
 *   }} owner
 * @property {string} title
 * @property {Instant} capturedAt
 * @property {Instant} uploadedAt
 * @property {number | null} [latitude]
 * @property {number | null} [longitude]
 * @property {number | null} [altitude]
 * @property {number | null} [accuracy]
 * @property {number | null} [azimuth]
 * @property {number | null} [tilt]
 * @property {number} width
 * @property {number} height
 * @property {number} bytes
 * @property {string} mime
 * @property {string} sha256
 * @property {'public' | 'private'} visibility
 * @property {{
 *     thumb: string,
 *     medium: string,
 *     large: string,
 *     original?: string | null,
 *   }} urls
 * @property {number | null} [distance] Metres from the searched place (search answers only).
 * @property {{
 *     latitude: number,
 *     longitude: number,
 *     samples: number,
 *   }} [centroid] Only on an inspection photo sent with one: the centre of the convex hull of the phone's last fixes (DESIGN §3.10).
 */

/**
 * @typedef {object} NewTask
 * @property {string} assignee The username of the account that is to do it.
 * @property {string} name
 * @property {string | null} [instructions]
 * @property {string} dueDate An ISO 8601 date (2026-07-01) or date-time with its zone, years 1970 to 9999.
 */

/**
 * @typedef {object} TaskPerson
 * @property {string} id
 * @property {string} username
 * @property {string} displayName
 */

/**
 * @typedef {object} Task
 * @property {string} id
 * @property {string} name
 * @property {string} instructions
 * @property {string} dueDate YYYY-MM-DD, or a UTC date-time YYYY-MM-DDTHH:MM:SSZ.
 * @property {string} note The assignee's note; empty when there is none.
 * @property {'new' | 'open' | 'data_provided' | 'returned'} status
 * @property {string | null} returnReason Why an officer last returned it; null if never.
 * @property {TaskPerson} assignee
 * @property {TaskPerson} createdBy
 * @property {Instant} createdAt
 * @property {Instant} updatedAt
 * @property {number} photoCount
 * @property {Array<Photo>} [photos] Only in the answer about one task.
 * @property {Array<string>} [sentPhotoIds] With photos: the ids of those sent with the task (evidence: they can never be deleted).
 */

/**
 * @typedef {object} TaskHistoryEntry
 * @property {'new' | 'open' | 'data_provided' | 'returned' | null} from null for the task's creation.
 * @property {'new' | 'open' | 'data_provided' | 'returned'} to
 * @property {TaskPerson} actor
 * @property {Instant} at
 * @property {string | null} reason The reason of a return.
 */

/**
 * [latitude °, longitude °, altitude m (WGS-84 ellipsoid) or null, Unix seconds]
 * @typedef {[number, number, number | null, number]} FieldPathPoint
 */

/**
 * @typedef {object} NewFieldPath
 * @property {string | null} [name] Trimmed; empty is no name.
 * @property {Array<FieldPathPoint>} points In the order recorded; no time earlier than the one before.
 */

/**
 * @typedef {object} FieldPathSummary
 * @property {string} id
 * @property {string | null} name
 * @property {number | null} area m² of the closed polygon on WGS-84; null with fewer than 3 different places.
 * @property {number | null} perimeter m round the closed polygon; null as area.
 * @property {number} length m along the walk, not closed.
 * @property {number} pointCount
 * @property {Instant} startedAt The first point's time.
 * @property {Instant} endedAt The last point's time.
 * @property {Instant} createdAt When the server stored it.
 * @property {string} kml The KML export's path.
 */

/**
 * @typedef {object} FieldPath
 * @property {string} id
 * @property {string | null} name
 * @property {number | null} area
 * @property {number | null} perimeter
 * @property {number} length
 * @property {number} pointCount
 * @property {Instant} startedAt
 * @property {Instant} endedAt
 * @property {Instant} createdAt
 * @property {string} kml
 * @property {Array<FieldPathPoint>} points
 */

/**
 * @typedef {object} PhotoReceipt
 * @property {'Ed25519'} algorithm
 * @property {string} photoId
 * @property {string} sha256Image SHA-256 of the uploaded bytes.
 * @property {string} sha256Metadata SHA-256 of the metadata's canonical JSON (RFC 8785).
 * @property {string} receivedAt When the server stored the photo, UTC with milliseconds.
 * @property {string} signature The 64-byte Ed25519 signature.
 * @property {string} publicKey The 32-byte Ed25519 public key that signed it.
 * @property {ReceiptMetadata} metadata
 */

/**
 * What the server stored with the photo when it arrived, every member present (null when the photo has no value).
 * @typedef {object} ReceiptMetadata
 * @property {number | null} accuracy
 * @property {number | null} altitude
 * @property {number | null} azimuth
 * @property {number} capturedAt Unix seconds.
 * @property {{
 *     latitude: number,
 *     longitude: number,
 *     samples: number,
 *   } | null} centroid
 * @property {number} height
 * @property {number | null} latitude
 * @property {number | null} longitude
 * @property {string} mime
 * @property {string} ownerId
 * @property {string} photoId
 * @property {string} receivedAt
 * @property {number | null} tilt
 * @property {string} title
 * @property {number} width
 */

/**
 * @typedef {object} ReceiptPublicKey
 * @property {string} publicKey The raw 32-byte Ed25519 public key.
 * @property {'Ed25519'} algorithm
 */

/**
 * A unit quaternion (Hamilton) turning device axes (W3C DeviceOrientation) into the east-north-up world frame.
 * @typedef {object} Attitude
 * @property {number} w
 * @property {number} x
 * @property {number} y
 * @property {number} z
 */

/**
 * @typedef {object} NewSceneMetadata
 * @property {string | null} [name]
 * @property {number} latitude Where the photographer stood (the pin).
 * @property {number} longitude
 * @property {string} capturedAt ISO 8601 with its zone, e.g. 2026-06-01T10:00:00+02:00.
 * @property {Attitude} attitude
 * @property {number | null} [heading] Compass heading, degrees clockwise from true north.
 * @property {number | null} [accuracy] Metres.
 */

/**
 * @typedef {object} RephotographMetadata
 * @property {string} capturedAt
 * @property {Attitude} attitude
 * @property {number | null} [heading]
 * @property {number | null} [latitude]
 * @property {number | null} [longitude]
 * @property {number | null} [accuracy]
 */

/**
 * The nearest populated place of the offline GeoNames gazetteer (cities of 1,000 or more people).
 * @typedef {object} SceneAddress
 * @property {string} line E.g. 1.2 km NE of Brno, South Moravian, Czechia.
 * @property {string} place
 * @property {string} region First-level division; empty when GeoNames has none.
 * @property {string} country
 * @property {string} countryCode ISO 3166-1 alpha-2.
 * @property {number} distance Metres from the place to the scene.
 * @property {number | null} bearing Degrees clockwise from north, from the place to the scene; null at the place.
 * @property {string} attribution
 * @property {StreetAddress | null} street The street address from the server's Nominatim-compatible reverse geocoder (serve --nominatim-url), in the language of Accept-Language; a scene's own page only, null without one or when it did not answer.
 */

/**
 * @typedef {object} StreetAddress
 * @property {string} line
 * @property {string} attribution The credit the geocoder's data asks for (OpenStreetMap's ODbL).
 */

/**
 * @typedef {object} Rephotograph
 * @property {Photo} photo
 * @property {Attitude} attitude
 * @property {number | null} heading
 * @property {Instant} addedAt
 */

/**
 * @typedef {object} Scene
 * @property {string} id
 * @property {string | null} name
 * @property {{
 *     id: string,
 *     username: string,
 *     displayName: string,
 *   }} creator
 * @property {number} latitude
 * @property {number} longitude
 * @property {number | null} accuracy
 * @property {Instant} capturedAt
 * @property {Instant} createdAt
 * @property {Attitude} attitude
 * @property {number | null} heading
 * @property {Photo} reference
 * @property {Photo | null} feetShot Null when its photo was deleted or made private by its owner.
 * @property {number} rephotographCount
 * @property {Array<Rephotograph>} [rephotographs] The scene's own page only.
 * @property {SceneAddress | null} address Null when the server has no gazetteer.
 * @property {number} [distance] Metres from the searched place (searches, and the page asked with latitude and longitude).
 */

/**
 * @typedef {object} ScenePage
 * @property {Array<Scene>} items
 * @property {string | null} next
 */

/**
 * @typedef {object} SceneTimelineEntry
 * @property {'reference' | 'rephotograph'} kind
 * @property {Photo} photo
 * @property {Attitude} attitude
 * @property {number | null} heading
 */

/**
 * @typedef {object} OwnTracksMessage
 * @property {string} _type Only `encrypted` is stored.
 * @property {string} [data] A 24-byte nonce followed by secretbox(the message JSON), standard Base64.
 */

/**
 * Twelve characters of 0-9A-Z from a CSPRNG, as a route's QR nonce (§3.1).
 * @typedef {string} DeviceNonce
 */

/**
 * The OwnTracks encryption key sealed as a route envelope (§3.2) with associated data `waymark-owntracks-key-v1:` + nonce.
 * @typedef {RouteEnvelope} SealedKey
 */

/**
 * @typedef {object} OwnTracksDevice
 * @property {string} id
 * @property {string} name
 * @property {DeviceNonce} nonce
 * @property {SealedKey} sealedKey
 * @property {Instant} createdAt
 * @property {number} messages How many messages it has sent.
 * @property {Instant | null} lastMessageAt
 */

/**
 * @typedef {object} NewOwnTracksDevice
 * @property {string} id
 * @property {string} name
 * @property {DeviceNonce} nonce
 * @property {string} username The Basic user OwnTracks sends.
 * @property {string} secret The Basic password OwnTracks sends; shown only now.
 * @property {Instant} createdAt
 */

/**
 * @typedef {object} OwnTracksSealedDevice
 * @property {SealedKey} sealedKey
 * @property {Instant} createdAt
 * @property {number} messages
 */

/**
 * @typedef {object} OwnTracksStoredMessage
 * @property {string} data The `data` of the encrypted message, as it came.
 * @property {Instant} receivedAt
 */

/**
 * Every operation of the contract: what `call` sends and what it answers.
 * @typedef {{
 *   health: {
 *     method: 'GET',
 *     path: {},
 *     query: {},
 *     body: undefined,
 *     answer: {
 *         status: 'ok',
 *       },
 *   },
 *   openAPIDocument: {
 *     method: 'GET',
 *     path: {},
 *     query: {},
 *     body: undefined,
 *     answer: never,
 *   },
 *   pairingPage: {
 *     method: 'GET',
 *     path: {},
 *     query: { lang?: string },
 *     body: undefined,
 *     answer: never,
 *   },
 *   webAppConfig: {
 *     method: 'GET',
 *     path: {},
 *     query: {},
 *     body: undefined,
 *     answer: {
 *         tiles: MapTiles,
 *         terrainTiles: MapTiles | null,
 *         satelliteTiles: MapTiles | null,
 *         vaults: Array<string>,
 *         sky: boolean,
 *         pairing: {
 *           pairAddress: string,
 *           secureAddress: string,
 *         } | null,
 *       },
 *   },
 *   createRoute: {
 *     method: 'POST',
 *     path: {},
 *     query: {},
 *     body: CreateRouteRequest,
 *     answer: RouteCreated,
 *   },
 *   findRouteByLookup: {
 *     method: 'GET',
 *     path: {},
 *     query: { lookup: Hex64 },
 *     body: undefined,
 *     answer: RouteRecord,
 *   },
 *   getRoute: {
 *     method: 'GET',
 *     path: { route_id: RouteID },
 *     query: {},
 *     body: undefined,
 *     answer: RouteRecord,
 *   },
 *   deleteRoute: {
 *     method: 'DELETE',
 *     path: { route_id: RouteID },
 *     query: {},
 *     body: undefined,
 *     answer: null,
 *   },
 *   createRouteBase64: {
 *     method: 'POST',
 *     path: {},
 *     query: {},
 *     body: Blob,
 *     answer: RouteCreated,
 *   },
 *   createAccount: {
 *     method: 'POST',
 *     path: {},
 *     query: {},
 *     body: NewAccount,
 *     answer: Session,
 *   },
 *   signIn: {
 *     method: 'POST',
 *     path: {},
 *     query: {},
 *     body: SignIn,
 *     answer: Session,
 *   },
 *   signOut: {
 *     method: 'DELETE',
 *     path: {},
 *     query: {},
 *     body: undefined,
 *     answer: null,
 *   },
 *   me: {
 *     method: 'GET',
 *     path: {},
 *     query: {},
 *     body: undefined,
 *     answer: User,
 *   },
 *   currentSession: {
 *     method: 'GET',
 *     path: {},
 *     query: {},
 *     body: undefined,
 *     answer: CurrentSession,
 *   },
 *   createDeviceKey: {
 *     method: 'POST',
 *     path: {},
 *     query: {},
 *     body: {
 *         name: string,
 *       },
 *     answer: NewDeviceKey,
 *   },
 *   listDeviceKeys: {
 *     method: 'GET',
 *     path: {},
 *     query: {},
 *     body: undefined,
 *     answer: {
 *         items: Array<DeviceKey>,
 *         next: string | null,
 *       },
 *   },
 *   revokeDeviceKey: {
 *     method: 'DELETE',
 *     path: { key: string },
 *     query: {},
 *     body: undefined,
 *     answer: null,
 *   },
 *   photoClusters: {
 *     method: 'GET',
 *     path: { z: number, x: number, y: number },
 *     query: {},
 *     body: undefined,
 *     answer: {
 *         type: 'FeatureCollection',
 *         features: unknown[],
 *       },
 *   },
 *   uploadPhoto: {
 *     method: 'POST',
 *     path: {},
 *     query: {},
 *     body: FormData,
 *     answer: Photo,
 *   },
 *   photoImage: {
 *     method: 'GET',
 *     path: { photo_id: string, size: 'thumb' | 'medium' | 'large' },
 *     query: {},
 *     body: undefined,
 *     answer: never | null,
 *   },
 *   photoOriginal: {
 *     method: 'GET',
 *     path: { photo_id: string },
 *     query: {},
 *     body: undefined,
 *     answer: never | null,
 *   },
 *   photosNearby: {
 *     method: 'GET',
 *     path: {},
 *     query: { latitude: number, longitude: number, radius?: number, sort?: 'distance' | 'recent', limit?: number, from?: string, to?: string, cursor?: string },
 *     body: undefined,
 *     answer: {
 *         items: Array<Photo>,
 *         next: string | null,
 *       },
 *   },
 *   editPhoto: {
 *     method: 'PATCH',
 *     path: { photo_id: string },
 *     query: {},
 *     body: {
 *         title?: string,
 *         visibility?: 'public' | 'private',
 *         usePhotoPlace?: boolean,
 *         latitude?: number | null,
 *         longitude?: number | null,
 *       },
 *     answer: Photo,
 *   },
 *   deletePhoto: {
 *     method: 'DELETE',
 *     path: { photo_id: string },
 *     query: {},
 *     body: undefined,
 *     answer: null,
 *   },
 *   getPhoto: {
 *     method: 'GET',
 *     path: { photo_id: string },
 *     query: {},
 *     body: undefined,
 *     answer: Photo | never,
 *   },
 *   decodeQRCodes: {
 *     method: 'POST',
 *     path: {},
 *     query: {},
 *     body: Blob,
 *     answer: {
 *         texts: Array<string>,
 *       },
 *   },
 *   sky: {
 *     method: 'GET',
 *     path: {},
 *     query: { latitude: number, longitude: number, altitude?: number, time?: string, constellation?: 'gps' | 'galileo' | 'glonass' | 'beidou' | 'all' },
 *     body: undefined,
 *     answer: {
 *         time: Instant,
 *         elements: {
 *           satellites: number,
 *           oldestEpoch: string | null,
 *           newestEpoch: string | null,
 *         },
 *         satellites: Array<{
 *           name: string,
 *           catalogNumber: number,
 *           constellation: 'gps' | 'galileo' | 'glonass' | 'beidou',
 *           azimuth: number,
 *           elevation: number,
 *           epochAgeDays: number,
 *         }>,
 *       },
 *   },
 *   createTask: {
 *     method: 'POST',
 *     path: {},
 *     query: {},
 *     body: NewTask,
 *     answer: Task,
 *   },
 *   listTasks: {
 *     method: 'GET',
 *     path: {},
 *     query: { status?: 'new' | 'open' | 'data_provided' | 'returned', assignee?: string },
 *     body: undefined,
 *     answer: {
 *         items: Array<Task>,
 *         next: null,
 *       },
 *   },
 *   getTask: {
 *     method: 'GET',
 *     path: { task_id: string },
 *     query: {},
 *     body: undefined,
 *     answer: Task,
 *   },
 *   editTask: {
 *     method: 'PATCH',
 *     path: { task_id: string },
 *     query: {},
 *     body: {
 *         note: string,
 *       },
 *     answer: Task,
 *   },
 *   addTaskPhoto: {
 *     method: 'POST',
 *     path: { task_id: string },
 *     query: {},
 *     body: FormData,
 *     answer: Photo,
 *   },
 *   deleteTaskPhoto: {
 *     method: 'DELETE',
 *     path: { task_id: string, photo_id: string },
 *     query: {},
 *     body: undefined,
 *     answer: null,
 *   },
 *   sendTask: {
 *     method: 'POST',
 *     path: { task_id: string },
 *     query: {},
 *     body: undefined,
 *     answer: Task,
 *   },
 *   returnTask: {
 *     method: 'POST',
 *     path: { task_id: string },
 *     query: {},
 *     body: {
 *         reason: string,
 *       },
 *     answer: Task,
 *   },
 *   taskHistory: {
 *     method: 'GET',
 *     path: { task_id: string },
 *     query: {},
 *     body: undefined,
 *     answer: {
 *         items: Array<TaskHistoryEntry>,
 *         next: null,
 *       },
 *   },
 *   createFieldPath: {
 *     method: 'POST',
 *     path: {},
 *     query: {},
 *     body: NewFieldPath,
 *     answer: FieldPath,
 *   },
 *   listFieldPaths: {
 *     method: 'GET',
 *     path: {},
 *     query: {},
 *     body: undefined,
 *     answer: {
 *         items: Array<FieldPathSummary>,
 *       },
 *   },
 *   getFieldPath: {
 *     method: 'GET',
 *     path: { path_id: string },
 *     query: {},
 *     body: undefined,
 *     answer: FieldPath | never,
 *   },
 *   deleteFieldPath: {
 *     method: 'DELETE',
 *     path: { path_id: string },
 *     query: {},
 *     body: undefined,
 *     answer: null,
 *   },
 *   photoReceipt: {
 *     method: 'GET',
 *     path: { photo_id: string },
 *     query: {},
 *     body: undefined,
 *     answer: PhotoReceipt,
 *   },
 *   receiptPublicKey: {
 *     method: 'GET',
 *     path: {},
 *     query: {},
 *     body: undefined,
 *     answer: ReceiptPublicKey,
 *   },
 *   createScene: {
 *     method: 'POST',
 *     path: {},
 *     query: {},
 *     body: FormData,
 *     answer: Scene,
 *   },
 *   scenesNearby: {
 *     method: 'GET',
 *     path: {},
 *     query: { latitude: number, longitude: number, radius?: number, limit?: number, cursor?: string },
 *     body: undefined,
 *     answer: ScenePage,
 *   },
 *   getScene: {
 *     method: 'GET',
 *     path: { scene_id: string },
 *     query: { latitude?: number, longitude?: number },
 *     body: undefined,
 *     answer: Scene,
 *   },
 *   deleteScene: {
 *     method: 'DELETE',
 *     path: { scene_id: string },
 *     query: {},
 *     body: undefined,
 *     answer: null,
 *   },
 *   sceneTimeline: {
 *     method: 'GET',
 *     path: { scene_id: string },
 *     query: {},
 *     body: undefined,
 *     answer: {
 *         items: Array<SceneTimelineEntry>,
 *       },
 *   },
 *   addRephotograph: {
 *     method: 'POST',
 *     path: { scene_id: string },
 *     query: {},
 *     body: FormData,
 *     answer: Rephotograph,
 *   },
 *   removeRephotograph: {
 *     method: 'DELETE',
 *     path: { scene_id: string, photo_id: string },
 *     query: {},
 *     body: undefined,
 *     answer: null,
 *   },
 *   myScenes: {
 *     method: 'GET',
 *     path: {},
 *     query: { limit?: number, cursor?: string },
 *     body: undefined,
 *     answer: ScenePage,
 *   },
 *   publishOwnTracks: {
 *     method: 'POST',
 *     path: {},
 *     query: {},
 *     body: OwnTracksMessage | undefined,
 *     answer: unknown[],
 *   },
 *   createOwnTracksDevice: {
 *     method: 'POST',
 *     path: {},
 *     query: {},
 *     body: {
 *         name: string,
 *         nonce: DeviceNonce,
 *         sealedKey: SealedKey,
 *       },
 *     answer: NewOwnTracksDevice,
 *   },
 *   listOwnTracksDevices: {
 *     method: 'GET',
 *     path: {},
 *     query: {},
 *     body: undefined,
 *     answer: {
 *         items: Array<OwnTracksDevice>,
 *         next: string | null,
 *       },
 *   },
 *   revokeOwnTracksDevice: {
 *     method: 'DELETE',
 *     path: { device_id: string },
 *     query: {},
 *     body: undefined,
 *     answer: null,
 *   },
 *   findOwnTracksDevice: {
 *     method: 'GET',
 *     path: { lookup: Hex64 },
 *     query: {},
 *     body: undefined,
 *     answer: OwnTracksSealedDevice,
 *   },
 *   listOwnTracksMessages: {
 *     method: 'GET',
 *     path: { lookup: Hex64 },
 *     query: { from?: Instant, to?: Instant, cursor?: string, limit?: number },
 *     body: undefined,
 *     answer: {
 *         items: Array<OwnTracksStoredMessage>,
 *         next: string | null,
 *       },
 *   },
 * }} Operations
 */

/** @type {{ readonly [K in keyof Operations]: { readonly method: Operations[K]['method'], readonly path: string } }} */
export const operations = Object.freeze({
  health: { method: 'GET', path: '/healthz' },
  openAPIDocument: { method: 'GET', path: '/openapi.yaml' },
  pairingPage: { method: 'GET', path: '/pair' },
  webAppConfig: { method: 'GET', path: '/api/v1/config' },
  createRoute: { method: 'POST', path: '/api/v1/routes' },
  findRouteByLookup: { method: 'GET', path: '/api/v1/routes' },
  getRoute: { method: 'GET', path: '/api/v1/routes/{route_id}' },
  deleteRoute: { method: 'DELETE', path: '/api/v1/routes/{route_id}' },
  createRouteBase64: { method: 'POST', path: '/route' },
  createAccount: { method: 'POST', path: '/api/v1/accounts' },
  signIn: { method: 'POST', path: '/api/v1/sessions' },
  signOut: { method: 'DELETE', path: '/api/v1/sessions/current' },
  me: { method: 'GET', path: '/api/v1/me' },
  currentSession: { method: 'GET', path: '/api/v1/session' },
  createDeviceKey: { method: 'POST', path: '/api/v1/keys' },
  listDeviceKeys: { method: 'GET', path: '/api/v1/keys' },
  revokeDeviceKey: { method: 'DELETE', path: '/api/v1/keys/{key}' },
  photoClusters: { method: 'GET', path: '/api/v1/photos/clusters/{z}/{x}/{y}' },
  uploadPhoto: { method: 'POST', path: '/api/v1/photos' },
  photoImage: { method: 'GET', path: '/api/v1/photos/{photo_id}/image/{size}' },
  photoOriginal: { method: 'GET', path: '/api/v1/photos/{photo_id}/original' },
  photosNearby: { method: 'GET', path: '/api/v1/photos/nearby' },
  editPhoto: { method: 'PATCH', path: '/api/v1/photos/{photo_id}' },
  deletePhoto: { method: 'DELETE', path: '/api/v1/photos/{photo_id}' },
  getPhoto: { method: 'GET', path: '/api/v1/photos/{photo_id}' },
  decodeQRCodes: { method: 'POST', path: '/api/v1/qr/decode' },
  sky: { method: 'GET', path: '/api/v1/sky' },
  createTask: { method: 'POST', path: '/api/v1/tasks' },
  listTasks: { method: 'GET', path: '/api/v1/tasks' },
  getTask: { method: 'GET', path: '/api/v1/tasks/{task_id}' },
  editTask: { method: 'PATCH', path: '/api/v1/tasks/{task_id}' },
  addTaskPhoto: { method: 'POST', path: '/api/v1/tasks/{task_id}/photos' },
  deleteTaskPhoto: { method: 'DELETE', path: '/api/v1/tasks/{task_id}/photos/{photo_id}' },
  sendTask: { method: 'POST', path: '/api/v1/tasks/{task_id}/send' },
  returnTask: { method: 'POST', path: '/api/v1/tasks/{task_id}/return' },
  taskHistory: { method: 'GET', path: '/api/v1/tasks/{task_id}/history' },
  createFieldPath: { method: 'POST', path: '/api/v1/paths' },
  listFieldPaths: { method: 'GET', path: '/api/v1/paths' },
  getFieldPath: { method: 'GET', path: '/api/v1/paths/{path_id}' },
  deleteFieldPath: { method: 'DELETE', path: '/api/v1/paths/{path_id}' },
  photoReceipt: { method: 'GET', path: '/api/v1/photos/{photo_id}/receipt' },
  receiptPublicKey: { method: 'GET', path: '/api/v1/receipts/public-key' },
  createScene: { method: 'POST', path: '/api/v1/scenes' },
  scenesNearby: { method: 'GET', path: '/api/v1/scenes' },
  getScene: { method: 'GET', path: '/api/v1/scenes/{scene_id}' },
  deleteScene: { method: 'DELETE', path: '/api/v1/scenes/{scene_id}' },
  sceneTimeline: { method: 'GET', path: '/api/v1/scenes/{scene_id}/timeline' },
  addRephotograph: { method: 'POST', path: '/api/v1/scenes/{scene_id}/photos' },
  removeRephotograph: { method: 'DELETE', path: '/api/v1/scenes/{scene_id}/photos/{photo_id}' },
  myScenes: { method: 'GET', path: '/api/v1/me/scenes' },
  publishOwnTracks: { method: 'POST', path: '/api/v1/owntracks' },
  createOwnTracksDevice: { method: 'POST', path: '/api/v1/owntracks/devices' },
  listOwnTracksDevices: { method: 'GET', path: '/api/v1/owntracks/devices' },
  revokeOwnTracksDevice: { method: 'DELETE', path: '/api/v1/owntracks/devices/{device_id}' },
  findOwnTracksDevice: { method: 'GET', path: '/api/v1/owntracks/lookup/{lookup}' },
  listOwnTracksMessages: { method: 'GET', path: '/api/v1/owntracks/lookup/{lookup}/messages' },
});

/** Every code an error answer can carry (the Error schema's `error`). @type {readonly ErrorCode[]} */
export const errorCodes = Object.freeze([
  'bad_request', 'bad_signature', 'broken_image', 'busy', 'conflict', 'cross_site_request',
  'forbidden', 'headers_too_large', 'idempotency_key_reused', 'internal_error', 'invalid_assignee',
  'invalid_cursor', 'invalid_delete_token', 'invalid_delete_token_hash', 'invalid_display_name',
  'invalid_due_date', 'invalid_email', 'invalid_envelope', 'invalid_field',
  'invalid_idempotency_key', 'invalid_instructions', 'invalid_json', 'invalid_lookup',
  'invalid_metadata', 'invalid_multipart', 'invalid_name', 'invalid_note', 'invalid_password',
  'invalid_path', 'invalid_place', 'invalid_query', 'invalid_reason', 'invalid_request',
  'invalid_title', 'invalid_username', 'invalid_visibility', 'method_not_allowed', 'missing_image',
  'missing_metadata', 'missing_photo', 'missing_signature', 'no_orbit_data', 'no_receipt',
  'not_an_image', 'not_deletable', 'not_encrypted', 'not_found', 'not_signed_in', 'part_of_scene',
  'payload_too_large', 'photo_sent', 'raw_without_preview', 'registration_closed',
  'replayed_request', 'signature_version', 'stale_timestamp', 'task_already_sent', 'task_busy',
  'task_not_editable', 'task_not_sent', 'too_many_attempts', 'too_many_pixels', 'too_many_points',
  'unauthorized', 'unknown_assignee', 'unknown_host', 'unknown_key', 'unsigned_header',
  'unsupported_media_type', 'uri_too_long', 'username_taken', 'wrong_credentials',
  'wrong_delete_token',
]);

/** @typedef {Error['error']} ErrorCode */
