import Foundation
import Testing
import Vapor
import SQLKit
import VaporTesting
import WaymarkAPI
import WaymarkCore
@testable import WaymarkServer

extension TestServer {
    /// Registers an account and makes it an officer.
    func officer(_ username: String) async throws -> SessionDTO {
        let session = try await register(username, displayName: "Officer \(username.prefix(4))")
        _ = try await stores.accounts.setRole(.officer, username: username)
        return session
    }

    func createTask(_ token: String, assignee: String, name: String = "Field 17, north boundary", due: String = "2026-07-01",
                    idempotencyKey: String? = nil) async throws -> TestingHTTPResponse {
        var headers = TestServer.bearer(token)
        if let idempotencyKey { headers.replaceOrAdd(name: "Idempotency-Key", value: idempotencyKey) }
        return try await json(.POST, "/api/v1/tasks", NewTaskRequest(assignee: assignee, name: name, instructions: "Photograph the boundary stones.", dueDate: due),
                              headers: headers)
    }

    func get(_ path: String, _ token: String) async throws -> TestingHTTPResponse {
        try await send(.GET, path, headers: TestServer.bearer(token))
    }

    func post(_ path: String, _ token: String) async throws -> TestingHTTPResponse {
        try await send(.POST, path, headers: TestServer.bearer(token))
    }

    /// Uploads a small photo into a task.
    func addTaskPhoto(_ task: UUID, _ data: Data, token: String, idempotencyKey: String? = nil, fields: [String: String] = [:]) async throws -> TestingHTTPResponse {
        var form = Multipart()
        form.field("azimuth", "123.5")
        for (name, value) in fields.sorted(by: { $0.key < $1.key }) { form.field(name, value) }
        form.file("photo", filename: "evidence.jpg", data)
        var headers = TestServer.bearer(token)
        headers.replaceOrAdd(name: .contentType, value: form.contentType)
        if let idempotencyKey { headers.replaceOrAdd(name: "Idempotency-Key", value: idempotencyKey) }
        return try await send(.POST, "/api/v1/tasks/\(task)/photos", headers: headers, body: form.finished)
    }
}

/// Small JPEGs, each different, made by ImageMagick.
enum TaskPhoto {
    static func jpeg(in folder: URL, _ colours: String) async throws -> Data {
        let url = folder.appendingPathComponent("task-\(UUID().uuidString).jpg")
        try await TestPhoto.run(["convert", "-size", "320x240", "gradient:\(colours)", "-quality", "85", url.path])
        return try Data(contentsOf: url)
    }
}

func uniqueName(_ prefix: String) async -> String { "\(prefix)-\(UUID().uuidString.prefix(8).lowercased())" }

