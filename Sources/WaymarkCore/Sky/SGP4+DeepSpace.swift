import Foundation

extension SGP4 {
    /// The deep-space (SDP4) part of the propagator for orbits of 225 minutes or more: the
    /// lunar and solar perturbations (the paper's `dscom` and `dpper`) and the geopotential
    /// resonance of one-day and eccentric half-day orbits (`dsinit` and `dspace`).
    struct DeepSpace: Sendable {
        // Lunar-solar periodic coefficients (dscom → dpper).
        var e3 = 0.0, ee2 = 0.0, se2 = 0.0, se3 = 0.0
        var sgh2 = 0.0, sgh3 = 0.0, sgh4 = 0.0, sh2 = 0.0, sh3 = 0.0
        var si2 = 0.0, si3 = 0.0, sl2 = 0.0, sl3 = 0.0, sl4 = 0.0
        var xgh2 = 0.0, xgh3 = 0.0, xgh4 = 0.0, xh2 = 0.0, xh3 = 0.0
        var xi2 = 0.0, xi3 = 0.0, xl2 = 0.0, xl3 = 0.0, xl4 = 0.0
        var zmol = 0.0, zmos = 0.0
        // Secular rates (dsinit).
        var dedt = 0.0, didt = 0.0, dmdt = 0.0, dnodt = 0.0, domdt = 0.0
        // Resonance (dsinit → dspace).
        enum Resonance: Sendable { case none, synchronous, halfDay }
        var resonance = Resonance.none
        var d2201 = 0.0, d2211 = 0.0, d3210 = 0.0, d3222 = 0.0, d4410 = 0.0, d4422 = 0.0
        var d5220 = 0.0, d5232 = 0.0, d5421 = 0.0, d5433 = 0.0
        var del1 = 0.0, del2 = 0.0, del3 = 0.0
        var xfact = 0.0, xlamo = 0.0
        let gsto: Double

        static let zns = 1.19459e-5
        static let zes = 0.01675
        static let znl = 1.5835218e-4
        static let zel = 0.05490
        /// The Earth's rotation rate in radians per minute.
        static let rptim = 4.37526908801129966e-3

