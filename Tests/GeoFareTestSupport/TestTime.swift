import Foundation

/// Time limits of tests and of the programs they run, scaled for slow builds: `.ci/sanitize`
/// runs the suite with AddressSanitizer or ThreadSanitizer (5–15× slower, and the CLI suites
/// run the sanitized `geofare` hundreds of times) and sets `GEOFARE_TEST_TIME_SCALE`.
/// Without it the limits are the ones written (scale 1).
public enum TestTime {
    /// `GEOFARE_TEST_TIME_SCALE` (a whole number ≥ 1), else 1.
    public static let scale: Int = {
        guard let s = ProcessInfo.processInfo.environment["GEOFARE_TEST_TIME_SCALE"], let n = Int(s), n >= 1 else { return 1 }
        return n
    }()

    /// `n` minutes, scaled: for `.timeLimit(.minutes(TestTime.minutes(10)))`.
    public static func minutes(_ n: Int) -> Int { n * scale }

    /// `s` seconds, scaled: a subprocess's or a reply's deadline.
    public static func seconds(_ s: Double) -> Double { s * Double(scale) }
}
