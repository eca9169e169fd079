import Foundation
import Testing
import Vapor
import VaporTesting
import WaymarkAPI
import WaymarkCore
import WaymarkTestSupport
@testable import WaymarkServer

@Suite("Scenes: create all or nothing, find nearby, rephotograph, timeline, delete (DESIGN §3.9)")
struct SceneAPITests {
    @Test("A scene from real camera JPEGs: both images served as photos, the attitude normalised, Brno's address, the distance from a viewer", arguments: TestDatabase.all)
    func create(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let alice = try await server.register(sceneUser("alice"))
            // Norm 1.0005: within 0.001 of 1, so normalised.
            let metadata = sceneMetadata(attitude: ["w": 0.7075, "x": 0.7075, "y": 0, "z": 0], name: " Old Town Hall ", heading: 87.5,
                                         extra: ["accuracy": 4.5])
            let image = try SceneImages.reference, feetShot = try SceneImages.feetShot
            let response = try await server.createScene(token: alice.token, metadata: metadata, image: image, feetShot: feetShot)
            #expect(response.status == .created, "\(response.text)")
            let scene = try response.decode(SceneDTO.self)
            #expect(response.headers.first(name: .location) == "/api/v1/scenes/\(scene.id.uuidString.lowercased())")
            #expect(scene.name == "Old Town Hall")
            #expect(scene.creator.username == alice.user.username)
            #expect(scene.latitude == 49.19522 && scene.longitude == 16.60796 && scene.accuracy == 4.5 && scene.heading == 87.5)
            #expect(scene.capturedAt == Date(timeIntervalSince1970: 1_588_320_000))
            #expect(response.text.contains(#""capturedAt":"2020-05-01T08:00:00.000Z""#), "times are RFC 3339 in UTC: \(response.text)")
            #expect(abs(scene.attitude.w - 0.5.squareRoot()) < 1e-12 && abs(scene.attitude.x - 0.5.squareRoot()) < 1e-12, "\(scene.attitude)")
            #expect(scene.rephotographs == [] && scene.rephotographCount == 0)
            #expect(scene.reference.bytes == image.count && scene.reference.latitude == 49.19522)
            #expect(scene.reference.title == "Old Town Hall" && scene.reference.azimuth == 87.5)
            let feet = try #require(scene.feetShot)
            #expect(feet.bytes == feetShot.count && feet.id != scene.reference.id)
            for photo in [scene.reference, feet] {
                #expect(photo.owner.id == alice.user.id && photo.visibility == "public")
                let image = try await server.send(.GET, photo.urls.thumb)
                #expect(image.status == .ok && image.headers.first(name: .contentType) == "image/jpeg", "\(photo.urls.thumb)")
            }
            // The gazetteer: Brno is 12 m from GeoNames' point, so the place alone names it.
            let address = try #require(scene.address, "the venv's gazetteer is found from the working directory")
            #expect(address.place == "Brno" && address.countryCode == "CZ" && address.country == "Czechia" && address.region == "South Moravian")
            #expect(address.line == "Brno, South Moravian, Czechia")
            #expect(address.attribution == Gazetteer.attribution)

            // Anyone may read it; with a position, its distance from there.
            let read = try await server.send(.GET, "/api/v1/scenes/\(scene.id)?latitude=49.2&longitude=16.6")
            #expect(read.status == .ok, "\(read.text)")
            let seen = try read.decode(SceneDTO.self)
            let expected = Geodesy.distance((49.2, 16.6), (49.19522, 16.60796))
            #expect(abs((seen.distance ?? -1) - expected) < 0.001, "\(String(describing: seen.distance)) vs \(expected)")
            #expect(seen.reference.urls.original == nil, "the original is its owner's only")
            let raw = try JSONSerialization.jsonObject(with: Data(read.body.readableBytesView)) as? [String: Any]
            #expect(raw?["feetShot"] is [String: Any] && raw?["address"] is [String: Any] && raw?["rephotographs"] is [Any])
            #expect(try await server.send(.GET, "/api/v1/scenes/\(scene.id)?latitude=49.2").status == .badRequest)

            // A place 1.5 km north-east of the centre reads as such.
            let away = try await server.scene(token: alice.token, metadata: sceneMetadata(latitude: 49.2047, longitude: 16.6246))
            let line = try #require(away.address?.line)
            #expect(line.hasSuffix(" NE of Brno, South Moravian, Czechia") && line.hasPrefix("1."), "\(line)")
            #expect(abs((away.address?.bearing ?? 0) - 45) < 22.5)
        }
    }

    @Test("Refused metadata and parts: 400/401/415 with a reason that names the field, and nothing stored", arguments: TestDatabase.all)
    func refusals(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let alice = try await server.register(sceneUser("alice"))
            let image = try SceneImages.reference, feet = try SceneImages.feetShot
            let cases: [(String?, String)] = [
                (sceneMetadata(attitude: ["w": 1.01, "x": 0, "y": 0, "z": 0]), "attitude"),
                (sceneMetadata(attitude: ["w": 0, "x": 0, "y": 0, "z": 0]), "attitude"),
                (sceneMetadata(attitude: ["w": 1, "x": 0, "y": 0]), "attitude.z"),
                (sceneMetadata(attitude: ["w": "1", "x": 0, "y": 0, "z": 0]), "attitude.w"),
                (sceneMetadata(latitude: nil, longitude: nil), "latitude"),
                (sceneMetadata(latitude: 91), "latitude"),
                (sceneMetadata(longitude: nil), "latitude and longitude"),
                (sceneMetadata(capturedAt: "yesterday"), "capturedAt"),
                (sceneMetadata(capturedAt: 1e300), "capturedAt"),
                (sceneMetadata(heading: 361), "heading"),
                (sceneMetadata(heading: "north"), "heading"),
                (sceneMetadata(name: String(repeating: "x", count: 201)), "name"),
                (sceneMetadata(name: 7), "name"),
                ("{\"latitude\": 49", "JSON"),
                ("[1, 2]", "JSON object"),
                (nil, "metadata"),
            ]
            for (metadata, named) in cases {
                let response = try await server.createScene(token: alice.token, metadata: metadata, image: image, feetShot: feet)
                #expect(response.status == .badRequest, "\(metadata ?? "no metadata"): \(response.text)")
                let problem = try response.apiError()
                #expect(["invalid_metadata", "missing_metadata"].contains(problem.error) && problem.reason.contains(named), "\(metadata ?? "none"): \(problem.reason)")
            }
            let noFeet = try await server.createScene(token: alice.token, metadata: sceneMetadata(), image: image, feetShot: nil)
            #expect(try noFeet.status == .badRequest && (noFeet.apiError().reason.contains("feetShot")), "\(noFeet.text)")
            let noImage = try await server.createScene(token: alice.token, metadata: sceneMetadata(), image: nil, feetShot: feet)
            #expect(try noImage.status == .badRequest && (noImage.apiError().error == "missing_image"))
            let anonymous = try await server.createScene(token: nil, metadata: sceneMetadata(), image: image, feetShot: feet)
            #expect(anonymous.status == .unauthorized)
            var json = TestServer.bearer(alice.token)
            json.contentType = .json
            let notMultipart = try await server.send(.POST, "/api/v1/scenes", headers: json, body: Array(sceneMetadata().utf8))
            #expect(try notMultipart.status == .unsupportedMediaType && (notMultipart.apiError().reason.contains("feetShot")), "\(notMultipart.text)")
            #expect(try await server.rows(CreateScenes.scenes, "owner_id", alice.user.id) == 0)
            #expect(try await server.rows(CreatePhotos.table, "owner_id", alice.user.id) == 0)
            #expect(server.blobFiles().isEmpty, "\(server.blobFiles())")
        }
    }

    @Test("All or nothing: a broken or foreign second image, or a broken first one, leaves no scene, no photo and no file", arguments: TestDatabase.all)
    func atomic(database: TestDatabase) async throws {
        let folder = makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await withServer(database) { server in
            let alice = try await server.register(sceneUser("alice"))
            let here = somewhere()
            let good = try SceneImages.reference
            let large = try await TestPhoto.jpeg(in: folder)
            let broken = large.prefix(large.count / 2)
            let attempts: [(image: Data, feet: Data, status: HTTPStatus, part: String)] = [
                (good, Data(broken), .unprocessableEntity, "feetShot"),
                (good, Data("Dear diary, today I stood here.\n".utf8), .unsupportedMediaType, "feetShot"),
                (Data(broken), good, .unprocessableEntity, "image"),
            ]
            for attempt in attempts {
                let response = try await server.createScene(token: alice.token, metadata: sceneMetadata(at: here), image: attempt.image, feetShot: attempt.feet,
                                                            idempotencyKey: "atomic-\(UUID())")
                #expect(response.status == attempt.status, "\(response.text)")
                #expect(try response.apiError().reason.hasPrefix(attempt.part + ":"), "\(response.text)")
                #expect(try await server.rows(CreateScenes.scenes, "owner_id", alice.user.id) == 0)
                #expect(try await server.rows(CreatePhotos.table, "owner_id", alice.user.id) == 0)
                #expect(server.blobFiles().isEmpty, "no blob, derivative or temporary file is left: \(server.blobFiles())")
            }
            // A photo already stored with the same bytes keeps its blob when a scene that used them fails.
            #expect(try await server.upload(good, token: alice.token, fields: ["latitude": "\(here.lat)", "longitude": "\(here.lon)"]).status == .created)
            let before = server.blobFiles()
            let failed = try await server.createScene(token: alice.token, metadata: sceneMetadata(at: here), image: good, feetShot: Data(broken))
            #expect(failed.status == .unprocessableEntity)
            #expect(server.blobFiles() == before)
            #expect(try await server.rows(CreatePhotos.table, "owner_id", alice.user.id) == 1)
        }
    }

    @Test("A retry with the same Idempotency-Key answers the same scene and stores nothing new", arguments: TestDatabase.all)
    func idempotent(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let alice = try await server.register(sceneUser("alice"))
            let key = "scene-\(UUID())"
            let here = somewhere()
            var ids: [UUID] = []
            for _ in 0..<2 {
                let response = try await server.createScene(token: alice.token, metadata: sceneMetadata(at: here), image: try SceneImages.reference,
                                                            feetShot: try SceneImages.feetShot, idempotencyKey: key)
                #expect(response.status == .created, "\(response.text)")
                ids.append(try response.decode(SceneDTO.self).id)
            }
            #expect(ids[0] == ids[1])
            #expect(try await server.rows(CreateScenes.scenes, "owner_id", alice.user.id) == 1)
            #expect(try await server.rows(CreatePhotos.table, "owner_id", alice.user.id) == 2)
            // A malformed retry is refused, not answered with the scene.
            let malformed = try await server.createScene(token: alice.token, metadata: sceneMetadata(latitude: 100), image: try SceneImages.reference,
                                                         feetShot: try SceneImages.feetShot, idempotencyKey: key)
            #expect(malformed.status == .badRequest)
            let bad = try await server.createScene(token: alice.token, metadata: sceneMetadata(), image: try SceneImages.reference,
                                                   feetShot: try SceneImages.feetShot, idempotencyKey: "ünïcode")
            #expect(try bad.status == .badRequest && (bad.apiError().error == "invalid_idempotency_key"))
            // Two tries at once under one new key: one scene, and the loser's photos deleted again.
            let racing = "race-\(UUID())"
            let image = try SceneImages.reference, feetShot = try SceneImages.feetShot
            async let first = server.createScene(token: alice.token, metadata: sceneMetadata(at: here), image: image, feetShot: feetShot, idempotencyKey: racing)
            async let second = server.createScene(token: alice.token, metadata: sceneMetadata(at: here), image: image, feetShot: feetShot, idempotencyKey: racing)
            let answers = try await [first, second]
            #expect(answers.allSatisfy { $0.status == .created }, "\(answers.map(\.text))")
            #expect(Set(try answers.map { try $0.decode(SceneDTO.self).id }).count == 1)
            #expect(try await server.rows(CreateScenes.scenes, "owner_id", alice.user.id) == 2)
            #expect(try await server.rows(CreatePhotos.table, "owner_id", alice.user.id) == 4)
        }
    }

    @Test("Nearby: every visible scene within the radius and none outside, nearest first, distances as Vincenty's on WGS-84, by pages", arguments: TestDatabase.all)
    func nearby(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let alice = try await server.register(sceneUser("alice"))
            let bob = try await server.register(sceneUser("bob"))
            // A centre of its own, so that other tests' scenes on the shared PostgreSQL database stay away.
            let centre = (lat: Double.random(in: -60...60), lon: Double.random(in: -170...170))
            var created: [(id: UUID, distance: Double)] = []
            var points: [(lat: Double, lon: Double)] = []
            for index in 0..<14 {
                // Up to about 4 km away, in every direction; the last two at the same place.
                let point: (lat: Double, lon: Double) = index == 13 ? points[12]
                    : (centre.lat + Double.random(in: -0.035...0.035), centre.lon + Double.random(in: -0.035...0.035) / cos(centre.lat * .pi / 180))
                points.append(point)
                let scene = try await server.scene(token: alice.token, metadata: sceneMetadata(latitude: point.lat, longitude: point.lon))
                created.append((scene.id, Geodesy.distance(centre, point)))
            }
            func search(_ query: String, token: String? = nil) async throws -> Page<SceneDTO> {
                let response = try await server.send(.GET, "/api/v1/scenes?latitude=\(centre.lat)&longitude=\(centre.lon)\(query)",
                                                     headers: token.map { TestServer.bearer($0) } ?? [:])
                #expect(response.status == .ok, "\(response.text)")
                return try response.decode(Page<SceneDTO>.self)
            }
            for (query, radius) in [("", 2_500.0), ("&radius=1000", 1_000), ("&radius=50000", 50_000)] {
                let page = try await search(query + "&limit=500")
                let expected = created.filter { $0.distance <= radius }
                #expect(Set(page.items.map(\.id)) == Set(expected.map(\.id)), "radius \(radius)")
                #expect(page.next == nil)
                for scene in page.items {
                    let truth = try #require(created.first { $0.id == scene.id }).distance
                    #expect(abs((scene.distance ?? -1) - truth) < 0.01, "\(String(describing: scene.distance)) vs \(truth)")
                }
                let distances = page.items.compactMap(\.distance)
                #expect(distances == distances.sorted(), "nearest first")
            }
            // Pages of 3 join up to the whole answer.
            var all: [UUID] = [], cursor = ""
            repeat {
                let page = try await search("&radius=50000&limit=3" + (cursor.isEmpty ? "" : "&cursor=\(cursor)"))
                #expect(page.items.count <= 3)
                all += page.items.map(\.id)
                cursor = page.next ?? ""
            } while !cursor.isEmpty
            #expect(all == (try await search("&radius=50000&limit=500")).items.map(\.id))
            #expect(Set(all).count == created.count)

            // A scene whose reference its owner made private is theirs alone.
            let hidden = try await server.scene(token: bob.token, metadata: sceneMetadata(latitude: centre.lat, longitude: centre.lon))
            let patch = try await server.json(.PATCH, "/api/v1/photos/\(hidden.reference.id)", ["visibility": "private"], headers: TestServer.bearer(bob.token))
            #expect(patch.status == .ok)
            #expect(!(try await search("")).items.contains { $0.id == hidden.id })
            #expect(!(try await search("", token: alice.token)).items.contains { $0.id == hidden.id })
            #expect((try await search("", token: bob.token)).items.first?.id == hidden.id)
            for token in [nil, alice.token] {
                let headers = token.map { TestServer.bearer($0) } ?? [:]
                #expect(try await server.send(.GET, "/api/v1/scenes/\(hidden.id)", headers: headers).status == .notFound)
                #expect(try await server.send(.GET, "/api/v1/scenes/\(hidden.id)/timeline", headers: headers).status == .notFound)
            }
            #expect(try await server.send(.GET, "/api/v1/scenes/\(hidden.id)", headers: TestServer.bearer(bob.token)).status == .ok)
            let onHidden = try await server.addRephotograph(hidden.id, token: alice.token, metadata: sceneMetadata(), image: try SceneImages.rephotograph)
            #expect(onHidden.status == .notFound)

            for bad in ["latitude=1", "longitude=1", "latitude=91&longitude=0", "latitude=0&longitude=181", "latitude=x&longitude=0",
                        "latitude=0&longitude=0&radius=0", "latitude=0&longitude=0&radius=50001", "latitude=0&longitude=0&radius=-5",
                        "latitude=0&longitude=0&radius=nan", "latitude=0&longitude=0&limit=0", "latitude=0&longitude=0&limit=501",
                        "latitude=0&longitude=0&limit=2.5", "latitude=0&longitude=0&cursor=garbage", "latitude=inf&longitude=0"] {
                let response = try await server.send(.GET, "/api/v1/scenes?\(bad)")
                #expect(response.status == .badRequest, "\(bad): \(response.status)")
                #expect(try response.apiError().reason.isEmpty == false)
            }
        }
    }

    @Test("Across the antimeridian and near a pole, the search finds the scene on the other side", arguments: TestDatabase.all)
    func edges(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let alice = try await server.register(sceneUser("alice"))
            let fiji = try await server.scene(token: alice.token, metadata: sceneMetadata(latitude: -16.5 - Double.random(in: 0...0.1), longitude: 179.9995))
            let response = try await server.send(.GET, "/api/v1/scenes?latitude=\(fiji.latitude)&longitude=-179.9995&radius=1000")
            let page = try response.decode(Page<SceneDTO>.self)
            let found = try #require(page.items.first { $0.id == fiji.id }, "\(response.text)")
            #expect(abs((found.distance ?? 0) - Geodesy.distance((fiji.latitude, -179.9995), (fiji.latitude, 179.9995))) < 0.01)
            let pole = try await server.scene(token: alice.token, metadata: sceneMetadata(latitude: 89.9999, longitude: Double.random(in: -180...180)))
            let near = try await server.send(.GET, "/api/v1/scenes?latitude=89.9999&longitude=\(pole.longitude + 180 > 180 ? pole.longitude - 180 : pole.longitude + 180)&radius=100")
            #expect(try near.decode(Page<SceneDTO>.self).items.contains { $0.id == pole.id }, "\(near.text)")
        }
    }

    @Test("Rephotographs by anyone signed in; the timeline oldest first; a retry adds nothing; one's own scenes newest first", arguments: TestDatabase.all)
    func rephotographs(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let alice = try await server.register(sceneUser("alice"))
            let bob = try await server.register(sceneUser("bob"))
            let carol = try await server.register(sceneUser("carol"))
            let here = somewhere()
            let scene = try await server.scene(token: alice.token, metadata: sceneMetadata(at: here, capturedAt: "2020-05-01T10:00:00+02:00"))
            let quarter = ["w": 0.9238795325112867, "x": 0, "y": 0, "z": 0.3826834323650898]
            let later = try await server.addRephotograph(scene.id, token: bob.token, metadata: sceneMetadata(latitude: nil, longitude: nil, capturedAt: "2024-07-01T09:00:00Z", attitude: quarter, heading: 12),
                                                         image: try SceneImages.rephotograph, idempotencyKey: "bob-1")
            #expect(later.status == .created, "\(later.text)")
            let bobs = try later.decode(RephotographDTO.self)
            #expect(bobs.photo.owner.id == bob.user.id && bobs.heading == 12 && abs(bobs.attitude.z - 0.3826834323650898) < 1e-12)
            #expect(bobs.photo.latitude == scene.latitude && bobs.photo.longitude == scene.longitude, "without a position, the scene's place")
            let again = try await server.addRephotograph(scene.id, token: bob.token, metadata: sceneMetadata(latitude: nil, longitude: nil, capturedAt: "2024-07-01T09:00:00Z", attitude: quarter, heading: 12),
                                                         image: try SceneImages.rephotograph, idempotencyKey: "bob-1")
            #expect(try again.status == .created && (again.decode(RephotographDTO.self)).photo.id == bobs.photo.id)
            #expect(try await server.rows(CreatePhotos.table, "owner_id", bob.user.id) == 1)
            let middle = try await server.addRephotograph(scene.id, token: carol.token, metadata: sceneMetadata(latitude: here.lat + 0.0001, longitude: here.lon, capturedAt: "2022-06-23T16:00:00Z"),
                                                          image: try SceneImages.jpeg("Sony"))
            #expect(middle.status == .created, "\(middle.text)")
            // Times are ISO 8601 text: Unix seconds are refused by name.
            let seconds = try await server.addRephotograph(scene.id, token: carol.token, metadata: sceneMetadata(capturedAt: 1_656_000_000), image: try SceneImages.jpeg("Sony"))
            #expect(seconds.status == .badRequest && seconds.text.contains("capturedAt"), "\(seconds.text)")
            let carols = try middle.decode(RephotographDTO.self)
            #expect(carols.photo.latitude == here.lat + 0.0001)
            #expect(try await server.addRephotograph(scene.id, token: nil, metadata: sceneMetadata(), image: try SceneImages.rephotograph).status == .unauthorized)
            #expect(try await server.addRephotograph(UUID(), token: carol.token, metadata: sceneMetadata(), image: try SceneImages.rephotograph).status == .notFound)
            let broken = try await server.addRephotograph(scene.id, token: carol.token, metadata: sceneMetadata(attitude: ["w": 2, "x": 0, "y": 0, "z": 0]),
                                                          image: try SceneImages.rephotograph)
            #expect(broken.status == .badRequest)
            #expect(try await server.addRephotograph(scene.id, token: carol.token, metadata: sceneMetadata(), image: nil).status == .badRequest)

            let detail = try await server.send(.GET, "/api/v1/scenes/\(scene.id)").decode(SceneDTO.self)
            #expect(detail.rephotographCount == 2 && Set(detail.rephotographs?.map(\.photo.id) ?? []) == [bobs.photo.id, carols.photo.id])
            let timeline = try await server.send(.GET, "/api/v1/scenes/\(scene.id)/timeline").decode(SceneTimelineDTO.self)
            #expect(timeline.items.map(\.photo.id) == [scene.reference.id, carols.photo.id, bobs.photo.id], "oldest first")
            #expect(timeline.items.map(\.kind) == ["reference", "rephotograph", "rephotograph"])
            #expect(timeline.items.first?.attitude == scene.attitude)
            #expect(try await server.send(.GET, "/api/v1/scenes/\(UUID())/timeline").status == .notFound)
            #expect(try await server.send(.GET, "/api/v1/scenes/not-a-uuid").status == .notFound)

            // A rephotograph its owner made private drops out for everyone else.
            _ = try await server.json(.PATCH, "/api/v1/photos/\(carols.photo.id)", ["visibility": "private"], headers: TestServer.bearer(carol.token))
            let forBob = try await server.send(.GET, "/api/v1/scenes/\(scene.id)/timeline", headers: TestServer.bearer(bob.token)).decode(SceneTimelineDTO.self)
            #expect(forBob.items.map(\.photo.id) == [scene.reference.id, bobs.photo.id])
            let forCarol = try await server.send(.GET, "/api/v1/scenes/\(scene.id)", headers: TestServer.bearer(carol.token)).decode(SceneDTO.self)
            #expect(forCarol.rephotographCount == 2)

            // One's own scenes, newest first, by pages.
            let second = try await server.scene(token: alice.token, metadata: sceneMetadata(at: here))
            let third = try await server.scene(token: alice.token, metadata: sceneMetadata(at: here))
            let mine = try await server.send(.GET, "/api/v1/me/scenes", headers: TestServer.bearer(alice.token)).decode(Page<SceneDTO>.self)
            #expect(mine.items.map(\.id) == [third.id, second.id, scene.id] && mine.next == nil)
            #expect(mine.items.last?.rephotographCount == 1 && mine.items.last?.rephotographs == nil, "Carol's private one is not counted for Alice")
            let first = try await server.send(.GET, "/api/v1/me/scenes?limit=2", headers: TestServer.bearer(alice.token)).decode(Page<SceneDTO>.self)
            let next = try #require(first.next)
            let rest = try await server.send(.GET, "/api/v1/me/scenes?limit=2&cursor=\(next)", headers: TestServer.bearer(alice.token)).decode(Page<SceneDTO>.self)
            #expect(first.items.map(\.id) + rest.items.map(\.id) == mine.items.map(\.id) && rest.next == nil)
            #expect(try await server.send(.GET, "/api/v1/me/scenes", headers: TestServer.bearer(bob.token)).decode(Page<SceneDTO>.self).items.isEmpty)
            #expect(try await server.send(.GET, "/api/v1/me/scenes").status == .unauthorized)
            #expect(try await server.send(.GET, "/api/v1/me/scenes?limit=0", headers: TestServer.bearer(alice.token)).status == .badRequest)
            #expect(try await server.send(.GET, "/api/v1/me/scenes?cursor=zzz", headers: TestServer.bearer(alice.token)).status == .badRequest)
        }
    }

    @Test("Deleting: a rephotograph by its author or the scene's creator, a scene by its creator only, with the creator's photos and files; others' rephotographs stay theirs", arguments: TestDatabase.all)
    func delete(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let alice = try await server.register(sceneUser("alice"))
            let bob = try await server.register(sceneUser("bob"))
            let carol = try await server.register(sceneUser("carol"))
            let baseline = server.blobFiles()
            let here = somewhere()
            let scene = try await server.scene(token: alice.token, metadata: sceneMetadata(at: here))
            func add(_ token: String, _ image: String) async throws -> RephotographDTO {
                let response = try await server.addRephotograph(scene.id, token: token, metadata: sceneMetadata(at: here), image: try SceneImages.jpeg(image))
                #expect(response.status == .created, "\(response.text)")
                return try response.decode(RephotographDTO.self)
            }
            let bobs = try await add(bob.token, "Pentax"), carols = try await add(carol.token, "Sony"), carols2 = try await add(carol.token, "Olympus")
            func delete(_ path: String, _ token: String?) async throws -> HTTPStatus {
                try await server.send(.DELETE, path, headers: token.map { TestServer.bearer($0) } ?? [:]).status
            }
            let base = "/api/v1/scenes/\(scene.id)"
            #expect(try await delete(base, nil) == .unauthorized)
            #expect(try await delete(base, bob.token) == .notFound, "another's scene: 404, never 403")
            #expect(try await delete(base + "/photos/\(carols.photo.id)", bob.token) == .notFound, "another's rephotograph of another's scene")
            #expect(try await delete(base + "/photos/\(scene.reference.id)", alice.token) == .conflict)
            #expect(try await delete(base + "/photos/\(UUID())", alice.token) == .notFound)
            #expect(try await delete(base + "/photos/\(bobs.photo.id)", bob.token) == .noContent, "its author")
            #expect(try await server.send(.GET, "/api/v1/photos/\(bobs.photo.id)").status == .notFound, "the photo went with it")
            #expect(try await delete(base + "/photos/\(carols.photo.id)", alice.token) == .noContent, "the scene's creator")
            #expect(try await delete(base + "/photos/\(carols.photo.id)", alice.token) == .notFound)
            #expect(try await server.send(.GET, "/api/v1/photos/\(carols.photo.id)", headers: TestServer.bearer(carol.token)).status == .ok,
                    "out of the scene, carol's photo is still hers")
            let left = try await server.send(.GET, base).decode(SceneDTO.self)
            #expect(left.rephotographs?.map(\.photo.id) == [carols2.photo.id])

            #expect(try await delete(base, alice.token) == .noContent)
            #expect(try await server.send(.GET, base).status == .notFound)
            for photo in [scene.reference.id, scene.feetShot?.id ?? UUID()] {
                #expect(try await server.send(.GET, "/api/v1/photos/\(photo)").status == .notFound)
            }
            #expect(try await server.rows(CreateScenes.rephotographs, "added_by", carol.user.id) == 0)
            #expect(try await server.rows(CreatePhotos.table, "owner_id", alice.user.id) == 0)
            // Carol's two rephotographs are still her photos; once she deletes them, no file is left.
            for photo in [carols.photo.id, carols2.photo.id] {
                #expect(try await server.send(.GET, "/api/v1/photos/\(photo)", headers: TestServer.bearer(carol.token)).status == .ok)
                #expect(try await delete("/api/v1/photos/\(photo)", carol.token) == .noContent)
            }
            #expect(server.blobFiles() == baseline, "every file of the scene is gone")
            #expect(try await delete(base, alice.token) == .notFound)

            // Deleting a scene's reference photo through the photo API takes the scene with it.
            let other = try await server.scene(token: alice.token, metadata: sceneMetadata(at: here))
            // Its feet shot deleted through the photo API: the scene stays, without one.
            #expect(try await delete("/api/v1/photos/\(other.feetShot?.id ?? UUID())", alice.token) == .noContent)
            let footless = try await server.send(.GET, "/api/v1/scenes/\(other.id)")
            #expect(try footless.status == .ok && footless.decode(SceneDTO.self).feetShot == nil, "\(footless.text)")
            #expect(try await delete("/api/v1/photos/\(other.reference.id)", alice.token) == .noContent)
            #expect(try await server.send(.GET, "/api/v1/scenes/\(other.id)").status == .notFound)
        }
    }
}
