import Foundation

/// The team's shared data beside the checkout (`../shared/data`: real OpenStreetMap extracts in
/// `osm/`, real NYC taxi trips in `nyc/`), read where it is and never copied into the repository.
///
/// Tests that need it run where it is present and always on CI (`CI` set), where a missing file
/// is then a failure; elsewhere they are reported as skipped with the reason, never as passed.
public enum SharedData {
    /// `../shared/data`, from this file's path.
    public static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/data")

    /// A path below ``directory``, e.g. `osm/seoul_mapo.osm.pbf`.
    public static func url(_ relative: String) -> URL { directory.appendingPathComponent(relative) }

    /// Whether this is a CI run (the environment variable `CI` is set).
    public static var onCI: Bool { ProcessInfo.processInfo.environment["CI"] != nil }

    /// Whether tests that need `relative` run: it exists, or this is CI.
    public static func runs(_ relative: String) -> Bool {
        FileManager.default.fileExists(atPath: url(relative).path) || onCI
    }
}
