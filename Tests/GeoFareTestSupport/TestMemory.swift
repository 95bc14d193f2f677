import Foundation

/// Memory bounds of tests, widened for sanitized builds: AddressSanitizer keeps freed memory in
/// its quarantine (256 MiB by default) before reusing it, so a process that frees what it
/// allocates still grows by up to that much. `.ci/sanitize` sets
/// `GEOFARE_TEST_MEMORY_SLACK_KIB` for its AddressSanitizer run; without it the slack is 0.
public enum TestMemory {
    /// `GEOFARE_TEST_MEMORY_SLACK_KIB` (a whole number ≥ 0), else 0.
    public static let slackKiB: Int = {
        guard let s = ProcessInfo.processInfo.environment["GEOFARE_TEST_MEMORY_SLACK_KIB"], let n = Int(s), n >= 0 else { return 0 }
        return n
    }()

    /// A growth bound of `kib` KiB, plus the slack.
    public static func growthKiB(_ kib: Int) -> Int { kib + slackKiB }
}