@Suite("Tasks of field inspection: officers hand them out, users fill and send them, the server keeps the rules")
struct TaskAPITests {
    @Test("The whole flow: create, list, open, note, photos, send, refused changes, return, edit again, re-send, history", arguments: TestDatabase.all)
    func wholeFlow(database: TestDatabase) async throws {
        let folder = makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await withServer(database) { server in
            let olga = try await server.officer(uniqueName("olga"))
            let ursa = try await server.register(uniqueName("ursa"), displayName: "Ursa Farmer")
            let before = Date().addingTimeInterval(-1)

            // The officer creates it.
            let created = try await server.createTask(olga.token, assignee: ursa.user.username.uppercased(), due: "2026-07-01T17:00:00+02:00")
            #expect(created.status == .created, "\(created.text)")
            let task = try created.decode(TaskDTO.self)
            #expect(created.headers.first(name: .location) == "/api/v1/tasks/\(task.id.uuidString.lowercased())")
            #expect(task.status == .new && task.name == "Field 17, north boundary" && task.instructions == "Photograph the boundary stones.")
            #expect(task.dueDate == "2026-07-01T15:00:00Z", "a date-time is kept in UTC")
            #expect(task.assignee == TaskPerson(id: ursa.user.id, username: ursa.user.username, displayName: "Ursa Farmer"))
            #expect(task.createdBy.username == olga.user.username && task.note == "" && task.returnReason == nil && task.photoCount == 0)
            #expect(task.createdAt >= before && task.updatedAt == task.createdAt)

            // The user lists it, still new; opening it makes it open (the officer's look does not).
            let list = try await server.get("/api/v1/tasks", ursa.token).decode(Page<TaskDTO>.self)
            #expect(list.items.map(\.id) == [task.id] && list.items.first?.status == .new && list.items.first?.photos == nil)
            #expect(try await server.get("/api/v1/tasks/\(task.id)", olga.token).decode(TaskDTO.self).status == .new)
            let opened = try await server.get("/api/v1/tasks/\(task.id)", ursa.token)
            #expect(opened.status == .ok)
            #expect(try opened.decode(TaskDTO.self).status == .open)
            #expect(try await server.get("/api/v1/tasks/\(task.id)", ursa.token).decode(TaskDTO.self).status == .open)

            // A note and two photos; one deleted before sending; one deleted through the photo API.
            let noted = try await server.json(.PATCH, "/api/v1/tasks/\(task.id)", TaskEditRequest(note: "Stone 3 is missing.\nSee photo 2."),
                                              headers: TestServer.bearer(ursa.token))
            #expect(noted.status == .ok, "\(noted.text)")
            #expect(try noted.decode(TaskDTO.self).note == "Stone 3 is missing.\nSee photo 2.")
            var photoIDs: [UUID] = []
            for colours in ["green-white", "brown-yellow", "blue-gray"] {
                let centroid = colours == "green-white" ? ["centroid": #"{"latitude":46.0501,"longitude":14.5012,"samples":10}"#] : [:]
                let added = try await server.addTaskPhoto(task.id, try TaskPhoto.jpeg(in: folder, colours), token: ursa.token, fields: centroid)
                #expect(added.status == .created, "\(added.text)")
                let photo = try added.decode(PhotoDTO.self)
                #expect(photo.azimuth == 123.5 && photo.owner.username == ursa.user.username)
                #expect(photo.centroid?.samples == (centroid.isEmpty ? nil : 10), "the upload's centroid field (§3.10) goes with the photo")
                photoIDs.append(photo.id)
            }
            var detail = try await server.get("/api/v1/tasks/\(task.id)", ursa.token).decode(TaskDTO.self)
            #expect(detail.photoCount == 3 && detail.photos?.map(\.id) == photoIDs)
            let removed = try await server.send(.DELETE, "/api/v1/tasks/\(task.id)/photos/\(photoIDs[1])", headers: TestServer.bearer(ursa.token))
            #expect(removed.status == .noContent, "\(removed.text)")
            #expect(try await server.get("/api/v1/photos/\(photoIDs[1])", ursa.token).status == .notFound, "the photo itself is deleted")
            #expect(try await server.send(.DELETE, "/api/v1/photos/\(photoIDs[2])", headers: TestServer.bearer(ursa.token)).status == .noContent)
            detail = try await server.get("/api/v1/tasks/\(task.id)", ursa.token).decode(TaskDTO.self)
            #expect(detail.photoCount == 1 && detail.photos?.map(\.id) == [photoIDs[0]], "a photo deleted elsewhere leaves the task too")

            // Sent: the photo is evidence, the task cannot change, and cannot be sent twice.
            let sent = try await server.post("/api/v1/tasks/\(task.id)/send", ursa.token)
            #expect(sent.status == .ok, "\(sent.text)")
            #expect(try sent.decode(TaskDTO.self).status == .dataProvided)
            #expect(try await isEvidence(photoIDs[0], on: server))
            let keep = try await server.send(.DELETE, "/api/v1/tasks/\(task.id)/photos/\(photoIDs[0])", headers: TestServer.bearer(ursa.token))
            #expect(try keep.status == .conflict && (try keep.apiError().error) == "photo_sent", "\(keep.text)")
            let frozen = try await server.json(.PATCH, "/api/v1/tasks/\(task.id)", TaskEditRequest(note: "changed"), headers: TestServer.bearer(ursa.token))
            #expect(try frozen.status == .conflict && (try frozen.apiError().error) == "task_not_editable", "\(frozen.text)")
            #expect(try frozen.apiError().reason.contains("until an officer returns it"))
            let late = try await server.addTaskPhoto(task.id, try TaskPhoto.jpeg(in: folder, "red-white"), token: ursa.token)
            #expect(try late.status == .conflict && (try late.apiError().error) == "task_not_editable")
            let twice = try await server.post("/api/v1/tasks/\(task.id)/send", ursa.token)
            #expect(try twice.status == .conflict && (try twice.apiError().error) == "task_already_sent")

            // The officer returns it with a reason; the user edits, adds a photo and sends again.
            let returned = try await server.json(.POST, "/api/v1/tasks/\(task.id)/return", TaskReturnRequest(reason: "Stone 4 is not in the photo."),
                                                 headers: TestServer.bearer(olga.token))
            #expect(returned.status == .ok, "\(returned.text)")
            #expect(try returned.decode(TaskDTO.self).status == .returned)
            #expect(try returned.decode(TaskDTO.self).returnReason == "Stone 4 is not in the photo.")
            let again = try await server.json(.POST, "/api/v1/tasks/\(task.id)/return", TaskReturnRequest(reason: "twice"), headers: TestServer.bearer(olga.token))
            #expect(try again.status == .conflict && (try again.apiError().error) == "task_not_sent")
            #expect(try await server.json(.PATCH, "/api/v1/tasks/\(task.id)", TaskEditRequest(note: "Stone 4 added."),
                                          headers: TestServer.bearer(ursa.token)).status == .ok)
            let extra = try await server.addTaskPhoto(task.id, try TaskPhoto.jpeg(in: folder, "red-white"), token: ursa.token)
            #expect(extra.status == .created, "\(extra.text)")
            let extraID = try extra.decode(PhotoDTO.self).id
            let stillKept = try await server.send(.DELETE, "/api/v1/tasks/\(task.id)/photos/\(photoIDs[0])", headers: TestServer.bearer(ursa.token))
            #expect(try stillKept.status == .conflict && (try stillKept.apiError().error) == "photo_sent", "a sent photo stays sent after a return")
            #expect(try await !isEvidence(extraID, on: server))
            let mixed = try await server.get("/api/v1/tasks/\(task.id)", ursa.token).decode(TaskDTO.self)
            #expect(mixed.photos?.map(\.id) == [photoIDs[0], extraID] && mixed.sentPhotoIds == [photoIDs[0]],
                    "the detail says which photos were sent, so the page never offers to delete evidence")
            #expect(try await server.get("/api/v1/tasks?assignee=\(ursa.user.username)", olga.token).text.contains("sentPhotoIds") == false,
                    "only the detail lists them")
            let resent = try await server.post("/api/v1/tasks/\(task.id)/send", ursa.token)
            #expect(try resent.decode(TaskDTO.self).status == .dataProvided)
            #expect(try resent.decode(TaskDTO.self).photoCount == 2)
            #expect(try await isEvidence(extraID, on: server))

            // Every transition, oldest first, with who and when; the officer reads it too.
            let history = try await server.get("/api/v1/tasks/\(task.id)/history", olga.token)
            #expect(history.status == .ok, "\(history.text)")
            let entries = try history.decode(Page<TaskHistoryEntryDTO>.self).items
            #expect(entries.map { "\($0.from?.rawValue ?? "-")>\($0.to.rawValue)" }
                    == ["->new", "new>open", "open>data_provided", "data_provided>returned", "returned>data_provided"])
            #expect(entries.map(\.actor.username) == [olga.user.username, ursa.user.username, ursa.user.username, olga.user.username, ursa.user.username])
            #expect(entries.map(\.reason) == [nil, nil, nil, "Stone 4 is not in the photo.", nil])
            #expect(entries.first?.actor.displayName.hasPrefix("Officer") == true)
            #expect(zip(entries, entries.dropFirst()).allSatisfy { $0.at <= $1.at } && (entries.first?.at ?? .distantPast) >= before)
            #expect(try await server.get("/api/v1/tasks/\(task.id)/history", ursa.token).decode(Page<TaskHistoryEntryDTO>.self).items == entries)

            // The officer's list, by status and by assignee.
            let all = try await server.get("/api/v1/tasks?status=data_provided&assignee=\(ursa.user.username)", olga.token).decode(Page<TaskDTO>.self)
            #expect(all.items.map(\.id) == [task.id])
            #expect(try await server.get("/api/v1/tasks?status=returned", olga.token).decode(Page<TaskDTO>.self).items.allSatisfy { $0.id != task.id })
            #expect(try await server.get("/api/v1/tasks?assignee=nobody-here", olga.token).decode(Page<TaskDTO>.self).items.isEmpty)
        }
    }

    @Test("Who may do what: users cannot create or return (403), another user's task is 404 everywhere, signed out is 401", arguments: TestDatabase.all)
    func authorization(database: TestDatabase) async throws {
        let folder = makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await withServer(database) { server in
            let olga = try await server.officer(uniqueName("olga"))
            let ursa = try await server.register(uniqueName("ursa"))
            let bob = try await server.register(uniqueName("bob"))

            let forbidden = try await server.createTask(ursa.token, assignee: bob.user.username)
            #expect(try forbidden.status == .forbidden && (try forbidden.apiError().error) == "forbidden", "\(forbidden.text)")
            #expect(try forbidden.apiError().reason.contains("officers"))
            let task = try await server.createTask(olga.token, assignee: ursa.user.username).decode(TaskDTO.self)
            let bobs = try await server.createTask(olga.token, assignee: bob.user.username, name: "Bob's meadow").decode(TaskDTO.self)
            _ = try await server.post("/api/v1/tasks/\(task.id)/send", ursa.token)
            let userReturn = try await server.json(.POST, "/api/v1/tasks/\(task.id)/return", TaskReturnRequest(reason: "mine"), headers: TestServer.bearer(ursa.token))
            #expect(try userReturn.status == .forbidden && (try userReturn.apiError().error) == "forbidden")

            // Bob: Ursa's task does not exist for him, whatever he tries.
            let bearer = TestServer.bearer(bob.token)
            #expect(try await server.get("/api/v1/tasks/\(task.id)", bob.token).status == .notFound)
            #expect(try await server.get("/api/v1/tasks/\(task.id)/history", bob.token).status == .notFound)
            #expect(try await server.json(.PATCH, "/api/v1/tasks/\(task.id)", TaskEditRequest(note: "x"), headers: bearer).status == .notFound)
            #expect(try await server.post("/api/v1/tasks/\(task.id)/send", bob.token).status == .notFound)
            #expect(try await server.addTaskPhoto(task.id, try TaskPhoto.jpeg(in: folder, "green-white"), token: bob.token).status == .notFound)
            #expect(try await server.send(.DELETE, "/api/v1/tasks/\(task.id)/photos/\(UUID())", headers: bearer).status == .notFound)
            #expect(try await server.get("/api/v1/tasks/\(UUID())", bob.token).status == .notFound)
            #expect(try await server.get("/api/v1/tasks/not-a-uuid", bob.token).status == .notFound)
            #expect(try await server.get("/api/v1/tasks/\(task.id)", ursa.token).decode(TaskDTO.self).status == .dataProvided, "nothing of Bob's changed it")

            // Lists: each user sees only their own, even when asking for another's; officers see all.
            #expect(try await server.get("/api/v1/tasks", bob.token).decode(Page<TaskDTO>.self).items.map(\.id) == [bobs.id])
            #expect(try await server.get("/api/v1/tasks?assignee=\(ursa.user.username)", bob.token).decode(Page<TaskDTO>.self).items.isEmpty)
            #expect(try await server.get("/api/v1/tasks", ursa.token).decode(Page<TaskDTO>.self).items.map(\.id) == [task.id])
            #expect(try Set(try await server.get("/api/v1/tasks", olga.token).decode(Page<TaskDTO>.self).items.map(\.id)).isSuperset(of: [task.id, bobs.id]))

            // An officer can see a task but not do its user's part.
            let officerEdit = try await server.json(.PATCH, "/api/v1/tasks/\(bobs.id)", TaskEditRequest(note: "x"), headers: TestServer.bearer(olga.token))
            #expect(try officerEdit.status == .forbidden && (try officerEdit.apiError().reason.contains(bob.user.username)))
            #expect(try await server.post("/api/v1/tasks/\(bobs.id)/send", olga.token).status == .forbidden)

            // Signed out.
            #expect(try await server.send(.GET, "/api/v1/tasks").status == .unauthorized)
            #expect(try await server.send(.GET, "/api/v1/tasks/\(task.id)").status == .unauthorized)
            #expect(try await server.json(.POST, "/api/v1/tasks", NewTaskRequest(assignee: bob.user.username, name: "x", dueDate: "2026-07-01")).status == .unauthorized)
            #expect(try await server.send(.POST, "/api/v1/tasks/\(task.id)/send").status == .unauthorized)
        }
    }

    @Test("Bad input answers 400 or 422 naming the field: missing name, bad date, unknown assignee, empty reason, unknown status, malformed JSON", arguments: TestDatabase.all)
    func badInput(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let olga = try await server.officer(uniqueName("olga"))
            let ursa = try await server.register(uniqueName("ursa"))
            var headers = TestServer.bearer(olga.token)
            headers.contentType = .json

            func refused(_ body: String, _ status: HTTPResponseStatus, _ code: String, naming field: String, path: String = "/api/v1/tasks") async throws {
                let answer = try await server.send(.POST, path, headers: headers, body: Array(body.utf8))
                #expect(answer.status == status, "\(body): \(answer.text)")
                let error = try answer.apiError()
                #expect(error.error == code, "\(body): \(answer.text)")
                #expect(error.reason.contains(field), "\(body): \(error.reason)")
            }
            let assignee = ursa.user.username
            try await refused(#"{"assignee":"\#(assignee)","dueDate":"2026-07-01"}"#, .badRequest, "invalid_request", naming: "name")
            try await refused(#"{"assignee":"\#(assignee)","name":"  ","dueDate":"2026-07-01"}"#, .badRequest, "invalid_name", naming: "name")
            try await refused(#"{"assignee":"\#(assignee)","name":"a\u0007b","dueDate":"2026-07-01"}"#, .badRequest, "invalid_name", naming: "name")
            try await refused(#"{"assignee":"\#(assignee)","name":"N","dueDate":"2026-02-30"}"#, .badRequest, "invalid_due_date", naming: "dueDate")
            try await refused(#"{"assignee":"\#(assignee)","name":"N","dueDate":"next week"}"#, .badRequest, "invalid_due_date", naming: "dueDate")
            try await refused(#"{"assignee":"\#(assignee)","name":"N","dueDate":20260701}"#, .badRequest, "invalid_request", naming: "dueDate")
            try await refused(#"{"assignee":"ghost-of-nobody","name":"N","dueDate":"2026-07-01"}"#, .unprocessableEntity, "unknown_assignee", naming: "ghost-of-nobody")
            try await refused(#"{"assignee":"no way!","name":"N","dueDate":"2026-07-01"}"#, .badRequest, "invalid_assignee", naming: "assignee")
            try await refused(#"{"assignee":"\#(assignee)","name":"N","#, .badRequest, "invalid_json", naming: "JSON")
            try await refused(#"["a"]"#, .badRequest, "invalid_request", naming: "body")
            let long = String(repeating: "x", count: 201)
            try await refused(#"{"assignee":"\#(assignee)","name":"\#(long)","dueDate":"2026-07-01"}"#, .badRequest, "invalid_name", naming: "200")

            let task = try await server.createTask(olga.token, assignee: assignee).decode(TaskDTO.self)
            _ = try await server.post("/api/v1/tasks/\(task.id)/send", ursa.token)
            let returnPath = "/api/v1/tasks/\(task.id)/return"
            try await refused(#"{"reason":""}"#, .badRequest, "invalid_reason", naming: "reason", path: returnPath)
            try await refused(#"{"reason":" \n "}"#, .badRequest, "invalid_reason", naming: "reason", path: returnPath)
            try await refused(#"{}"#, .badRequest, "invalid_request", naming: "reason", path: returnPath)
            #expect(try await server.get("/api/v1/tasks/\(task.id)", olga.token).decode(TaskDTO.self).status == .dataProvided, "nothing was returned")

            for value in ["done", "", "NEW"] {
                let filter = try await server.get("/api/v1/tasks?status=\(value)", olga.token)
                #expect(try filter.status == .badRequest && (try filter.apiError().reason.contains("status")), "\(value): \(filter.text)")
            }
            let note = try await server.send(.PATCH, "/api/v1/tasks/\(task.id)", headers: { var h = TestServer.bearer(ursa.token); h.contentType = .json; return h }(),
                                             body: Array(#"{"note": 5}"#.utf8))
            #expect(try note.status == .badRequest && (try note.apiError().reason.contains("note")), "\(note.text)")
        }
    }

    @Test("A task photo's Idempotency-Key: a retry answers the same photo, even after the task was sent; a key of another photo is 409", arguments: TestDatabase.all)
    func idempotentPhotos(database: TestDatabase) async throws {
        let folder = makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await withServer(database) { server in
            let olga = try await server.officer(uniqueName("olga"))
            let ursa = try await server.register(uniqueName("ursa"))
            let task = try await server.createTask(olga.token, assignee: ursa.user.username).decode(TaskDTO.self)
            let jpeg = await try TaskPhoto.jpeg(in: folder, "green-white")
            let first = try await server.addTaskPhoto(task.id, jpeg, token: ursa.token, idempotencyKey: "evidence-1")
            #expect(first.status == .created, "\(first.text)")
            let retry = try await server.addTaskPhoto(task.id, jpeg, token: ursa.token, idempotencyKey: "evidence-1")
            #expect(retry.status == .created)
            #expect(try retry.decode(PhotoDTO.self).id == first.decode(PhotoDTO.self).id)
            #expect(try await server.post("/api/v1/tasks/\(task.id)/send", ursa.token).decode(TaskDTO.self).photoCount == 1, "stored once")
            let late = try await server.addTaskPhoto(task.id, jpeg, token: ursa.token, idempotencyKey: "evidence-1")
            #expect(late.status == .created, "a retry that arrives after the send is answered as the first: \(late.text)")
            #expect(try late.decode(PhotoDTO.self).id == first.decode(PhotoDTO.self).id)

            // A key already used for a photo of the account that is not this task's.
            let other = try await server.createTask(olga.token, assignee: ursa.user.username).decode(TaskDTO.self)
            let reused = try await server.addTaskPhoto(other.id, jpeg, token: ursa.token, idempotencyKey: "evidence-1")
            #expect(try reused.status == .conflict && reused.apiError().error == "idempotency_key_reused", "\(reused.text)")
            let standalone = await try TaskPhoto.jpeg(in: folder, "blue-white")
            #expect(try await server.upload(standalone, token: ursa.token, idempotencyKey: "plain-1").status == .created)
            let plain = try await server.addTaskPhoto(other.id, standalone, token: ursa.token, idempotencyKey: "plain-1")
            #expect(try plain.status == .conflict && plain.apiError().error == "idempotency_key_reused", "a photo of its own is not taken into a task: \(plain.text)")
            #expect(try await server.get("/api/v1/tasks/\(other.id)", ursa.token).decode(TaskDTO.self).photoCount == 0)
        }
    }

    @Test("A sent photo cannot be deleted through the photo API either (409 photo_sent); officers see a task's private photo, other users do not", arguments: TestDatabase.all)
    func sentPhotosAndOfficersView(database: TestDatabase) async throws {
        let folder = makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await withServer(database) { server in
            let olga = try await server.officer(uniqueName("olga"))
            let ursa = try await server.register(uniqueName("ursa"))
            let other = try await server.register(uniqueName("other"))
            let task = try await server.createTask(olga.token, assignee: ursa.user.username).decode(TaskDTO.self)
            let added = try await server.addTaskPhoto(task.id, try TaskPhoto.jpeg(in: folder, "navy-gold"), token: ursa.token, fields: ["visibility": "private"])
            #expect(added.status == .created, "\(added.text)")
            let photo = try added.decode(PhotoDTO.self)
            #expect(photo.visibility == "private")

            for size in ["thumb", "medium"] {
                #expect(try await server.get("/api/v1/photos/\(photo.id)/image/\(size)", olga.token).status == .ok, "the officer checks the task's photo")
                #expect(try await server.get("/api/v1/photos/\(photo.id)/image/\(size)", other.token).status == .notFound)
            }
            #expect(try await server.get("/api/v1/photos/\(photo.id)", olga.token).status == .ok)
            #expect(try await server.get("/api/v1/photos/\(photo.id)", other.token).status == .notFound)

            #expect(try await server.post("/api/v1/tasks/\(task.id)/send", ursa.token).status == .ok)
            let refused = try await server.send(.DELETE, "/api/v1/photos/\(photo.id)", headers: TestServer.bearer(ursa.token))
            #expect(refused.status == .conflict, "\(refused.text)")
            #expect(try refused.apiError().error == "photo_sent")
            #expect(try await server.get("/api/v1/photos/\(photo.id)", ursa.token).status == .ok, "the evidence is still there")
            #expect(try await server.get("/api/v1/tasks/\(task.id)", olga.token).decode(TaskDTO.self).photoCount == 1)
        }
    }

    @Test("A new task's Idempotency-Key: a resent request (also two at once) makes the task once; the key for another task is 409; keys are the officer's own", arguments: TestDatabase.all)
    func idempotentCreate(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let olga = try await server.officer(uniqueName("olga"))
            let otto = try await server.officer(uniqueName("otto"))
            let ursa = try await server.register(uniqueName("ursa"))
            let first = try await server.createTask(olga.token, assignee: ursa.user.username, idempotencyKey: "task-1")
            #expect(first.status == .created, "\(first.text)")
            let retry = try await server.createTask(olga.token, assignee: ursa.user.username, idempotencyKey: "task-1")
            #expect(retry.status == .created, "\(retry.text)")
            #expect(try retry.decode(TaskDTO.self).id == first.decode(TaskDTO.self).id)
            #expect(retry.headers.first(name: .location) == first.headers.first(name: .location))

            let other = try await server.createTask(olga.token, assignee: ursa.user.username, name: "Field 18", idempotencyKey: "task-1")
            #expect(try other.status == .conflict && other.apiError().error == "idempotency_key_reused", "\(other.text)")
            let ottos = try await server.createTask(otto.token, assignee: ursa.user.username, idempotencyKey: "task-1")
            #expect(ottos.status == .created, "another officer's key of the same text is his own: \(ottos.text)")
            #expect(try ottos.decode(TaskDTO.self).id != first.decode(TaskDTO.self).id)

            let ids = try await withThrowingTaskGroup(of: UUID.self) { group in
                for _ in 0..<3 {
                    group.addTask {
                        let made = try await server.createTask(olga.token, assignee: ursa.user.username, name: "Field 19", idempotencyKey: "task-2")
                        #expect(made.status == .created, "\(made.text)")
                        return try made.decode(TaskDTO.self).id
                    }
                }
                return try await group.reduce(into: Set<UUID>()) { $0.insert($1) }
            }
            #expect(ids.count == 1, "three sends of one key at once make one task")
            let listed = try await server.get("/api/v1/tasks?assignee=\(ursa.user.username)", olga.token).decode(Page<TaskDTO>.self).items
            #expect(listed.filter { $0.name == "Field 17, north boundary" }.count == 2, "olga's once, otto's once")
            #expect(listed.filter { $0.name == "Field 19" }.count == 1)
            #expect(listed.count == 3)

            let bad = try await server.createTask(olga.token, assignee: ursa.user.username, idempotencyKey: String(repeating: "k", count: 300))
            #expect(bad.status == .badRequest, "\(bad.text)")
        }
    }

    @Test("A send and a deletion of the task's photo at once: either the photo goes before the send, or it is sent and stays (409) — never sent and gone", arguments: TestDatabase.all)
    func sendRacesPhotoDeletion(database: TestDatabase) async throws {
        let folder = makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await withServer(database) { server in
            let olga = try await server.officer(uniqueName("olga"))
            let ursa = try await server.register(uniqueName("ursa"))
            var outcomes = Set<[UInt]>()
            for round in 0..<8 {
                let task = try await server.createTask(olga.token, assignee: ursa.user.username).decode(TaskDTO.self)
                let jpeg = await try TaskPhoto.jpeg(in: folder, round.isMultiple(of: 2) ? "olive-white" : "maroon-white")
                let photo = try await server.addTaskPhoto(task.id, jpeg, token: ursa.token).decode(PhotoDTO.self)
                let (send, delete) = try await withThrowingTaskGroup(of: (String, UInt).self) { group in
                    group.addTask { ("send", try await server.post("/api/v1/tasks/\(task.id)/send", ursa.token).status.code) }
                    group.addTask { ("delete", try await server.send(.DELETE, "/api/v1/photos/\(photo.id)", headers: TestServer.bearer(ursa.token)).status.code) }
                    var answers: [String: UInt] = [:]
                    for try await (what, status) in group { answers[what] = status }
                    return (answers["send"] ?? 0, answers["delete"] ?? 0)
                }
                #expect(send == 200)
                #expect(delete == 204 || delete == 409, "\(delete)")
                let sent = try await server.get("/api/v1/tasks/\(task.id)", ursa.token).decode(TaskDTO.self)
                let stillThere = try await server.get("/api/v1/photos/\(photo.id)", ursa.token).status == .ok
                #expect(stillThere == (delete == 409), "a refused deletion leaves the photo, an accepted one removes it")
                #expect(sent.photoCount == (stillThere ? 1 : 0), "the task was sent with exactly the photos that exist")
                #expect(try await isEvidence(photo.id, on: server) == stillThere)
                outcomes.insert([send, delete])
            }
            #expect(!outcomes.isEmpty)
        }
    }

    @Test("Two sends at once make one transition: one answers 200, the other 409, and the history has one entry", arguments: TestDatabase.all)
    func concurrentSends(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let olga = try await server.officer(uniqueName("olga"))
            let ursa = try await server.register(uniqueName("ursa"))
            for _ in 0..<3 {
                let task = try await server.createTask(olga.token, assignee: ursa.user.username).decode(TaskDTO.self)
                let statuses = try await withThrowingTaskGroup(of: UInt.self) { group in
                    for _ in 0..<2 {
                        group.addTask { try await server.post("/api/v1/tasks/\(task.id)/send", ursa.token).status.code }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }.sorted()
                }
                #expect(statuses == [200, 409])
                let history = try await server.get("/api/v1/tasks/\(task.id)/history", ursa.token).decode(Page<TaskHistoryEntryDTO>.self).items
                #expect(history.filter { $0.to == .dataProvided }.count == 1)
                #expect(history.count == 2)
            }
        }
    }
}

/// Whether the photo area is told the photo is evidence (the tasks' registered claim).
private func isEvidence(_ photo: UUID, on server: TestServer) async throws -> Bool {
    guard let sql = try server.app.serverDatabase.db as? any SQLDatabase else { throw PhotoStoreError.notSQL }
    return try await SQLTaskStore(database: server.app.serverDatabase, clock: .system).isSent(photoID: photo, on: sql, lock: false)
}
