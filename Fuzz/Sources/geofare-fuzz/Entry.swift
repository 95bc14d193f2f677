import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One fuzz target: set up once (``setUp``), then one input at a time (``run``). A finding is a
/// crash, a sanitizer report, or a failed check (``check(_:_:)``, which aborts).
struct FuzzTarget: Sendable {
    let name: String
    let summary: String
    var setUp: @Sendable () -> Void = {}
    let run: @Sendable (UnsafeRawBufferPointer) -> Void
}

/// Every target, by the name `GEOFARE_FUZZ_TARGET` (or `.ci/fuzz`) gives.
let allTargets: [FuzzTarget] = [
    WorkerTarget.target, CSVTarget.target, PBFTarget.target, GraphFileTarget.target, PlacesFileTarget.target,
    TariffTarget.target, ZoneTarget.target, PostgresURLTarget.target, SearchTextTarget.target, ISO8601Target.target,
    TrafficTarget.target, RidesCSVTarget.target,
]

nonisolated(unsafe) var selected: FuzzTarget?

/// A failed check: the input that did it is the finding (libFuzzer saves it as crash-*).
func check(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    guard !condition() else { return }
    FileHandle.standardError.write(Data("geofare-fuzz: CHECK FAILED in \(selected?.name ?? "?"): \(message())\n".utf8))
    abort()
}

/// Writes `bytes` to `path` (replacing it): for the readers that take a path.
func write(_ bytes: UnsafeRawBufferPointer, to path: String) {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    precondition(fd >= 0, "cannot open \(path)")
    var offset = 0
    while offset < bytes.count {
        let n = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
        precondition(n > 0, "cannot write \(path)")
        offset += n
    }
    close(fd)
}

@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> CInt {
    let env = ProcessInfo.processInfo.environment
    if let dir = env["GEOFARE_FUZZ_WRITE_SEEDS"] {
        Seeds.write(to: dir)
        exit(0)
    }
    if env["GEOFARE_FUZZ_LIST"] != nil {
        for t in allTargets { print("\(t.name)\t\(t.summary)") }
        exit(0)
    }
    guard let name = env["GEOFARE_FUZZ_TARGET"], let target = allTargets.first(where: { $0.name == name }) else {
        FileHandle.standardError.write(Data("geofare-fuzz: set GEOFARE_FUZZ_TARGET to one of: \(allTargets.map(\.name).joined(separator: ", "))\n".utf8))
        exit(2)
    }
    selected = target
    target.setUp()
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let target = selected else { return 0 }
    target.run(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}

/// libFuzzer's driver (`-sanitize=fuzzer` links it): what its own `main` runs.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                         _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt

/// The executable's entry: SwiftPM links an executable target's `main` to `<module>_main`, so
/// this hands the process to libFuzzer's driver (which calls ``fuzzInitialize`` first).
@_cdecl("geofare_fuzz_main")
public func geofareFuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    var argc = argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = argv
    return LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzTestOneInput(data, size) }
}
