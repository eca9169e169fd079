/// The OpenAPI text of the tasks (DESIGN §3.10), spliced into ``OpenAPIDocument/yaml``:
/// `paths` at the end of its `paths:` section (indented two spaces, each ending in a newline),
/// `schemas` at the end of `components.schemas` (indented four spaces).
enum TaskAPIDocument {
    /// The answers many operations share, as the lines under their status code (10 spaces in).
    private static func answer(_ description: String) -> String {
        """
                  description: "\(description)"
                  content:
                    application/json:
                      schema:
                        $ref: "#/components/schemas/Error"
        """
    }

    private static let forbidden = answer(
        "A user called an officer's operation, or an officer changed a task that is not theirs to do (forbidden); a write from another site's page (cross_site_request).")
    private static let notFound = answer("No such task, another user's task, or no such photo of it (not_found).")
    private static let conflict = answer(
        "The status rules refuse it (task_already_sent, task_not_sent, task_not_editable, task_busy), the photo was sent with the task (photo_sent), or the Idempotency-Key was used for another photo (idempotency_key_reused).")

    static let paths = #"""
  /api/v1/tasks:
    post:
      operationId: createTask
      summary: "Hand a field-inspection task to a user (officers and admins; a user gets 403 forbidden)."
      security:
        - bearer: []
        - sessionCookie: []
      parameters:
        - name: Idempotency-Key
          in: header
          required: false
          description: "Resent under the same key (the officer's own), the request answers the task made the first time instead of a second one."
          schema: {type: string, pattern: "^[!-~]{1,255}$"}
      requestBody:
        required: true
        content:
          application/json:
            schema:
              $ref: "#/components/schemas/NewTask"
      responses:
        "201":
          description: Created (status new); Location names it.
          headers:
            Location:
              schema: {type: string}
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/Task"
        "400":
          description: "Malformed input; the reason names the field (invalid_json, invalid_request, invalid_name, invalid_instructions, invalid_due_date, invalid_assignee, invalid_idempotency_key)."
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/Error"
        "401":
          $ref: "#/components/responses/NotSignedIn"
        "403":
\#(forbidden)
        "409":
          description: "The Idempotency-Key was used for another task (idempotency_key_reused)."
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/Error"
        "413":
          $ref: "#/components/responses/PayloadTooLarge"
        "422":
          description: "No account has the assignee's username (unknown_assignee)."
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/Error"
        "500":
          $ref: "#/components/responses/InternalError"
    get:
      operationId: listTasks
      summary: "The tasks a user was given; an officer's or admin's list holds every task. Newest first."
      security:
        - bearer: []
        - sessionCookie: []
      parameters:
        - {name: status, in: query, required: false, schema: {type: string, enum: [new, open, data_provided, returned]}}
        - {name: assignee, in: query, required: false, description: "Only this username's tasks (an unknown one lists none).", schema: {type: string}}
      responses:
        "200":
          description: "Every matching task, without its photos (next is always null)."
          content:
            application/json:
              schema:
                type: object
                required: [items, next]
                additionalProperties: false
                properties:
                  items:
                    type: array
                    items:
                      $ref: "#/components/schemas/Task"
                  next:
                    type: "null"
        "400":
          description: "status is not one of the four (invalid_query)."
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/Error"
        "401":
          $ref: "#/components/responses/NotSignedIn"
        "500":
          $ref: "#/components/responses/InternalError"
  /api/v1/tasks/{task_id}:
    get:
      operationId: getTask
      summary: "One task with its photos, to its assignee or an officer; opened by its assignee, a new task becomes open."
      security:
        - bearer: []
        - sessionCookie: []
      parameters:
        - {name: task_id, in: path, required: true, schema: {type: string}}
      responses:
        "200":
          description: The task.
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/Task"
        "401":
          $ref: "#/components/responses/NotSignedIn"
        "404":
\#(notFound)
        "409":
\#(conflict)
        "500":
          $ref: "#/components/responses/InternalError"
    patch:
      operationId: editTask
      summary: "Its assignee's note, while the task is new, open or returned."
      security:
        - bearer: []
        - sessionCookie: []
      parameters:
        - {name: task_id, in: path, required: true, schema: {type: string}}
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [note]
              properties:
                note: {type: string, maxLength: 10000, description: "Line breaks and tabs allowed, no other control characters."}
      responses:
        "200":
          description: The task as it is now.
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/Task"
        "400":
          description: "Malformed input (invalid_json, invalid_request, invalid_note)."
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/Error"
        "401":
          $ref: "#/components/responses/NotSignedIn"
        "403":
\#(forbidden)
        "404":
\#(notFound)
        "409":
\#(conflict)
        "413":
          $ref: "#/components/responses/PayloadTooLarge"
        "500":
          $ref: "#/components/responses/InternalError"
  /api/v1/tasks/{task_id}/photos:
    post:
      operationId: addTaskPhoto
      summary: "Add a photo to one's task while it is new, open or returned: the upload of POST /api/v1/photos (the same fields and Idempotency-Key)."
      security:
        - bearer: []
        - sessionCookie: []
      parameters:
        - {name: task_id, in: path, required: true, schema: {type: string}}
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
                title: {type: string, maxLength: 200, pattern: '^[^\x00-\x1F\x7F-\x9F]*$'}
                capturedAt: {type: string, format: date-time}
                latitude: {type: number, minimum: -90, maximum: 90}
                longitude: {type: number, minimum: -180, maximum: 180}
                altitude: {type: number, minimum: -1000, maximum: 100000}
                accuracy: {type: number, minimum: 0, maximum: 100000}
                azimuth: {type: number, minimum: 0, maximum: 360}
                tilt: {type: number, minimum: -90, maximum: 90}
                visibility: {type: string, enum: [public, private]}
                centroid: {type: string, pattern: '^\{"latitude":-?(90(\.0+)?|[1-8]?[0-9](\.[0-9]+)?),"longitude":-?(180(\.0+)?|(1[0-7][0-9]|[1-9]?[0-9])(\.[0-9]+)?),"samples":([1-9][0-9]{0,2}|1000)\}$', description: "The centroid of the phone's last fixes as JSON {latitude, longitude, samples 1..1000} (DESIGN §3.10); any other value is 400 invalid_field."}
                usePhotoPlace: {type: string, enum: ["true", "false"]}
      responses:
        "201":
          description: "Stored and added to the task (or, for a retry with the same Idempotency-Key, added before); Location names the photo."
          headers:
            Location:
              schema: {type: string}
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
\#(forbidden)
        "404":
\#(notFound)
        "409":
\#(conflict)
        "413":
          description: "Over 100 MB (payload_too_large) or 100 megapixels (too_many_pixels)."
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/Error"
        "415":
          description: "Not multipart/form-data, or no image Waymark accepts (unsupported_media_type, not_an_image, raw_without_preview)."
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
  /api/v1/tasks/{task_id}/photos/{photo_id}:
    delete:
      operationId: deleteTaskPhoto
      summary: "Delete a photo of one's task that was not sent with it (a sent photo is evidence: 409 photo_sent); the photo itself is deleted."
      security:
        - bearer: []
        - sessionCookie: []
      parameters:
        - {name: task_id, in: path, required: true, schema: {type: string}}
        - {name: photo_id, in: path, required: true, schema: {type: string}}
      responses:
        "204":
          description: Deleted.
        "401":
          $ref: "#/components/responses/NotSignedIn"
        "403":
\#(forbidden)
        "404":
\#(notFound)
        "409":
\#(conflict)
        "500":
          $ref: "#/components/responses/InternalError"
  /api/v1/tasks/{task_id}/send:
    post:
      operationId: sendTask
      summary: "Its assignee sends the task (new, open or returned → data_provided); its photos are sent with it and can never be deleted."
      security:
        - bearer: []
        - sessionCookie: []
      parameters:
        - {name: task_id, in: path, required: true, schema: {type: string}}
      responses:
        "200":
          description: The task as it is now.
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/Task"
        "401":
          $ref: "#/components/responses/NotSignedIn"
        "403":
\#(forbidden)
        "404":
\#(notFound)
        "409":
\#(conflict)
        "500":
          $ref: "#/components/responses/InternalError"
  /api/v1/tasks/{task_id}/return:
    post:
      operationId: returnTask
      summary: "An officer sends a sent task back to its user (data_provided → returned) with the reason."
      security:
        - bearer: []
        - sessionCookie: []
      parameters:
        - {name: task_id, in: path, required: true, schema: {type: string}}
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [reason]
              properties:
                reason: {type: string, minLength: 1, maxLength: 2000, pattern: '\S', description: "Not blank; line breaks and tabs allowed, no other control characters."}
      responses:
        "200":
          description: The task as it is now.
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/Task"
        "400":
          description: "Malformed input (invalid_json, invalid_request, invalid_reason: empty or blank)."
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/Error"
        "401":
          $ref: "#/components/responses/NotSignedIn"
        "403":
\#(forbidden)
        "404":
\#(notFound)
        "409":
\#(conflict)
        "413":
          $ref: "#/components/responses/PayloadTooLarge"
        "500":
          $ref: "#/components/responses/InternalError"
  /api/v1/tasks/{task_id}/history:
    get:
      operationId: taskHistory
      summary: "Every change of the task's status (its creation first) with who made it and when, oldest first."
      security:
        - bearer: []
        - sessionCookie: []
      parameters:
        - {name: task_id, in: path, required: true, schema: {type: string}}
      responses:
        "200":
          description: The history (next is always null).
          content:
            application/json:
              schema:
                type: object
                required: [items, next]
                additionalProperties: false
                properties:
                  items:
                    type: array
                    items:
                      $ref: "#/components/schemas/TaskHistoryEntry"
                  next:
                    type: "null"
        "401":
          $ref: "#/components/responses/NotSignedIn"
        "404":
\#(notFound)
        "500":
          $ref: "#/components/responses/InternalError"

"""#

    static let schemas = #"""
    NewTask:
      type: object
      required: [assignee, name, dueDate]
      properties:
        assignee: {type: string, description: "The username of the account that is to do it."}
        name: {type: string, minLength: 1, maxLength: 200, pattern: '^[^\x00-\x1F\x7F-\x9F]*$'}
        instructions: {type: ["string", "null"], maxLength: 10000}
        dueDate: {type: string, description: "An ISO 8601 date (2026-07-01) or date-time with its zone, years 1970 to 9999.", examples: ["2026-07-01", "2026-07-01T17:00:00+02:00"]}
    TaskPerson:
      type: object
      required: [id, username, displayName]
      additionalProperties: false
      properties:
        id: {type: string, format: uuid}
        username: {type: string}
        displayName: {type: string}
    Task:
      type: object
      required: [id, name, instructions, dueDate, note, status, returnReason, assignee, createdBy, createdAt, updatedAt, photoCount]
      additionalProperties: false
      properties:
        id: {type: string, format: uuid}
        name: {type: string}
        instructions: {type: string}
        dueDate: {type: string, description: "YYYY-MM-DD, or a UTC date-time YYYY-MM-DDTHH:MM:SSZ."}
        note: {type: string, description: The assignee's note; empty when there is none.}
        status: {type: string, enum: [new, open, data_provided, returned]}
        returnReason: {type: ["string", "null"], description: Why an officer last returned it; null if never.}
        assignee:
          $ref: "#/components/schemas/TaskPerson"
        createdBy:
          $ref: "#/components/schemas/TaskPerson"
        createdAt: {type: number, description: Unix seconds.}
        updatedAt: {type: number, description: Unix seconds.}
        photoCount: {type: integer, minimum: 0}
        photos:
          type: array
          description: Only in the answer about one task.
          items:
            $ref: "#/components/schemas/Photo"
        sentPhotoIds:
          type: array
          description: "With photos: the ids of those sent with the task (evidence: they can never be deleted)."
          items: {type: string, format: uuid}
    TaskHistoryEntry:
      type: object
      required: [from, to, actor, at, reason]
      additionalProperties: false
      properties:
        from: {type: ["string", "null"], enum: [new, open, data_provided, returned, null], description: "null for the task's creation."}
        to: {type: string, enum: [new, open, data_provided, returned]}
        actor:
          $ref: "#/components/schemas/TaskPerson"
        at: {type: number, description: Unix seconds.}
        reason: {type: ["string", "null"], description: "The reason of a return."}

"""#
}