        init(epoch: Double, ecco: Double, eccsq: Double, argpo: Double, inclo: Double, nodeo: Double, mo: Double,
             noUnkozai: Double, gsto: Double, mdot: Double, nodedot: Double, xpidot: Double) {
            self.gsto = gsto
            let twoPi = SGP4.twoPi
            // ---- dscom: lunar and solar terms at epoch (tc = 0)
            let c1ss = 2.9864797e-6
            let c1l = 4.7968065e-7
            let zsinis = 0.39785416
            let zcosis = 0.91744867
            let zcosgs = 0.1945905
            let zsings = -0.98088458

            let nm = noUnkozai
            let em = ecco
            let snodm = sin(nodeo), cnodm = cos(nodeo)
            let sinomm = sin(argpo), cosomm = cos(argpo)
            let sinim = sin(inclo), cosim = cos(inclo)
            let emsq = em * em
            let betasq = 1 - emsq
            let rtemsq = betasq.squareRoot()

            let day = epoch + 18261.5
            let xnodce = fmod(4.5236020 - 9.2422029e-4 * day, twoPi)
            let stem = sin(xnodce), ctem = cos(xnodce)
            let zcosil = 0.91375164 - 0.03568096 * ctem
            let zsinil = (1 - zcosil * zcosil).squareRoot()
            let zsinhl = 0.089683511 * stem / zsinil
            let zcoshl = (1 - zsinhl * zsinhl).squareRoot()
            let gam = 5.8351514 + 0.0019443680 * day
            var zx = 0.39785416 * stem / zsinil
            let zy = zcoshl * ctem + 0.91744867 * zsinhl * stem
            zx = atan2(zx, zy)
            zx = gam + zx - xnodce
            let zcosgl = cos(zx), zsingl = sin(zx)

            /// The coefficients of one perturbing body (the Sun first, then the Moon).
            struct Body {
                var s1 = 0.0, s2 = 0.0, s3 = 0.0, s4 = 0.0, s5 = 0.0, s6 = 0.0, s7 = 0.0
                var z1 = 0.0, z2 = 0.0, z3 = 0.0, z11 = 0.0, z12 = 0.0, z13 = 0.0
                var z21 = 0.0, z22 = 0.0, z23 = 0.0, z31 = 0.0, z32 = 0.0, z33 = 0.0
            }
            func body(zcosg: Double, zsing: Double, zcosi: Double, zsini: Double, zcosh: Double, zsinh: Double, cc: Double) -> Body {
                var b = Body()
                let a1 = zcosg * zcosh + zsing * zcosi * zsinh
                let a3 = -zsing * zcosh + zcosg * zcosi * zsinh
                let a7 = -zcosg * zsinh + zsing * zcosi * zcosh
                let a8 = zsing * zsini
                let a9 = zsing * zsinh + zcosg * zcosi * zcosh
                let a10 = zcosg * zsini
                let a2 = cosim * a7 + sinim * a8
                let a4 = cosim * a9 + sinim * a10
                let a5 = -sinim * a7 + cosim * a8
                let a6 = -sinim * a9 + cosim * a10
                let x1 = a1 * cosomm + a2 * sinomm
                let x2 = a3 * cosomm + a4 * sinomm
                let x3 = -a1 * sinomm + a2 * cosomm
                let x4 = -a3 * sinomm + a4 * cosomm
                let x5 = a5 * sinomm
                let x6 = a6 * sinomm
                let x7 = a5 * cosomm
                let x8 = a6 * cosomm
                b.z31 = 12 * x1 * x1 - 3 * x3 * x3
                b.z32 = 24 * x1 * x2 - 6 * x3 * x4
                b.z33 = 12 * x2 * x2 - 3 * x4 * x4
                b.z1 = 3 * (a1 * a1 + a2 * a2) + b.z31 * emsq
                b.z2 = 6 * (a1 * a3 + a2 * a4) + b.z32 * emsq
                b.z3 = 3 * (a3 * a3 + a4 * a4) + b.z33 * emsq
                b.z11 = -6 * a1 * a5 + emsq * (-24 * x1 * x7 - 6 * x3 * x5)
                b.z12 = -6 * (a1 * a6 + a3 * a5) + emsq * (-24 * (x2 * x7 + x1 * x8) - 6 * (x3 * x6 + x4 * x5))
                b.z13 = -6 * a3 * a6 + emsq * (-24 * x2 * x8 - 6 * x4 * x6)
                b.z21 = 6 * a2 * a5 + emsq * (24 * x1 * x5 - 6 * x3 * x7)
                b.z22 = 6 * (a4 * a5 + a2 * a6) + emsq * (24 * (x2 * x5 + x1 * x6) - 6 * (x4 * x7 + x3 * x8))
                b.z23 = 6 * a4 * a6 + emsq * (24 * x2 * x6 - 6 * x4 * x8)
                b.z1 = b.z1 + b.z1 + betasq * b.z31
                b.z2 = b.z2 + b.z2 + betasq * b.z32
                b.z3 = b.z3 + b.z3 + betasq * b.z33
                b.s3 = cc / nm
                b.s2 = -0.5 * b.s3 / rtemsq
                b.s4 = b.s3 * rtemsq
                b.s1 = -15 * em * b.s4
                b.s5 = x1 * x3 + x2 * x4
                b.s6 = x2 * x3 + x1 * x4
                b.s7 = x2 * x4 - x1 * x3
                return b
            }
            let sun = body(zcosg: zcosgs, zsing: zsings, zcosi: zcosis, zsini: zsinis, zcosh: cnodm, zsinh: snodm, cc: c1ss)
            let moon = body(zcosg: zcosgl, zsing: zsingl, zcosi: zcosil, zsini: zsinil,
                            zcosh: zcoshl * cnodm + zsinhl * snodm, zsinh: snodm * zcoshl - cnodm * zsinhl, cc: c1l)
            zmol = fmod(4.7199672 + 0.22997150 * day - gam, twoPi)
            zmos = fmod(6.2565837 + 0.017201977 * day, twoPi)
            // Solar terms.
            se2 = 2 * sun.s1 * sun.s6
            se3 = 2 * sun.s1 * sun.s7
            si2 = 2 * sun.s2 * sun.z12
            si3 = 2 * sun.s2 * (sun.z13 - sun.z11)
            sl2 = -2 * sun.s3 * sun.z2
            sl3 = -2 * sun.s3 * (sun.z3 - sun.z1)
            sl4 = -2 * sun.s3 * (-21 - 9 * emsq) * Self.zes
            sgh2 = 2 * sun.s4 * sun.z32
            sgh3 = 2 * sun.s4 * (sun.z33 - sun.z31)
            sgh4 = -18 * sun.s4 * Self.zes
            sh2 = -2 * sun.s2 * sun.z22
            sh3 = -2 * sun.s2 * (sun.z23 - sun.z21)
            // Lunar terms.
            ee2 = 2 * moon.s1 * moon.s6
            e3 = 2 * moon.s1 * moon.s7
            xi2 = 2 * moon.s2 * moon.z12
            xi3 = 2 * moon.s2 * (moon.z13 - moon.z11)
            xl2 = -2 * moon.s3 * moon.z2
            xl3 = -2 * moon.s3 * (moon.z3 - moon.z1)
            xl4 = -2 * moon.s3 * (-21 - 9 * emsq) * Self.zel
            xgh2 = 2 * moon.s4 * moon.z32
            xgh3 = 2 * moon.s4 * (moon.z33 - moon.z31)
            xgh4 = -18 * moon.s4 * Self.zel
            xh2 = -2 * moon.s2 * moon.z22
            xh3 = -2 * moon.s2 * (moon.z23 - moon.z21)

            // ---- dsinit: secular rates and the resonance terms
            if nm < 0.0052359877 && nm > 0.0034906585 {
                resonance = .synchronous
            } else if nm >= 8.26e-3 && nm <= 9.24e-3 && em >= 0.5 {
                resonance = .halfDay
            }
            let ses = sun.s1 * Self.zns * sun.s5
            let sis = sun.s2 * Self.zns * (sun.z11 + sun.z13)
            let sls = -Self.zns * sun.s3 * (sun.z1 + sun.z3 - 14 - 6 * emsq)
            let sghs = sun.s4 * Self.zns * (sun.z31 + sun.z33 - 6)
            var shs = -Self.zns * sun.s2 * (sun.z21 + sun.z23)
            let nearEquatorial = inclo < 5.2359877e-2 || inclo > Double.pi - 5.2359877e-2
            if nearEquatorial { shs = 0 }
            if sinim != 0 { shs /= sinim }
            let sgs = sghs - cosim * shs
            dedt = ses + moon.s1 * Self.znl * moon.s5
            didt = sis + moon.s2 * Self.znl * (moon.z11 + moon.z13)
            dmdt = sls - Self.znl * moon.s3 * (moon.z1 + moon.z3 - 14 - 6 * emsq)
            let sghl = moon.s4 * Self.znl * (moon.z31 + moon.z33 - 6)
            var shll = -Self.znl * moon.s2 * (moon.z21 + moon.z23)
            if nearEquatorial { shll = 0 }
            domdt = sgs + sghl
            dnodt = shs
            if sinim != 0 {
                domdt -= cosim / sinim * shll
                dnodt += shll / sinim
            }

            let theta = fmod(gsto, twoPi)
            guard resonance != .none else { return }
            let aonv = pow(nm / SGP4.xke, SGP4.twoThirds)
            switch resonance {
            case .none:
                break
            case .halfDay:
                let cosisq = cosim * cosim
                let em = ecco
                let emsq = eccsq
                let eoc = em * emsq
                let g201 = -0.306 - (em - 0.64) * 0.440
                let g211, g310, g322, g410, g422, g520: Double
                if em <= 0.65 {
                    g211 = 3.616 - 13.2470 * em + 16.2900 * emsq
                    g310 = -19.302 + 117.3900 * em - 228.4190 * emsq + 156.5910 * eoc
                    g322 = -18.9068 + 109.7927 * em - 214.6334 * emsq + 146.5816 * eoc
                    g410 = -41.122 + 242.6940 * em - 471.0940 * emsq + 313.9530 * eoc
                    g422 = -146.407 + 841.8800 * em - 1629.014 * emsq + 1083.4350 * eoc
                    g520 = -532.114 + 3017.977 * em - 5740.032 * emsq + 3708.2760 * eoc
                } else {
                    g211 = -72.099 + 331.819 * em - 508.738 * emsq + 266.724 * eoc
                    g310 = -346.844 + 1582.851 * em - 2415.925 * emsq + 1246.113 * eoc
                    g322 = -342.585 + 1554.908 * em - 2366.899 * emsq + 1215.972 * eoc
                    g410 = -1052.797 + 4758.686 * em - 7193.992 * emsq + 3651.957 * eoc
                    g422 = -3581.690 + 16178.110 * em - 24462.770 * emsq + 12422.520 * eoc
                    g520 = em > 0.715
                        ? -5149.66 + 29936.92 * em - 54087.36 * emsq + 31324.56 * eoc
                        : 1464.74 - 4664.75 * em + 3763.64 * emsq
                }
                let g533, g521, g532: Double
                if em < 0.7 {
                    g533 = -919.22770 + 4988.6100 * em - 9064.7700 * emsq + 5542.21 * eoc
                    g521 = -822.71072 + 4568.6173 * em - 8491.4146 * emsq + 5337.524 * eoc
                    g532 = -853.66600 + 4690.2500 * em - 8624.7700 * emsq + 5341.4 * eoc
                } else {
                    g533 = -37995.780 + 161616.52 * em - 229838.20 * emsq + 109377.94 * eoc
                    g521 = -51752.104 + 218913.95 * em - 309468.16 * emsq + 146349.42 * eoc
                    g532 = -40023.880 + 170470.89 * em - 242699.48 * emsq + 115605.82 * eoc
                }
                let sini2 = sinim * sinim
                let f220 = 0.75 * (1 + 2 * cosim + cosisq)
                let f221 = 1.5 * sini2
                let f321 = 1.875 * sinim * (1 - 2 * cosim - 3 * cosisq)
                let f322 = -1.875 * sinim * (1 + 2 * cosim - 3 * cosisq)
                let f441 = 35 * sini2 * f220
                let f442 = 39.3750 * sini2 * sini2
                let f522 = 9.84375 * sinim * (sini2 * (1 - 2 * cosim - 5 * cosisq) + 0.33333333 * (-2 + 4 * cosim + 6 * cosisq))
                let f523 = sinim * (4.92187512 * sini2 * (-2 - 4 * cosim + 10 * cosisq) + 6.56250012 * (1 + 2 * cosim - 3 * cosisq))
                let f542 = 29.53125 * sinim * (2 - 8 * cosim + cosisq * (-12 + 8 * cosim + 10 * cosisq))
                let f543 = 29.53125 * sinim * (-2 - 8 * cosim + cosisq * (12 + 8 * cosim - 10 * cosisq))
                let root22 = 1.7891679e-6, root32 = 3.7393792e-7, root44 = 7.3636953e-9
                let root52 = 1.1428639e-7, root54 = 2.1765803e-9
                var temp1 = 3 * nm * nm * aonv * aonv
                var temp = temp1 * root22
                d2201 = temp * f220 * g201
                d2211 = temp * f221 * g211
                temp1 *= aonv
                temp = temp1 * root32
                d3210 = temp * f321 * g310
                d3222 = temp * f322 * g322
                temp1 *= aonv
                temp = 2 * temp1 * root44
                d4410 = temp * f441 * g410
                d4422 = temp * f442 * g422
                temp1 *= aonv
                temp = temp1 * root52
                d5220 = temp * f522 * g520
                d5232 = temp * f523 * g532
                temp = 2 * temp1 * root54
                d5421 = temp * f542 * g521
                d5433 = temp * f543 * g533
                xlamo = fmod(mo + nodeo + nodeo - theta - theta, twoPi)
                xfact = mdot + dmdt + 2 * (nodedot + dnodt - Self.rptim) - noUnkozai
            case .synchronous:
                let q22 = 1.7891679e-6, q31 = 2.1460748e-6, q33 = 2.2123015e-7
                let g200 = 1 + emsq * (-2.5 + 0.8125 * emsq)
                let g310 = 1 + 2 * emsq
                let g300 = 1 + emsq * (-6 + 6.60937 * emsq)
                let f220 = 0.75 * (1 + cosim) * (1 + cosim)
                let f311 = 0.9375 * sinim * sinim * (1 + 3 * cosim) - 0.75 * (1 + cosim)
                let f330 = 1.875 * pow(1 + cosim, 3)
                let base = 3 * nm * nm * aonv * aonv
                del2 = 2 * base * f220 * g200 * q22
                del3 = 3 * base * f330 * g300 * q33 * aonv
                del1 = base * f311 * g310 * q31 * aonv
                xlamo = fmod(mo + nodeo + argpo - theta, twoPi)
                xfact = mdot + xpidot - Self.rptim + dmdt + domdt + dnodt - noUnkozai
            }
        }

