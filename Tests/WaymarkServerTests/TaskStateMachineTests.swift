import Foundation
import Testing
import WaymarkAPI
@testable import WaymarkServer

@Suite("Task status rules: every event in every status, allowed or refused")
struct TaskStateMachineTests {
    /// What each event does in each status: the next status, "same" (allowed, no change) or the refusal's code.
    static let table: [(TaskEvent, TaskStatus, String)] = [
        (.open, .new, "open"), (.open, .open, "same"), (.open, .dataProvided, "same"), (.open, .returned, "same"),
        (.send, .new, "data_provided"), (.send, .open, "data_provided"), (.send, .returned, "data_provided"),
        (.send, .dataProvided, "task_already_sent"),
        (.giveBack, .dataProvided, "returned"), (.giveBack, .new, "task_not_sent"), (.giveBack, .open, "task_not_sent"),
        (.giveBack, .returned, "task_not_sent"),
        (.edit, .new, "same"), (.edit, .open, "same"), (.edit, .returned, "same"), (.edit, .dataProvided, "task_not_editable"),
    ]

    @Test("The table of DESIGN §3.10 holds for all sixteen pairs")
    func everyPair() {
        #expect(Self.table.count == 16)
        for (event, status, expected) in Self.table {
            let outcome: String
            do {
                outcome = try TaskStateMachine.apply(event, to: status)?.rawValue ?? "same"
            } catch {
                outcome = error.code.rawValue
                #expect(!error.reason.isEmpty && error.reason.hasSuffix("."), "a refusal says why: \(error.reason)")
            }
            #expect(outcome == expected, "\(event) in \(status.rawValue)")
        }
    }

    @Test("The statuses an event starts from, as the stores' conditional updates use them")
    func sources() {
        #expect(TaskStateMachine.sources(of: .send) == [.new, .open, .returned])
        #expect(TaskStateMachine.sources(of: .giveBack) == [.dataProvided])
        #expect(TaskStateMachine.sources(of: .open) == [.new])
        #expect(TaskStateMachine.editable == [.new, .open, .returned])
    }

    @Test("Due dates: an ISO date as given, a date-time in UTC; anything else refused")
    func dueDates() {
        #expect(TaskDueDate.normalized("2026-07-01") == "2026-07-01")
        #expect(TaskDueDate.normalized("2028-02-29") == "2028-02-29")
        #expect(TaskDueDate.normalized("2026-07-01T17:00:00+02:00") == "2026-07-01T15:00:00Z")
        #expect(TaskDueDate.normalized("2026-07-01t17:00:00.123456789z") == "2026-07-01T17:00:00Z")
        for bad in ["", "tomorrow", "2026-02-30", "2027-02-29", "2026-13-01", "01.07.2026", "2026-07-01T17:00:00", "1969-12-31",
                    "2026-07-01T25:00:00Z", "1776633600", "2026-7-1"] {
            #expect(TaskDueDate.normalized(bad) == nil, "\(bad)")
        }
    }
}
