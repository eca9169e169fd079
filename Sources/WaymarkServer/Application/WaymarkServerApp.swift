import Foundation
import Logging
import Vapor

/// Runs the Waymark server until SIGINT or SIGTERM.
public enum WaymarkServerApp {
    /// Builds the application, configures it and serves on `configuration.host:port`, then
    /// shuts down gracefully when the process is asked to stop.
    ///
    /// The environment name comes from `WAYMARK_ENV` (default `production`); the log level from
    /// `LOG_LEVEL`. Command-line arguments are not read: the caller has parsed them.
    ///
    /// - Parameter bootstrapLogging: Whether to set up swift-log with Vapor's console logger.
    ///   swift-log may be bootstrapped once per process: pass `false` if the caller already did.
    public static func run(_ configuration: ServerConfiguration, _ dependencies: ServerDependencies = ServerDependencies(),
                           bootstrapLogging: Bool = true) async throws {
        var environment = Environment(
            name: ProcessInfo.processInfo.environment["WAYMARK_ENV"] ?? Environment.production.name,
            arguments: ["waymark", "serve"]
        )
        if bootstrapLogging {
            try LoggingSystem.bootstrap(from: &environment)
        }
        // Room for the connections the gate admits (ConnectionLimits.total(fitting:)) beside the server's own files.
        ConnectionLimits.raiseOpenFileLimit()
        let app = try await buildApplication(configuration, dependencies, environment: environment)
        do {
            try await app.execute()
        } catch {
            try? await app.asyncShutdown()
            throw error
        }
        try await app.asyncShutdown()
    }
}
