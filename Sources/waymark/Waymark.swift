import ArgumentParser

@main
struct Waymark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Geotag photos from a recorded route.")
}
