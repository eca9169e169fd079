import Foundation

/// The SGP4/SDP4 orbit propagator for two-line element sets, as Vallado, Crawford, Hujsak and
/// Kelso describe it in "Revisiting Spacetrack Report #3" (AIAA 2006-6753), in the WGS-72
/// constants the element sets are made with and the paper's improved ("i") operation mode.
///
/// Orbits with a period of 225 minutes or more (every navigation satellite) use the deep-space
/// branch: lunar-solar perturbations, and the resonance integration for one-day orbits
/// (geosynchronous) and for eccentric half-day orbits (Molniya-like, eccentricity ≥ 0.5).
/// A propagator is a value: propagating never changes it, and the resonance integrator always
/// steps from the epoch in the paper's fixed 720-minute steps, so the result of a time does not
/// depend on earlier calls.
public struct SGP4: Sendable {
    /// The element set this propagator was made from.
    public let elements: TwoLineElements

    // MARK: WGS-72 constants (the paper's "wgs72" set)
    static let earthRadius = 6378.135  // km
    static let mu = 398600.8  // km³/s²
    static let xke = 60.0 / (earthRadius * earthRadius * earthRadius / mu).squareRoot()  // √(μ)/(ER^1.5) per minute
    static let j2 = 0.001082616
    static let j3 = -0.00000253881
    static let j4 = -0.00000165597
    static let j3oj2 = j3 / j2
    static let twoPi = 2 * Double.pi
    static let twoThirds = 2.0 / 3.0

    // MARK: Mean elements at epoch (radians, radians per minute)
    let bstar: Double
    let ecco: Double
    let argpo: Double
    let inclo: Double
    let mo: Double
    let nodeo: Double
    let noUnkozai: Double

    // MARK: Near-earth coefficients
    var isimp = false
    var deepSpace: DeepSpace?
    var aycof = 0.0, con41 = 0.0, cc1 = 0.0, cc4 = 0.0, cc5 = 0.0
    var d2 = 0.0, d3 = 0.0, d4 = 0.0, delmo = 0.0, eta = 0.0
    var argpdot = 0.0, omgcof = 0.0, sinmao = 0.0
    var t2cof = 0.0, t3cof = 0.0, t4cof = 0.0, t5cof = 0.0
    var x1mth2 = 0.0, x7thm1 = 0.0, mdot = 0.0, nodedot = 0.0
    var xlcof = 0.0, xmcof = 0.0, nodecf = 0.0
    /// Greenwich sidereal angle at epoch (radians).
    let gsto: Double

