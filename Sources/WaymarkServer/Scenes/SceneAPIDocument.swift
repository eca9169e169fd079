/// The OpenAPI text of the scenes (DESIGN §3.9), spliced into ``OpenAPIDocument/yaml``:
/// `paths` at the end of its `paths:` section (indented two spaces, each ending in a newline),
/// `schemas` at the end of `components.schemas` (indented four spaces).
enum SceneAPIDocument {
    static let paths = #"""
  /api/v1/scenes:
    post:
      operationId: createScene
      summary: Create a scene of rephotography (signed in) from its metadata, reference image and feet shot; all or nothing.
      description: |
        Both images become photos (§3.6, public) of the signed-in account, placed at the pin; when
        either image is refused, or anything else fails, nothing is stored (no scene, no photo, no
        file). The same Idempotency-Key answers the scene stored the first time (201) and stores
        nothing new. The attitude is a unit quaternion in the W3C DeviceOrientation frame (east-north-up
        world); one whose norm is within 0.001 of 1 is normalised, any other refused.
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
              required: [metadata, image, feetShot]
              properties:
                metadata:
                  $ref: "#/components/schemas/NewSceneMetadata"
                image: {type: string, format: binary, description: "The reference photo: JPEG, HEIC, PNG, WebP, TIFF or a camera RAW; at most 100 MB and 100 megapixels."}
                feetShot: {type: string, format: binary, description: "The ground where the photographer stood; the same kinds of image."}
            encoding:
              metadata:
                contentType: application/json
      responses:
        "201":
          description: Stored (or stored before under the same Idempotency-Key), with its photos and address.
          headers:
            Location:
              schema: {type: string}
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/Scene"
        "400":
          description: "The metadata is missing or malformed (missing_metadata, invalid_metadata: the reason names the field), an image part is missing (missing_image), or the body or Idempotency-Key is malformed (invalid_multipart, invalid_idempotency_key)."
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/Error"
        "401":
          $ref: "#/components/responses/NotSignedIn"
        "403":
          $ref: "#/components/responses/AccountForbidden"
        "413":
          description: "An image is over 100 MB (payload_too_large) or 100 megapixels (too_many_pixels); a declared body over 8 MiB is refused at once (payload_too_large)."
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/Error"
        "415":
          description: "Not multipart/form-data (unsupported_media_type), or an image is no image Waymark accepts (not_an_image, raw_without_preview); the reason names the part."
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/Error"
        "422":
          description: "An image is damaged or incomplete (broken_image); the reason names the part."
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/Error"
        "500":
          $ref: "#/components/responses/InternalError"
    get:
      operationId: scenesNearby
      summary: Scenes within a radius (geodesic, WGS-84; default 2500 m) that the viewer may see, nearest first, by pages.
      security:
        - {}
        - bearer: []
        - sessionCookie: []
      parameters:
        - {name: latitude, in: query, required: true, schema: {type: number, minimum: -90, maximum: 90}}
        - {name: longitude, in: query, required: true, schema: {type: number, minimum: -180, maximum: 180}}
        - {name: radius, in: query, required: false, description: "Metres (default 2500).", schema: {type: number, exclusiveMinimum: 0, maximum: 50000}}
        - {name: limit, in: query, required: false, schema: {type: integer, minimum: 1, maximum: 500}}
        - {name: cursor, in: query, required: false, description: "The next value of the previous page (opaque; one this server did not give answers 400 invalid_cursor; empty means none).", schema: {type: string}}
      responses:
        "200":
          description: One page of scenes, each with its distance in metres (nearest first; among equal distances the most recently taken first).
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/ScenePage"
        "400":
          description: "A parameter is missing or out of range (invalid_query, invalid_cursor)."
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/Error"
        "500":
          $ref: "#/components/responses/InternalError"
  /api/v1/scenes/{scene_id}:
    get:
      operationId: getScene
      summary: "A scene: reference, feet shot, rephotographs, address, creator; with latitude and longitude, its distance from there."
      security:
        - {}
        - bearer: []
        - sessionCookie: []
      parameters:
        - {name: scene_id, in: path, required: true, schema: {type: string}}
        - {name: latitude, in: query, required: false, schema: {type: number, minimum: -90, maximum: 90}}
        - {name: longitude, in: query, required: false, schema: {type: number, minimum: -180, maximum: 180}}
        - {name: Accept-Language, in: header, required: false, schema: {type: string}, description: "The language of the street address (its first tag, e.g. de); English when absent or not a language tag."}
      responses:
        "200":
          description: The scene.
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/Scene"
        "400":
          description: "latitude or longitude is malformed, out of range, or given alone (invalid_query)."
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/Error"
        "404":
          description: "No such scene, or one whose reference photo the viewer may not see (not_found)."
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/Error"
        "500":
          $ref: "#/components/responses/InternalError"
    delete:
      operationId: deleteScene
      summary: "Delete one's own scene, with one's own photos of it (reference, feet shot, own rephotographs) and their files when nothing else refers to them; others' rephotographs stay theirs, as photos of their own."
      security:
        - bearer: []
        - sessionCookie: []
      parameters:
        - {name: scene_id, in: path, required: true, schema: {type: string}}
      responses:
        "204":
          description: Deleted.
        "401":
          $ref: "#/components/responses/NotSignedIn"
        "403":
          $ref: "#/components/responses/AccountForbidden"
        "404":
          description: "Not the account's scene, or no such scene (not_found)."
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/Error"
        "500":
          $ref: "#/components/responses/InternalError"
  /api/v1/scenes/{scene_id}/timeline:
    get:
      operationId: sceneTimeline
      summary: The reference photo and every rephotograph the viewer may see, by capture time, oldest first.
      security:
        - {}
        - bearer: []
        - sessionCookie: []
      parameters:
        - {name: scene_id, in: path, required: true, schema: {type: string}}
      responses:
        "200":
          description: The timeline.
          content:
            application/json:
              schema:
                type: object
                additionalProperties: false
                required: [items]
                properties:
                  items:
                    type: array
                    items:
                      $ref: "#/components/schemas/SceneTimelineEntry"
        "404":
          description: "No such scene, or one the viewer may not see (not_found)."
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/Error"
        "500":
          $ref: "#/components/responses/InternalError"
  /api/v1/scenes/{scene_id}/photos:
    post:
      operationId: addRephotograph
      summary: Add a rephotograph to a scene (signed in; anyone who can see the scene); the same Idempotency-Key answers the same rephotograph.
      description: |
        The image becomes a photo (§3.6, public) of the signed-in account, placed where the phone
        says it was, else at the scene's place.
      security:
        - bearer: []
        - sessionCookie: []
      parameters:
        - {name: scene_id, in: path, required: true, schema: {type: string}}
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
              required: [metadata, image]
              properties:
                metadata:
                  $ref: "#/components/schemas/RephotographMetadata"
                image: {type: string, format: binary, description: "JPEG, HEIC, PNG, WebP, TIFF or a camera RAW; at most 100 MB and 100 megapixels."}
            encoding:
              metadata:
                contentType: application/json
      responses:
        "201":
          description: Stored (or stored before under the same Idempotency-Key).
          headers:
            Location:
              schema: {type: string}
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/Rephotograph"
        "400":
          description: "The metadata is missing or malformed (missing_metadata, invalid_metadata), the image part is missing (missing_image), or the body or Idempotency-Key is malformed (invalid_multipart, invalid_idempotency_key)."
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/Error"
        "401":
          $ref: "#/components/responses/NotSignedIn"
        "403":
          $ref: "#/components/responses/AccountForbidden"
        "404":
          description: "No such scene, or one the viewer may not see (not_found)."
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/Error"
        "409":
          description: "The Idempotency-Key was used for a rephotograph of another scene (idempotency_key_reused)."
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/Error"
        "413":
          description: "The image is over 100 MB (payload_too_large) or 100 megapixels (too_many_pixels); a declared body over 8 MiB is refused at once (payload_too_large)."
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/Error"
        "415":
          description: "Not multipart/form-data (unsupported_media_type), or the image is no image Waymark accepts (not_an_image, raw_without_preview)."
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
  /api/v1/scenes/{scene_id}/photos/{photo_id}:
    delete:
      operationId: removeRephotograph
      summary: "Remove a rephotograph from a scene (its author or the scene's creator); the photo and file go with it when it is the requester's own and nothing else refers to them, else it stays its author's photo."
      security:
        - bearer: []
        - sessionCookie: []
      parameters:
        - {name: scene_id, in: path, required: true, schema: {type: string}}
        - {name: photo_id, in: path, required: true, schema: {type: string}}
      responses:
        "204":
          description: Removed.
        "401":
          $ref: "#/components/responses/NotSignedIn"
        "403":
          $ref: "#/components/responses/AccountForbidden"
        "404":
          description: "No such scene or rephotograph, or one the account may not remove (not_found)."
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/Error"
        "409":
          description: "The photo is the scene's reference or feet shot, which go only with the scene (part_of_scene)."
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/Error"
        "500":
          $ref: "#/components/responses/InternalError"
  /api/v1/me/scenes:
    get:
      operationId: myScenes
      summary: The signed-in account's scenes, newest first, by pages.
      security:
        - bearer: []
        - sessionCookie: []
      parameters:
        - {name: limit, in: query, required: false, schema: {type: integer, minimum: 1, maximum: 500}}
        - {name: cursor, in: query, required: false, description: "The next value of the previous page (opaque).", schema: {type: string}}
      responses:
        "200":
          description: One page of scenes.
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/ScenePage"
        "400":
          description: "limit or cursor is malformed (invalid_query, invalid_cursor)."
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/Error"
        "401":
          $ref: "#/components/responses/NotSignedIn"
        "500":
          $ref: "#/components/responses/InternalError"

"""#

    static let schemas = #"""
    Attitude:
      type: object
      additionalProperties: false
      required: [w, x, y, z]
      description: A unit quaternion (Hamilton) turning device axes (W3C DeviceOrientation) into the east-north-up world frame.
      properties:
        w: {type: number}
        x: {type: number}
        y: {type: number}
        z: {type: number}
    NewSceneMetadata:
      type: object
      required: [latitude, longitude, capturedAt, attitude]
      properties:
        name: {type: ["string", "null"], maxLength: 200}
        latitude: {type: number, minimum: -90, maximum: 90, description: "Where the photographer stood (the pin)."}
        longitude: {type: number, minimum: -180, maximum: 180}
        capturedAt: {type: string, format: date-time, description: "ISO 8601 with its zone (Unix seconds are read too)."}
        attitude:
          $ref: "#/components/schemas/Attitude"
        heading: {type: ["number", "null"], minimum: 0, maximum: 360, description: "Compass heading, degrees clockwise from true north."}
        accuracy: {type: ["number", "null"], minimum: 0, maximum: 100000, description: "Metres."}
    RephotographMetadata:
      type: object
      required: [capturedAt, attitude]
      dependentRequired:
        latitude: [longitude]
        longitude: [latitude]
      properties:
        capturedAt: {type: string, format: date-time}
        attitude:
          $ref: "#/components/schemas/Attitude"
        heading: {type: ["number", "null"], minimum: 0, maximum: 360}
        latitude: {type: ["number", "null"], minimum: -90, maximum: 90}
        longitude: {type: ["number", "null"], minimum: -180, maximum: 180}
        accuracy: {type: ["number", "null"], minimum: 0, maximum: 100000}
    SceneAddress:
      type: object
      additionalProperties: false
      required: [line, place, region, country, countryCode, distance, bearing, attribution, street]
      description: The nearest populated place of the offline GeoNames gazetteer (cities of 1,000 or more people).
      properties:
        line: {type: string, description: "E.g. 1.2 km NE of Brno, South Moravian, Czechia."}
        place: {type: string}
        region: {type: string, description: First-level division; empty when GeoNames has none.}
        country: {type: string}
        countryCode: {type: string, description: ISO 3166-1 alpha-2.}
        distance: {type: number, description: Metres from the place to the scene.}
        bearing: {type: ["number", "null"], description: "Degrees clockwise from north, from the place to the scene; null at the place."}
        attribution: {type: string}
        street:
          oneOf:
            - $ref: "#/components/schemas/StreetAddress"
            - type: "null"
          description: "The street address from the server's Nominatim-compatible reverse geocoder (serve --nominatim-url), in the language of Accept-Language; a scene's own page only, null without one or when it did not answer."
    StreetAddress:
      type: object
      additionalProperties: false
      required: [line, attribution]
      properties:
        line: {type: string}
        attribution: {type: string, description: "The credit the geocoder's data asks for (OpenStreetMap's ODbL)."}
    Rephotograph:
      type: object
      additionalProperties: false
      required: [photo, attitude, heading, addedAt]
      properties:
        photo:
          $ref: "#/components/schemas/Photo"
        attitude:
          $ref: "#/components/schemas/Attitude"
        heading: {type: ["number", "null"]}
        addedAt: {type: number, description: Unix seconds.}
    Scene:
      type: object
      additionalProperties: false
      required: [id, name, creator, latitude, longitude, accuracy, capturedAt, createdAt, attitude, heading, reference, feetShot, rephotographCount, address]
      properties:
        id: {type: string, format: uuid}
        name: {type: ["string", "null"]}
        creator:
          type: object
          required: [id, username, displayName]
          properties:
            id: {type: string}
            username: {type: string}
            displayName: {type: string}
        latitude: {type: number}
        longitude: {type: number}
        accuracy: {type: ["number", "null"]}
        capturedAt: {type: number, description: Unix seconds.}
        createdAt: {type: number}
        attitude:
          $ref: "#/components/schemas/Attitude"
        heading: {type: ["number", "null"]}
        reference:
          $ref: "#/components/schemas/Photo"
        feetShot:
          oneOf:
            - $ref: "#/components/schemas/Photo"
            - type: "null"
          description: Null when its photo was deleted or made private by its owner.
        rephotographCount: {type: integer, minimum: 0}
        rephotographs:
          type: array
          description: The scene's own page only.
          items:
            $ref: "#/components/schemas/Rephotograph"
        address:
          oneOf:
            - $ref: "#/components/schemas/SceneAddress"
            - type: "null"
          description: Null when the server has no gazetteer.
        distance: {type: number, description: "Metres from the searched place (searches, and the page asked with latitude and longitude)."}
    ScenePage:
      type: object
      additionalProperties: false
      required: [items, next]
      properties:
        items:
          type: array
          items:
            $ref: "#/components/schemas/Scene"
        next:
          type: ["string", "null"]
    SceneTimelineEntry:
      type: object
      additionalProperties: false
      required: [kind, photo, attitude, heading]
      properties:
        kind: {type: string, enum: [reference, rephotograph]}
        photo:
          $ref: "#/components/schemas/Photo"
        attitude:
          $ref: "#/components/schemas/Attitude"
        heading: {type: ["number", "null"]}

"""#
}
