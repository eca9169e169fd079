import Foundation

extension RecorderEngine {
    /// The wall clock is trusted for date checks only from this date on: a Raspberry Pi
    /// without a real-time clock boots in 1970 until NTP sets it.
    static let plausibleWallClock = Date(timeIntervalSince1970: 1_735_689_600)  // 2025-01-01T00:00:00Z
    /// A fix this far ahead of a plausible wall clock is absurd.
    static let futureLimit: Double = 86_400
    /// A fix this far behind a plausible wall clock comes from a receiver hit by the GPS
    /// 1024-week rollover (19.6 years).
    static let rolloverLimit: Double = 1000 * 7 * 86_400
    /// A fix this far ahead of the time predicted from the last accepted fix is a glitch.
    static let jumpLimit: Double = 3600
    /// After this many consecutive fixes refused for their time (out of order or jumped) that
    /// agree with each other, the receiver's new time line is believed and a new track starts.
    static let timeStreakLimit = 5

    /// Adds a location event to the recording and says what became of it.
    ///
    /// A fix is accepted when the recording runs, its position is valid, its accuracy is no
    /// worse than the threshold (SRR-06; a fix without accuracy cannot be judged and is
    /// accepted) and its GPS time is sane: not a repeat of or earlier than the last accepted
    /// fix, not more than a day ahead of or 1000 weeks behind a plausible wall clock, not more
    /// than an hour ahead of what the last accepted fix and the time since its arrival predict.
    /// The first accepted fix after the start or a resume opens a new track (SRR-05, SRR-07).
    ///
    /// Fix times are never replaced by the wall clock. Should the receiver's time line itself
    /// move (a first fix with a wrong time, then right ones), five consecutive fixes that agree
    /// with each other are believed over the last accepted one, and start a new track.
    public mutating func handle(_ event: LocationEvent, at instant: RecorderInstant) -> FixVerdict {
        switch phase {
        case .stopped: return ignore(.stopped)
        case .paused: return ignore(.paused)
        case .recording, .waitingForFix: break
        }
        lastEvent = (event, instant.uptime)
        guard case let .fix(fix) = event else { return ignore(.noFix) }
        guard let problem = problem(with: fix, at: instant) else {
            return accept(fix, at: instant, newTrack: false)
        }
        if problem == .outOfOrder || problem == .timeJump, extendTimeStreak(with: fix, at: instant) {
            clockSamples.removeAll()  // taken against the time line just abandoned
            return accept(fix, at: instant, newTrack: true)
        }
        return ignore(problem)
    }

    /// Why `fix` cannot be accepted at `instant`, or `nil` when it can.
    func problem(with fix: Fix, at instant: RecorderInstant) -> IgnoredFix? {
        guard Self.isValid(fix) else { return .invalidPosition }
        if let accuracy = fix.accuracy, accuracy > settings.accuracyThreshold { return .inaccurate(accuracy) }
        if instant.wall >= Self.plausibleWallClock {
            let ahead = fix.time.timeIntervalSince(instant.wall)
            if ahead > Self.futureLimit { return .future }
            if ahead < -Self.rolloverLimit { return .weekRollover }
        }
        if let last = lastAccepted {
            if fix.time == last.fix.time { return .duplicate }
            if fix.time < last.fix.time { return .outOfOrder }
            if fix.time.timeIntervalSince(Self.predictedTime(after: last.fix, at: last.at, now: instant)) > Self.jumpLimit {
                return .timeJump
            }
        }
        return nil
    }

    /// Whether a fix describes a place on Earth at a time: finite values, latitude within ±90°,
    /// longitude within ±180°, and an accuracy, if any, that is not negative.
    static func isValid(_ fix: Fix) -> Bool {
        fix.latitude.isFinite && fix.longitude.isFinite && abs(fix.latitude) <= 90 && abs(fix.longitude) <= 180
            && (fix.altitude?.isFinite ?? true) && fix.time.timeIntervalSince1970.isFinite
            && (fix.accuracy.map { $0 >= 0 } ?? true)  // a NaN accuracy fails too
    }

    /// The GPS time expected at `now` after `fix` arrived at `arrival`.
    ///
    /// Measured on the monotonic clock, or on the wall clock when that advanced more: the
    /// monotonic clock of a computer may stop while it sleeps, and a fix after a sleep must not
    /// look like a jump.
    static func predictedTime(after fix: Fix, at arrival: RecorderInstant, now: RecorderInstant) -> Date {
        let passed = max(0, now.uptime - arrival.uptime, now.wall.timeIntervalSince(arrival.wall))
        return fix.time.addingTimeInterval(passed)
    }

    /// Counts `fix`, refused for its time, into the streak of refused fixes that agree with
    /// each other; true when the streak is long enough to be believed.
    mutating func extendTimeStreak(with fix: Fix, at instant: RecorderInstant) -> Bool {
        if let streak = timeStreak, fix.time == streak.fix.time { return false }  // a repeat neither counts nor breaks it
        if let streak = timeStreak, fix.time > streak.fix.time,
           fix.time.timeIntervalSince(Self.predictedTime(after: streak.fix, at: streak.at, now: instant)) <= Self.jumpLimit {
            timeStreak = (fix, instant, streak.count + 1)
        } else {
            timeStreak = (fix, instant, 1)
        }
        return (timeStreak?.count ?? 0) >= Self.timeStreakLimit
    }

    /// Adds an acceptable fix, opening a track when none is open or `newTrack` asks for one. The
    /// route keeps what its plaintext carries (``Fix/withoutMotion``), so the route recorded, the
    /// route saved and the route uploaded are the same.
    mutating func accept(_ reading: Fix, at instant: RecorderInstant, newTrack: Bool) -> FixVerdict {
        let fix = reading.withoutMotion
        let startsTrack = newTrack || !trackOpen || tracks.isEmpty
        if startsTrack {
            tracks.append([fix])
        } else if let previous = tracks[tracks.count - 1].last {
            let step = Geodesy.distance((previous.latitude, previous.longitude), (fix.latitude, fix.longitude))
            if step.isFinite { distance += step }
            tracks[tracks.count - 1].append(fix)
        }
        trackOpen = true
        phase = .recording
        lastAccepted = (fix, instant)
        lastIgnored = nil
        timeStreak = nil
        nextAlert = instant.uptime + settings.alertDelay
        recordClockSample(fix, at: instant)
        return .accepted(track: tracks.count - 1, startsTrack: startsTrack)
    }

    /// Remembers why an event was ignored and says so.
    mutating func ignore(_ reason: IgnoredFix) -> FixVerdict {
        lastIgnored = reason
        return .ignored(reason)
    }
}
