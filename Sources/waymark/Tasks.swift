import ArgumentParser

/// `waymark tasks`: field-inspection tasks, for officers (DESIGN §3.10).
struct Tasks: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Hand out, list and return field-inspection tasks (officers).")
}
