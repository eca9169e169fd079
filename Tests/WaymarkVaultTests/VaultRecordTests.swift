import Foundation
import Testing
import WaymarkCore
@testable import WaymarkVault

@Suite struct VaultRecordTests {
    @Test func aRecordWritesItsKeysInTheSeedsOrder() {
        let record = VaultRecord(timestamp: Date(timeIntervalSince1970: 1_514_479_762.7), latitude: 40.75846, longitude: 73.92248, altitude: 160.34)
        #expect(String(decoding: record.json(), as: UTF8.self)
            == #"{"timestamp":"2017-12-28T16:49:22Z","latitude":40.75846,"longitude":73.92248,"altitude":160.34,"accuracy":null,"speed":null,"heading":null,"datum":"EPSG:4326"}"#)
    }
}