        /// The secular lunar-solar effects and the resonance integration (the paper's `dspace`)
        /// at `t` minutes after epoch; updates the mean elements in place.
        func secularAndResonance(t: Double, argpo: Double, argpdot: Double, noUnkozai: Double,
                                 em: inout Double, argpm: inout Double, inclm: inout Double,
                                 mm: inout Double, nodem: inout Double, nm: inout Double) {
            let theta = fmod(gsto + t * Self.rptim, SGP4.twoPi)
            em += dedt * t
            inclm += didt * t
            argpm += domdt * t
            nodem += dnodt * t
            mm += dmdt * t
            guard resonance != .none else { return }

            let fasx2 = 0.13130908, fasx4 = 2.8843198, fasx6 = 0.37448087
            let g22 = 5.7686396, g32 = 0.95240898, g44 = 1.8014998, g52 = 1.0508330, g54 = 4.4108898
            let stepp = 720.0, step2 = 259200.0
            // Euler-Maclaurin integration from the epoch in 720-minute steps.
            var atime = 0.0
            var xni = noUnkozai
            var xli = xlamo
            let delt = t > 0 ? stepp : -stepp
            var xndt = 0.0, xldot = 0.0, xnddt = 0.0, ft = 0.0
            while true {
                if resonance == .synchronous {
                    xndt = del1 * sin(xli - fasx2) + del2 * sin(2 * (xli - fasx4)) + del3 * sin(3 * (xli - fasx6))
                    xldot = xni + xfact
                    xnddt = del1 * cos(xli - fasx2) + 2 * del2 * cos(2 * (xli - fasx4)) + 3 * del3 * cos(3 * (xli - fasx6))
                    xnddt *= xldot
                } else {
                    let xomi = argpo + argpdot * atime
                    let x2omi = xomi + xomi
                    let x2li = xli + xli
                    xndt = d2201 * sin(x2omi + xli - g22) + d2211 * sin(xli - g22)
                        + d3210 * sin(xomi + xli - g32) + d3222 * sin(-xomi + xli - g32)
                        + d4410 * sin(x2omi + x2li - g44) + d4422 * sin(x2li - g44)
                        + d5220 * sin(xomi + xli - g52) + d5232 * sin(-xomi + xli - g52)
                        + d5421 * sin(xomi + x2li - g54) + d5433 * sin(-xomi + x2li - g54)
                    xldot = xni + xfact
                    xnddt = d2201 * cos(x2omi + xli - g22) + d2211 * cos(xli - g22)
                        + d3210 * cos(xomi + xli - g32) + d3222 * cos(-xomi + xli - g32)
                        + d5220 * cos(xomi + xli - g52) + d5232 * cos(-xomi + xli - g52)
                        + 2 * (d4410 * cos(x2omi + x2li - g44) + d4422 * cos(x2li - g44)
                            + d5421 * cos(xomi + x2li - g54) + d5433 * cos(-xomi + x2li - g54))
                    xnddt *= xldot
                }
                if abs(t - atime) < stepp {
                    ft = t - atime
                    break
                }
                xli += xldot * delt + xndt * step2
                xni += xndt * delt + xnddt * step2
                atime += delt
            }
            nm = xni + xndt * ft + xnddt * ft * ft * 0.5
            let xl = xli + xldot * ft + xndt * ft * ft * 0.5
            if resonance == .synchronous {
                mm = xl - nodem - argpm + theta
            } else {
                mm = xl - 2 * nodem + 2 * theta
            }
        }

