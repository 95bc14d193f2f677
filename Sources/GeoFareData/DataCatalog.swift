import CGeoFareData
import Foundation
import GeoFareCore

/// The data files GeoFare runs on: the ones embedded from the package's `Data/` folder, with
/// an optional user directory whose files add to or override them by relative path.
///
/// Paths are relative to `Data/`, e.g. `crs/aliases.json` or `tariffs/kr-seoul-regular.json`.
/// A user directory laid out the same way (`--data DIR`) wins over the embedded copy of a path.
public struct DataCatalog: Sendable {
    /// The user directory that overrides embedded files, if any.
    public let overrideDirectory: URL?

    /// The catalog of embedded files only.
    public static let embedded = DataCatalog(overrideDirectory: nil)

    public init(overrideDirectory: URL?) {
        self.overrideDirectory = overrideDirectory
    }

    /// The relative paths of all embedded files, in the order they were embedded.
    public static var embeddedPaths: [String] {
        (0..<geofare_data_file_count()).map { String(cString: geofare_data_file_at($0)!.pointee.path) }
    }

    /// The bytes of the embedded file at `path`, or `nil` if no such file is embedded.
    public static func embeddedFile(_ path: String) -> Data? {
        for i in 0..<geofare_data_file_count() {
            let f = geofare_data_file_at(i)!.pointee
            if String(cString: f.path) == path {
                return Data(bytes: f.bytes, count: f.length)
            }
        }
        return nil
    }

    /// The relative paths of every file under `folder` (e.g. `tariffs/`) with one of the
    /// given extensions, embedded and user-supplied together, sorted.
    /// - Throws: ``GeoFareError`` when the override directory cannot be listed.
    public func paths(under folder: String, extensions: Set<String>) throws(GeoFareError) -> [String] {
        var result = Set(Self.embeddedPaths.filter { $0.hasPrefix(folder) && extensions.contains(($0 as NSString).pathExtension) })
        if let dir = overrideDirectory?.appendingPathComponent(folder) {
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: dir.path, isDirectory: &isDir), isDir.boolValue {
                do {
                    for name in try FileManager.default.contentsOfDirectory(atPath: dir.path)
                    where extensions.contains((name as NSString).pathExtension) {
                        result.insert(folder + name)
                    }
                } catch {
                    throw .dataDirectoryUnreadable(dir.path, error.localizedDescription, field: folder)
                }
            }
        }
        return result.sorted()
    }

    /// The bytes of `path`: the user directory's copy when it has one, else the embedded one.
    /// - Returns: the bytes and where they came from (a file path or `embedded:PATH`).
    /// - Throws: ``GeoFareError`` `data_file_missing` when neither has the file.
    public func file(_ path: String) throws(GeoFareError) -> (bytes: Data, origin: String) {
        if let dir = overrideDirectory {
            let url = dir.appendingPathComponent(path)
            if FileManager.default.fileExists(atPath: url.path) {
                do { return (try Data(contentsOf: url), url.path) } catch {
                    throw .dataFileUnreadable(url.path, error.localizedDescription, field: path)
                }
            }
        }
        guard let data = Self.embeddedFile(path) else {
            throw .dataFileMissing(path)
        }
        return (data, "embedded:" + path)
    }
}

