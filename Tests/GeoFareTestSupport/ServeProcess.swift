import Foundation

/// A `geofare serve` subprocess on a free loopback port, as an operator starts it.
public final class ServeProcess: @unchecked Sendable {
    public let process = Process()
    private let stderr = Pipe(), stdout = Pipe()
    private let lock = NSLock()
    private var errorText = ""
    /// The port it listens on.
    public private(set) var port = 0

    /// Starts `geofare serve --port 0 ARGUMENTS` and waits until it listens.
    /// - Throws: ``Failure`` when it exits or does not listen within `timeout` seconds.
    public init(arguments: [String], timeout: Double = 60) throws {
        signal(SIGPIPE, SIG_IGN)
        process.executableURL = GeoFareBinary.url
        process.arguments = ["serve", "--port", "0"] + arguments
        process.standardError = stderr
        process.standardOutput = stdout
        try process.run()
        let err = stderr.fileHandleForReading
        Thread.detachNewThread { [self] in
            while true {
                let d = err.availableData
                if d.isEmpty { return }
                lock.withLock { errorText += String(decoding: d, as: UTF8.self) }
            }
        }
        let deadline = Date().addingTimeInterval(TestTime.seconds(timeout))
        while Date() < deadline && process.isRunning {
            if let m = output.firstMatch(of: /listening on http:\/\/[0-9.]+:([0-9]+)/), let p = Int(m.output.1) {
                port = p
                return
            }
            usleep(20_000)
        }
        process.terminate()
        throw Failure(description: "geofare serve did not start: \(output)")
    }

    /// What it wrote to stderr so far (logs, the listening line).
    public var output: String { lock.withLock { errorText } }

    /// A new client connection to it.
    public func client() throws -> HTTPClient { try HTTPClient(port: port) }

    /// Sends `signal` (SIGTERM by default) and waits for the exit.
    /// - Returns: the exit status and the seconds it took, or `nil` status when it had to be killed after `timeout`.
    public func stop(_ signal: Int32 = SIGTERM, timeout: Double = 30) -> (status: Int32?, seconds: Double) {
        let start = Date()
        kill(process.processIdentifier, signal)
        let exited = GeoFareBinary.waitForExit(process, timeout: timeout)
        return (exited ? process.terminationStatus : nil, Date().timeIntervalSince(start))
    }

    deinit { if process.isRunning { process.terminate() } }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }
}

/// A minimal HTTP/1.1 client over one keep-alive loopback connection (blocking, on the calling
/// thread): enough to test a server byte for byte, send what a real client would not (a 10 MB
/// body, a wrong media type) and load it from many threads, without a client library.
public final class HTTPClient {
    private let fd: Int32
    private var pending: [UInt8] = []

    public struct Response: Sendable {
        public let status: Int
        public let headers: [String: String]
        public let body: [UInt8]
        public var text: String { String(decoding: body, as: UTF8.self) }
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public init(port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { close(fd); throw Failure(description: "connect to port \(port): errno \(errno)") }
        var timeout = timeval(tv_sec: 120, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(fd) }

    /// `POST path` with a JSON body.
    public func post(_ path: String, _ body: String, contentType: String? = "application/json") throws -> Response {
        try request("POST", path, body: Array(body.utf8), contentType: contentType)
    }

    public func get(_ path: String) throws -> Response { try request("GET", path) }

    /// Sends one request and reads its response (the server may answer before reading the
    /// whole body, as it does for one over its limit: a failed write is then not an error).
    public func request(_ method: String, _ path: String, body: [UInt8] = [], contentType: String? = nil) throws -> Response {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(body.count)\r\n"
        if let contentType { head += "Content-Type: \(contentType)\r\n" }
        head += "\r\n"
        let bytes = Array(head.utf8) + body
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { break }
            sent += n
        }
        return try readResponse()
    }

    private func fill() throws {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard n > 0 else { throw Failure(description: "connection closed or timed out (recv \(n), errno \(errno))") }
        pending += chunk[..<n]
    }

    private func readResponse() throws -> Response {
        let separator: [UInt8] = [13, 10, 13, 10]
        var end: Range<Int>?
        while true {
            end = pending.firstRange(of: separator)
            if end != nil { break }
            try fill()
        }
        let headText = String(decoding: pending[..<end!.lowerBound], as: UTF8.self)
        pending.removeSubrange(..<end!.upperBound)
        var lines = headText.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else { throw Failure(description: "bad status line: \(headText)") }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var body: [UInt8] = []
        if let length = headers["content-length"].flatMap({ Int($0) }) {
            while pending.count < length { try fill() }
            body = Array(pending[..<length])
            pending.removeSubrange(..<length)
        } else if headers["transfer-encoding"]?.lowercased() == "chunked" {
            while true {
                var lineEnd: Range<Int>?
                while true { lineEnd = pending.firstRange(of: [13, 10]); if lineEnd != nil { break }; try fill() }
                let size = Int(String(decoding: pending[..<lineEnd!.lowerBound], as: UTF8.self).split(separator: ";")[0], radix: 16) ?? 0
                pending.removeSubrange(..<lineEnd!.upperBound)
                while pending.count < size + 2 { try fill() }
                body += pending[..<size]
                pending.removeSubrange(..<(size + 2))
                if size == 0 { break }
            }
        }
        return Response(status: status, headers: headers, body: body)
    }
}
