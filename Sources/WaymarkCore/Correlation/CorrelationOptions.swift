/// Limits for placing a photo on a route (DESIGN §3.4).
public struct CorrelationOptions: Sendable, Equatable {
    /// The longest time (seconds) between two fixes of a track across which a position is interpolated.
    public var maxGap: Double
    /// How long (seconds) before a track's first fix or after its last a photo still gets that fix.
    public var maxExtrapolation: Double

    /// Options with the defaults of DESIGN §3.4: 60 s gap, 30 s extrapolation.
    public init(maxGap: Double = 60, maxExtrapolation: Double = 30) {
        self.maxGap = maxGap
        self.maxExtrapolation = maxExtrapolation
    }
}
