import Foundation

/// Runs the built `geofare` binary as a subprocess, the way a user or a backend does.
public enum GeoFareBinary {
    /// The binary: `$GEOFARE_BIN`, or `geofare` beside the test bundle in the build folder.
    public static var url: URL {
        if let path = ProcessInfo.processInfo.environment["GEOFARE_BIN"] { return URL(fileURLWithPath: path) }
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = dir.appendingPathComponent("geofare")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            dir.deleteLastPathComponent()
        }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(".build/debug/geofare")
    }

    public struct Result: Sendable {
        public let status: Int32
        public let stdout: String
        public let stderr: String
    }

    /// Runs `geofare ARGS` with `stdin` as its input and waits for it (killed after `timeout`
    /// seconds: see ``runTool(_:_:stdin:cwd:timeout:)``).
    public static func run(_ arguments: [String], stdin: String = "", cwd: URL? = nil, timeout: Double = 600) throws -> Result {
        try runTool(url.path, arguments, stdin: stdin, cwd: cwd, timeout: timeout)
    }

    /// Runs any program (`python3`, `/usr/bin/env`) the same way, to compare with an independent tool.
    /// A program still running after `timeout` seconds is killed (SIGKILL): its status is then 9
    /// and its stderr says so, so a hang fails the test in bounded time.
    public static func runTool(_ path: String, _ arguments: [String], stdin: String = "", cwd: URL? = nil, timeout: Double = 600) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        if let cwd { process.currentDirectoryURL = cwd }
        let inPipe = Pipe(), outPipe = Pipe(), errPipe = Pipe()
        process.standardInput = inPipe
        process.standardOutput = outPipe
        process.standardError = errPipe
        try process.run()
        // Read both pipes on other threads so a large output never blocks the child.
        let out = PipeCollector(outPipe), err = PipeCollector(errPipe)
        inPipe.fileHandleForWriting.write(Data(stdin.utf8))
        try inPipe.fileHandleForWriting.close()
        let exited = waitForExit(process, timeout: timeout)
        let killed = exited ? "" : "\n[test support: \(path) killed after \(Int(timeout)) s]"
        return Result(status: process.terminationStatus, stdout: out.text(), stderr: err.text() + killed)
    }

    /// Waits for `process` to exit; after `timeout` seconds kills it (SIGKILL) and waits for
    /// that. Returns whether it exited by itself.
    public static func waitForExit(_ process: Process, timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(TestTime.seconds(timeout))
        var pause: UInt32 = 1_000
        while process.isRunning && Date() < deadline {
            usleep(pause)
            pause = min(pause * 2, 20_000)
        }
        let exited = !process.isRunning
        if !exited { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        return exited
    }

    /// Collects everything written to a pipe, on a background thread.
    final class PipeCollector: @unchecked Sendable {
        private var data = Data()
        private let done = DispatchSemaphore(value: 0)
        init(_ pipe: Pipe) {
            let handle = pipe.fileHandleForReading
            Thread.detachNewThread { [self] in
                data = handle.readDataToEndOfFile()
                done.signal()
            }
        }
        func text() -> String {
            done.wait()
            return String(decoding: data, as: UTF8.self)
        }
    }
}