    /// Prepares the propagator (the paper's `sgp4init`) and propagates once to the epoch.
    ///
    /// - Throws: `SGP4Error` when the elements cannot be propagated even at their epoch
    ///   (a mean motion that is not positive, or elements that describe a decayed orbit).
    public init(_ elements: TwoLineElements) throws(SGP4Error) {
        self.elements = elements
        let degrees = Double.pi / 180
        let minutesPerRevolution = 1440.0 / Self.twoPi
        let noKozai = elements.meanMotion / minutesPerRevolution
        guard noKozai > 0, noKozai.isFinite else { throw .meanMotionNotPositive }
        bstar = elements.bstar
        ecco = elements.eccentricity
        argpo = elements.argumentOfPerigee * degrees
        inclo = elements.inclination * degrees
        mo = elements.meanAnomaly * degrees
        nodeo = elements.rightAscension * degrees
        // Days since 1949 December 31 00:00 UT, as one double like the paper.
        let epoch = (elements.epochJulianDay.whole + elements.epochJulianDay.fraction) - 2433281.5

        // ---- initl: un-Kozai the mean motion, auxiliary epoch quantities
        let eccsq = ecco * ecco
        let omeosq = 1 - eccsq
        let rteosq = omeosq.squareRoot()
        let cosio = cos(inclo)
        let cosio2 = cosio * cosio
        let ak = pow(Self.xke / noKozai, Self.twoThirds)
        let d1 = 0.75 * Self.j2 * (3 * cosio2 - 1) / (rteosq * omeosq)
        var del = d1 / (ak * ak)
        let adel = ak * (1 - del * del - del * (1.0 / 3.0 + 134 * del * del / 81))
        del = d1 / (adel * adel)
        noUnkozai = noKozai / (1 + del)
        let ao = pow(Self.xke / noUnkozai, Self.twoThirds)
        let sinio = sin(inclo)
        let po = ao * omeosq
        let con42 = 1 - 5 * cosio2
        con41 = -con42 - cosio2 - cosio2
        let posq = po * po
        let rp = ao * (1 - ecco)
        gsto = Sidereal.gmst(julianDay: epoch + 2433281.5)

        // ---- sgp4init proper
        let ss = 78 / Self.earthRadius + 1
        let qzms2t = pow((120 - 78) / Self.earthRadius, 4)
        isimp = rp < 220 / Self.earthRadius + 1
        var sfour = ss
        var qzms24 = qzms2t
        let perige = (rp - 1) * Self.earthRadius
        if perige < 156 {
            sfour = perige < 98 ? 20 : perige - 78
            qzms24 = pow((120 - sfour) / Self.earthRadius, 4)
            sfour = sfour / Self.earthRadius + 1
        }
        let pinvsq = 1 / posq
        let tsi = 1 / (ao - sfour)
        eta = ao * ecco * tsi
        let etasq = eta * eta
        let eeta = ecco * eta
        let psisq = abs(1 - etasq)
        let coef = qzms24 * pow(tsi, 4)
        let coef1 = coef / pow(psisq, 3.5)
        let cc2 = coef1 * noUnkozai * (ao * (1 + 1.5 * etasq + eeta * (4 + etasq))
            + 0.375 * Self.j2 * tsi / psisq * con41 * (8 + 3 * etasq * (8 + etasq)))
        cc1 = bstar * cc2
        var cc3 = 0.0
        if ecco > 1.0e-4 { cc3 = -2 * coef * tsi * Self.j3oj2 * noUnkozai * sinio / ecco }
        x1mth2 = 1 - cosio2
        cc4 = 2 * noUnkozai * coef1 * ao * omeosq * (eta * (2 + 0.5 * etasq) + ecco * (0.5 + 2 * etasq)
            - Self.j2 * tsi / (ao * psisq) * (-3 * con41 * (1 - 2 * eeta + etasq * (1.5 - 0.5 * eeta))
                + 0.75 * x1mth2 * (2 * etasq - eeta * (1 + etasq)) * cos(2 * argpo)))
        cc5 = 2 * coef1 * ao * omeosq * (1 + 2.75 * (etasq + eeta) + eeta * etasq)
        let cosio4 = cosio2 * cosio2
        let temp1 = 1.5 * Self.j2 * pinvsq * noUnkozai
        let temp2 = 0.5 * temp1 * Self.j2 * pinvsq
        let temp3 = -0.46875 * Self.j4 * pinvsq * pinvsq * noUnkozai
        mdot = noUnkozai + 0.5 * temp1 * rteosq * con41 + 0.0625 * temp2 * rteosq * (13 - 78 * cosio2 + 137 * cosio4)
        argpdot = -0.5 * temp1 * con42 + 0.0625 * temp2 * (7 - 114 * cosio2 + 395 * cosio4)
            + temp3 * (3 - 36 * cosio2 + 49 * cosio4)
        let xhdot1 = -temp1 * cosio
        nodedot = xhdot1 + (0.5 * temp2 * (4 - 19 * cosio2) + 2 * temp3 * (3 - 7 * cosio2)) * cosio
        let xpidot = argpdot + nodedot
        omgcof = bstar * cc3 * cos(argpo)
        if ecco > 1.0e-4 { xmcof = -Self.twoThirds * coef * bstar / eeta }
        nodecf = 3.5 * omeosq * xhdot1 * cc1
        t2cof = 1.5 * cc1
        xlcof = Self.longPeriodCoefficient(sinI: sinio, cosI: cosio)
        aycof = -0.5 * Self.j3oj2 * sinio
        delmo = pow(1 + eta * cos(mo), 3)
        sinmao = sin(mo)
        x7thm1 = 7 * cosio2 - 1

        if Self.twoPi / noUnkozai >= 225 {
            isimp = true
            deepSpace = DeepSpace(
                epoch: epoch, ecco: ecco, eccsq: eccsq, argpo: argpo, inclo: inclo, nodeo: nodeo, mo: mo,
                noUnkozai: noUnkozai, gsto: gsto, mdot: mdot, nodedot: nodedot, xpidot: xpidot)
        }
        if !isimp {
            let cc1sq = cc1 * cc1
            d2 = 4 * ao * tsi * cc1sq
            let temp = d2 * tsi * cc1 / 3
            d3 = (17 * ao + sfour) * temp
            d4 = 0.5 * temp * ao * tsi * (221 * ao + 31 * sfour) * cc1
            t3cof = d2 + 2 * cc1sq
            t4cof = 0.25 * (3 * d3 + cc1 * (12 * d2 + 10 * cc1sq))
            t5cof = 0.2 * (3 * d4 + 12 * cc1 * d3 + 6 * d2 * d2 + 15 * cc1sq * (2 * d2 + cc1sq))
        }
        _ = try propagate(minutesSinceEpoch: 0)
    }

    /// The coefficient of the long-period periodics in the mean longitude (the paper's `xlcof`),
    /// with its guard against division by zero for retrograde equatorial orbits.
    static func longPeriodCoefficient(sinI: Double, cosI: Double) -> Double {
        let denominator = abs(cosI + 1) > 1.5e-12 ? 1 + cosI : 1.5e-12
        return -0.25 * j3oj2 * sinI * (3 + 5 * cosI) / denominator
    }