        /// The lunar-solar periodics (the paper's `dpper` after initialisation) at `t` minutes
        /// after epoch, applied to the elements in place; Lyddane's modification below 0.2 rad
        /// inclination.
        func periodics(t: Double, ep: inout Double, inclp: inout Double, nodep: inout Double,
                       argpp: inout Double, mp: inout Double) {
            func terms(_ zm: Double, _ e: Double) -> (f2: Double, f3: Double, sinzf: Double) {
                let zf = zm + 2 * e * sin(zm)
                let sinzf = sin(zf)
                return (0.5 * sinzf * sinzf - 0.25, -0.5 * sinzf * cos(zf), sinzf)
            }
            let s = terms(zmos + Self.zns * t, Self.zes)
            let ses = se2 * s.f2 + se3 * s.f3
            let sis = si2 * s.f2 + si3 * s.f3
            let sls = sl2 * s.f2 + sl3 * s.f3 + sl4 * s.sinzf
            let sghs = sgh2 * s.f2 + sgh3 * s.f3 + sgh4 * s.sinzf
            let shs = sh2 * s.f2 + sh3 * s.f3
            let l = terms(zmol + Self.znl * t, Self.zel)
            let sel = ee2 * l.f2 + e3 * l.f3
            let sil = xi2 * l.f2 + xi3 * l.f3
            let sll = xl2 * l.f2 + xl3 * l.f3 + xl4 * l.sinzf
            let sghl = xgh2 * l.f2 + xgh3 * l.f3 + xgh4 * l.sinzf
            let shll = xh2 * l.f2 + xh3 * l.f3
            // The values at epoch (peo, pinco, …) are zero in the improved mode.
            let pe = ses + sel
            let pinc = sis + sil
            let pl = sls + sll
            var pgh = sghs + sghl
            var ph = shs + shll

            inclp += pinc
            ep += pe
            let sinip = sin(inclp), cosip = cos(inclp)
            if inclp >= 0.2 {
                ph /= sinip
                pgh -= cosip * ph
                argpp += pgh
                nodep += ph
                mp += pl
            } else {
                // Lyddane's modification for low inclinations.
                let sinop = sin(nodep), cosop = cos(nodep)
                var alfdp = sinip * sinop
                var betdp = sinip * cosop
                let dalf = ph * cosop + pinc * cosip * sinop
                let dbet = -ph * sinop + pinc * cosip * cosop
                alfdp += dalf
                betdp += dbet
                nodep = fmod(nodep, SGP4.twoPi)
                var xls = mp + argpp + cosip * nodep
                let dls = pl + pgh - pinc * nodep * sinip
                xls += dls
                let xnoh = nodep
                nodep = atan2(alfdp, betdp)
                if abs(xnoh - nodep) > Double.pi {
                    nodep += nodep < xnoh ? SGP4.twoPi : -SGP4.twoPi
                }
                mp += pl
                argpp = xls - mp - cosip * nodep
            }
        }
    }
}