    /// Position and velocity in the TEME frame at a time.
    public func propagate(to date: Date) throws(SGP4Error) -> TEMEState {
        try propagate(minutesSinceEpoch: date.timeIntervalSince(elements.epoch) / 60)
    }

    /// Position and velocity in the TEME frame (true equator, mean equinox of date) at a time
    /// given in minutes after the element set's epoch.
    ///
    /// - Throws: `SGP4Error` with the paper's error codes 1–4 and 6.
    public func propagate(minutesSinceEpoch t: Double) throws(SGP4Error) -> TEMEState {
        // ---- secular gravity and atmospheric drag
        let xmdf = mo + mdot * t
        let argpdf = argpo + argpdot * t
        let nodedf = nodeo + nodedot * t
        var argpm = argpdf
        var mm = xmdf
        let t2 = t * t
        var nodem = nodedf + nodecf * t2
        var tempa = 1 - cc1 * t
        var tempe = bstar * cc4 * t
        var templ = t2cof * t2
        if !isimp {
            let delomg = omgcof * t
            let delm = xmcof * (pow(1 + eta * cos(xmdf), 3) - delmo)
            let temp = delomg + delm
            mm = xmdf + temp
            argpm = argpdf - temp
            let t3 = t2 * t
            let t4 = t3 * t
            tempa = tempa - d2 * t2 - d3 * t3 - d4 * t4
            tempe += bstar * cc5 * (sin(mm) - sinmao)
            templ += t3cof * t3 + t4 * (t4cof + t * t5cof)
        }
        var nm = noUnkozai
        var em = ecco
        var inclm = inclo
        if let deepSpace {
            deepSpace.secularAndResonance(
                t: t, argpo: argpo, argpdot: argpdot, noUnkozai: noUnkozai,
                em: &em, argpm: &argpm, inclm: &inclm, mm: &mm, nodem: &nodem, nm: &nm)
        }
        guard nm > 0 else { throw .meanMotionNotPositive }
        let am = pow(Self.xke / nm, Self.twoThirds) * tempa * tempa
        nm = Self.xke / pow(am, 1.5)
        em -= tempe
        guard em < 1, em >= -0.001 else { throw .meanEccentricityOutOfRange(em) }
        if em < 1.0e-6 { em = 1.0e-6 }
        mm += noUnkozai * templ
        var xlm = mm + argpm + nodem
        nodem = fmod(nodem, Self.twoPi)
        argpm = fmod(argpm, Self.twoPi)
        xlm = fmod(xlm, Self.twoPi)
        mm = fmod(xlm - argpm - nodem, Self.twoPi)

        // ---- lunar-solar periodics
        var ep = em
        var xincp = inclm
        var argpp = argpm
        var nodep = nodem
        var mp = mm
        var sinip = sin(inclm)
        var cosip = cos(inclm)
        var aycof = self.aycof
        var xlcof = self.xlcof
        var con41 = self.con41
        var x1mth2 = self.x1mth2
        var x7thm1 = self.x7thm1
        if let deepSpace {
            deepSpace.periodics(t: t, ep: &ep, inclp: &xincp, nodep: &nodep, argpp: &argpp, mp: &mp)
            if xincp < 0 {
                xincp = -xincp
                nodep += Double.pi
                argpp -= Double.pi
            }
            guard ep >= 0, ep <= 1 else { throw .perturbedEccentricityOutOfRange(ep) }
            sinip = sin(xincp)
            cosip = cos(xincp)
            aycof = -0.5 * Self.j3oj2 * sinip
            xlcof = Self.longPeriodCoefficient(sinI: sinip, cosI: cosip)
            let cosisq = cosip * cosip
            con41 = 3 * cosisq - 1
            x1mth2 = 1 - cosisq
            x7thm1 = 7 * cosisq - 1
        }

        // ---- long-period periodics
        let axnl = ep * cos(argpp)
        var temp = 1 / (am * (1 - ep * ep))
        let aynl = ep * sin(argpp) + temp * aycof
        let xl = mp + argpp + nodep + temp * xlcof * axnl

        // ---- Kepler's equation
        let u = fmod(xl - nodep, Self.twoPi)
        var eo1 = u
        var tem5 = 9999.9
        var sineo1 = 0.0
        var coseo1 = 0.0
        var iteration = 1
        while abs(tem5) >= 1.0e-12 && iteration <= 10 {
            sineo1 = sin(eo1)
            coseo1 = cos(eo1)
            tem5 = 1 - coseo1 * axnl - sineo1 * aynl
            tem5 = (u - aynl * coseo1 + axnl * sineo1 - eo1) / tem5
            if abs(tem5) >= 0.95 { tem5 = tem5 > 0 ? 0.95 : -0.95 }
            eo1 += tem5
            iteration += 1
        }

        // ---- short-period preliminary quantities
        let ecose = axnl * coseo1 + aynl * sineo1
        let esine = axnl * sineo1 - aynl * coseo1
        let el2 = axnl * axnl + aynl * aynl
        let pl = am * (1 - el2)
        guard pl >= 0 else { throw .semiLatusRectumNegative }
        let rl = am * (1 - ecose)
        let rdotl = am.squareRoot() * esine / rl
        let rvdotl = pl.squareRoot() / rl
        let betal = (1 - el2).squareRoot()
        temp = esine / (1 + betal)
        let sinu = am / rl * (sineo1 - aynl - axnl * temp)
        let cosu = am / rl * (coseo1 - axnl + aynl * temp)
        var su = atan2(sinu, cosu)
        let sin2u = (cosu + cosu) * sinu
        let cos2u = 1 - 2 * sinu * sinu
        temp = 1 / pl
        let temp1 = 0.5 * Self.j2 * temp
        let temp2 = temp1 * temp

        // ---- short-period periodics
        let mrt = rl * (1 - 1.5 * temp2 * betal * con41) + 0.5 * temp1 * x1mth2 * cos2u
        su -= 0.25 * temp2 * x7thm1 * sin2u
        let xnode = nodep + 1.5 * temp2 * cosip * sin2u
        let xinc = xincp + 1.5 * temp2 * cosip * sinip * cos2u
        let mvt = rdotl - nm * temp1 * x1mth2 * sin2u / Self.xke
        let rvdot = rvdotl + nm * temp1 * (x1mth2 * cos2u + 1.5 * con41) / Self.xke

        // ---- orientation vectors
        let sinsu = sin(su), cossu = cos(su)
        let snod = sin(xnode), cnod = cos(xnode)
        let sini = sin(xinc), cosi = cos(xinc)
        let xmx = -snod * cosi
        let xmy = cnod * cosi
        let ux = SIMD3(xmx * sinsu + cnod * cossu, xmy * sinsu + snod * cossu, sini * sinsu)
        let vx = SIMD3(xmx * cossu - cnod * sinsu, xmy * cossu - snod * sinsu, sini * cossu)
        let kilometresPerSecond = Self.earthRadius * Self.xke / 60
        guard mrt >= 1 else { throw .decayed }
        return TEMEState(position: mrt * ux * Self.earthRadius, velocity: (mvt * ux + rvdot * vx) * kilometresPerSecond)
    }
}

/// A satellite's position (km) and velocity (km/s) in the TEME frame: true equator, mean
/// equinox of date, the frame SGP4 works in.
public struct TEMEState: Sendable, Equatable {
    public var position: SIMD3<Double>
    public var velocity: SIMD3<Double>

    public init(position: SIMD3<Double>, velocity: SIMD3<Double>) {
        self.position = position
        self.velocity = velocity
    }
}

/// Why SGP4 could not propagate an element set, with the error codes of Vallado et al. (2006).
public enum SGP4Error: Error, Sendable, Equatable, CustomStringConvertible {
    /// Code 1: the mean eccentricity left [−0.001, 1) — the elements are no longer valid.
    case meanEccentricityOutOfRange(Double)
    /// Code 2: the mean motion is zero or negative.
    case meanMotionNotPositive
    /// Code 3: the eccentricity after the lunar-solar periodics left [0, 1].
    case perturbedEccentricityOutOfRange(Double)
    /// Code 4: the semi-latus rectum came out negative.
    case semiLatusRectumNegative
    /// Code 6: the satellite is below the Earth's surface: it has decayed.
    case decayed

    /// The error code of Vallado et al.'s implementations (`satrec.error`).
    public var code: Int {
        switch self {
        case .meanEccentricityOutOfRange: 1
        case .meanMotionNotPositive: 2
        case .perturbedEccentricityOutOfRange: 3
        case .semiLatusRectumNegative: 4
        case .decayed: 6
        }
    }

    public var description: String {
        switch self {
        case .meanEccentricityOutOfRange(let e):
            "SGP4 error 1: the mean eccentricity became \(e), outside [−0.001, 1) — the element set is too old or invalid; load a newer TLE file"
        case .meanMotionNotPositive:
            "SGP4 error 2: the mean motion is not positive — the element set is invalid"
        case .perturbedEccentricityOutOfRange(let e):
            "SGP4 error 3: the perturbed eccentricity became \(e), outside [0, 1] — the element set is too old or invalid"
        case .semiLatusRectumNegative:
            "SGP4 error 4: the semi-latus rectum is negative — the element set is invalid"
        case .decayed:
            "SGP4 error 6: the satellite would be below the Earth's surface — it has decayed; load a newer TLE file"
        }
    }
}
